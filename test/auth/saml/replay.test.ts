import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import t from 'tap'
import { expectAccepted, expectRejected, harness, newIdp, postCallback, startLogin, type Harness } from './flow.js'

// Replay (docs/auth.md, "What the callback checks"): each response gives at most one session, also
// when ten copies race and when the copies land on two instances that share one Redis.
const idp = newIdp()
const redisUrl = 'redis://127.0.0.1:6379'
const prefix = `test-saml-replay-${process.pid}-${randomBytes(4).toString('hex')}:`
const redis = new Redis(redisUrl)
t.teardown(async () => {
  const keys = await redis.keys(`${prefix}*`)
  if (keys.length) await redis.del(...keys)
  await redis.quit()
})

async function race(apps: Harness[], samlResponse: string, relayState: string, copies = 10) {
  const responses = await Promise.all(Array.from({ length: copies }, (_, i) => postCallback(apps[i % apps.length]!.app, samlResponse, relayState, true)))
  return {
    won: responses.filter((r) => r.statusCode === 200).length,
    lost: responses.filter((r) => r.statusCode === 401 && r.json().error === 'SAML validation failed').length,
    other: responses.filter((r) => r.statusCode !== 200 && r.statusCode !== 401).map((r) => r.body),
  }
}

for (const mode of ['store', 'redis'] as const) {
  t.test(`${mode}: the same response posted twice gives one session`, async (t) => {
    const h = await harness(t, idp, mode === 'redis' ? { REDIS_URL: redisUrl, REDIS_PREFIX: prefix } : {})
    t.equal(h.app.oneTime.kind, mode)
    const { requestId, relayState } = await startLogin(h.app)
    const response = idp.signedResponse({ inResponseTo: requestId })
    await expectAccepted(t, h, response, relayState)
    await expectRejected(t, h, response, { message: 'SAML validation failed', reason: /InResponseTo is not valid/ }, relayState)
  })

  t.test(`${mode}: of ten concurrent copies exactly one wins`, async (t) => {
    const h = await harness(t, idp, mode === 'redis' ? { REDIS_URL: redisUrl, REDIS_PREFIX: prefix } : {})
    const { requestId, relayState } = await startLogin(h.app)
    t.same(await race([h], idp.signedResponse({ inResponseTo: requestId }), relayState), { won: 1, lost: 9, other: [] })
  })
}

t.test('the one-time claim holds even when the request id is still known', async (t) => {
  const h = await harness(t, idp, { REDIS_URL: redisUrl, REDIS_PREFIX: prefix })
  const { requestId, relayState } = await startLogin(h.app)
  const requestKey = `${prefix}saml:request:${requestId}`
  const issued = await redis.get(requestKey)
  t.ok(issued, 'the AuthnRequest id is kept in Redis')
  const response = idp.signedResponse({ inResponseTo: requestId })
  await expectAccepted(t, h, response, relayState)
  t.equal(await redis.get(requestKey), null, 'node-saml removed the id')
  // As if the copy had passed node-saml's check before the first one removed the id:
  await redis.set(requestKey, issued!, 'PX', 60_000)
  await expectRejected(t, h, response, { message: 'SAML validation failed', reason: /already used/ }, relayState)
})

t.test('two instances sharing Redis: a request from A is answered on B, and ten copies across both give one session', async (t) => {
  const env = { REDIS_URL: redisUrl, REDIS_PREFIX: prefix }
  const [a, b] = await Promise.all([harness(t, idp, env), harness(t, idp, env)])
  const first = await startLogin(a.app, '/people')
  const crossed = await postCallback(b.app, idp.signedResponse({ inResponseTo: first.requestId }), first.relayState, true)
  t.equal(crossed.statusCode, 200, 'AuthnRequest made on A, response landed on B')
  t.equal(crossed.json().returnTo, '/people', 'returnTo stored by A is found by B')

  const second = await startLogin(a.app)
  t.same(await race([a, b], idp.signedResponse({ inResponseTo: second.requestId }), second.relayState), { won: 1, lost: 9, other: [] })

  const third = await startLogin(b.app)
  const won = await postCallback(a.app, idp.signedResponse({ inResponseTo: third.requestId }), third.relayState, true)
  const { token } = won.json()
  const onA = await a.app.inject({ method: 'POST', url: '/api/auth/token', payload: { customToken: token } })
  t.equal(onA.statusCode, 200, 'the custom token works once')
  const onB = await b.app.inject({ method: 'POST', url: '/api/auth/token', payload: { customToken: token } })
  t.equal(onB.statusCode, 401, 'and not again on the other instance')
})

t.test('Redis unreachable: the callback answers 503, not 500, and does not hang', async (t) => {
  // A hang fails the test at this bound instead of an answer: the event awaited is the 503 itself.
  t.setTimeout(30_000)
  const h = await harness(t, idp, { REDIS_URL: 'redis://127.0.0.1:1', REDIS_PREFIX: prefix })
  const login = await h.app.inject({ method: 'GET', url: '/api/auth/saml/login' })
  t.equal(login.statusCode, 503)
  t.match(login.json().error, /Redis/)
  t.equal(login.json().code, 'ADKS_SHARED_STATE_UNAVAILABLE')
  const callback = await postCallback(h.app, idp.signedResponse({ inResponseTo: '_x' }), undefined, true)
  t.equal(callback.statusCode, 503)
})
