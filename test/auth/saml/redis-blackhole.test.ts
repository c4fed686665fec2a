import type { LightMyRequestResponse } from 'fastify'
import { Redis } from 'ioredis'
import t from 'tap'
import { freePort, OwnRedis } from '../../cache/redis.js'
import { tempDir } from '../../helpers/temp-dir.js'
import { buildSamlApp, newIdp, postCallback, startLogin } from './flow.js'

// Sign-in state (request ids, RelayState) and one-time claims (assertions, custom tokens) go through the
// Redis client's circuit breaker like every other request-path command: with Redis black-holed, sign-in
// is refused promptly with a 503 instead of hanging. The bound itself comes from the breaker and the
// client's timeouts; this test only refuses to wait for ever, and checks that the refused commands were
// never sent to the stopped server (a command sent there would have waited out its timeout).
const idp = newIdp()
const hangMs = 30_000

async function answered(request: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined
  const hung = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${hangMs} ms`)), hangMs) })
  return Promise.race([request(), hung]).finally(() => clearTimeout(timer))
}

/** How many sign-in state and claim commands (SET, GET, GETDEL, EXISTS) Redis has run. */
async function stateCommandsRun(control: Redis): Promise<number> {
  const stats = await control.info('commandstats')
  return [...stats.matchAll(/^cmdstat_(?:set|get|getdel|exists):calls=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0)
}

t.test('Redis black-holed: sign-in answers 503 for its state and its one-time claims, and works again after', async (t) => {
  let redis: OwnRedis | undefined
  const dir = await tempDir(t, async () => { redis?.resume(); await redis?.stop() })
  redis = new OwnRedis(await freePort(), dir)
  await redis.start()
  const { app } = await buildSamlApp(t, idp, { REDIS_URL: redis.url })
  t.equal(app.oneTime.kind, 'redis', 'claims are kept in Redis')

  // Before the outage: one sign-in answered with a custom token not yet exchanged, one still at the IdP.
  const done = await startLogin(app)
  const pending = await startLogin(app)
  const accepted = await postCallback(app, idp.signedResponse({ inResponseTo: done.requestId }), done.relayState, true)
  t.equal(accepted.statusCode, 200, 'signed in while Redis answers')
  const customToken = accepted.json().token as string
  const exchange = () => app.inject({ method: 'POST', url: '/api/auth/token', payload: { customToken } })
  const control = new Redis(redis.url)
  t.teardown(() => control.disconnect())
  const before = await stateCommandsRun(control)

  redis.pause()
  const login = await answered(() => app.inject({ method: 'GET', url: '/api/auth/saml/login' }))
  t.equal(login.statusCode, 503, 'a new sign-in: its request id cannot be kept')
  t.match(login.json(), { success: false, code: 'ADKS_SHARED_STATE_UNAVAILABLE', error: /Redis/ })
  const callback = await answered(() => postCallback(app, idp.signedResponse({ inResponseTo: pending.requestId }), pending.relayState, true))
  t.equal(callback.statusCode, 503, 'the answer to a request issued before: its request id cannot be checked')
  t.match(callback.json(), { success: false, code: 'ADKS_SHARED_STATE_UNAVAILABLE', error: /Redis/ })
  const refused = await answered(exchange)
  t.equal(refused.statusCode, 503, 'the custom token: its one-time claim cannot be made')
  t.match(refused.json(), { success: false, code: 'ADKS_SHARED_STATE_UNAVAILABLE', error: /Redis/ })

  redis.resume()
  // The breaker lets a probe through a few seconds after the last failure; until then 503s go on.
  let after = await exchange()
  const deadline = Date.now() + 30_000
  while (after.statusCode === 503 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200))
    after = await exchange()
  }
  t.equal(after.statusCode, 200, 'once Redis answers, the token is exchanged: the refused attempt did not use it up')
  // The exchange's claim was answered on the service's one connection, after anything held on it before.
  t.equal(await stateCommandsRun(control) - before, 1, 'the one claim since the outage began is that exchange: none was sent to the stopped server')
  t.equal((await exchange()).statusCode, 401, 'and only once')
})
