import type { LightMyRequestResponse } from 'fastify'
import t, { type Test } from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { listen, send, type HttpAnswer } from './support.js'

/** The spec's limits (docs/auth.md, "Rate limits"), as the service runs by default. */
const specLimits = { RATE_LIMIT_ANONYMOUS: '100', RATE_LIMIT_USER: '1000', RATE_LIMIT_KEY_READ: '100', RATE_LIMIT_KEY_WRITE: '20' }

type Answer = LightMyRequestResponse | HttpAnswer
const statusOf = (res: Answer) => ('statusCode' in res ? res.statusCode : res.status)

/** The rate-limit headers are there, are integers, and the reset is a Unix time in seconds within the window. */
function checkHeaders(t: Test, res: Answer, limit: number, what: string) {
  const now = Math.floor(Date.now() / 1000)
  t.equal(Number(res.headers['x-ratelimit-limit']), limit, `${what}: X-RateLimit-Limit`)
  const remaining = Number(res.headers['x-ratelimit-remaining'])
  t.ok(Number.isInteger(remaining) && remaining >= 0 && remaining <= limit, `${what}: X-RateLimit-Remaining ${remaining}`)
  const reset = Number(res.headers['x-ratelimit-reset'])
  t.ok(Number.isInteger(reset) && reset >= now && reset <= now + 61, `${what}: X-RateLimit-Reset ${reset} is Unix seconds within the window`)
}

/** Sends `count` requests one after another and returns the statuses. */
async function burst(count: number, request: () => Promise<Answer>): Promise<number[]> {
  const statuses: number[] = []
  for (let i = 0; i < count; i++) statuses.push(statusOf(await request()))
  return statuses
}

function check429(t: Test, res: Answer, limit: number, what: string) {
  t.equal(statusOf(res), 429, `${what}: 429`)
  checkHeaders(t, res, limit, what)
  t.equal(Number(res.headers['x-ratelimit-remaining']), 0, `${what}: nothing remaining`)
  const retryAfter = Number(res.headers['retry-after'])
  t.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `${what}: Retry-After ${retryAfter} s`)
  const body = 'json' in res && typeof res.json === 'function' ? res.json() : undefined
  t.match(body, { success: false, statusCode: 429, code: 'ADKS_RATE_LIMITED', error: /^Rate limit exceeded/ }, `${what}: error body`)
}

// One app for the tests below: each uses its own addresses and users, so their buckets never meet.
const shared = await buildTestApp(t, specLimits)

t.test('every response carries the three headers: public, refused, missing, bad and good requests', async (t) => {
  const { app, as, config } = shared
  t.equal(config.rateLimits.anonymous, 100)
  const user = as('hal@dept.example.edu', 'faculty')
  const cases: Array<[string, Answer, number]> = [
    ['public', await app.inject({ method: 'POST', url: '/api/auth/login', payload: { idToken: 'not.a.token' }, remoteAddress: '10.1.0.1' }), 100],
    ['401', await app.inject({ url: '/api/auth/me', remoteAddress: '10.1.0.1' }), 100],
    ['404', await app.inject({ url: '/api/nothing-here', remoteAddress: '10.1.0.1' }), 100],
    ['400 bad body', await app.inject({ method: 'POST', url: '/api/auth/login', payload: '{"idToken":', headers: { 'content-type': 'application/json' }, remoteAddress: '10.1.0.1' }), 100],
    ['signed in', await user({ url: '/api/auth/me' }), 1000],
    ['403', await user({ method: 'POST', url: '/api/groups', payload: { name: 'x' } }), 1000],
    ['400 validation', await user({ url: '/api/courses?limit=0' }), 1000],
  ]
  for (const [what, res, limit] of cases) checkHeaders(t, res, limit, what)
})

/** A request without a credential to a route that wants one: a 401, counted against the address. */
const anonymous = (remoteAddress: string, headers: Record<string, string> = {}) => shared.app.inject({ url: '/api/auth/me', remoteAddress, headers })

t.test('anonymous callers: 100 a minute per address; the 101st is a 429 with Retry-After', async (t) => {
  const { app } = shared
  const first = await anonymous('10.2.0.1')
  t.equal(Number(first.headers['x-ratelimit-remaining']), 99, 'counts down from the limit')
  t.same(await burst(99, () => anonymous('10.2.0.1')), Array(99).fill(401))
  check429(t, await anonymous('10.2.0.1'), 100, '101st')
  check429(t, await app.inject({ url: '/api/nothing', remoteAddress: '10.2.0.1' }), 100, 'the 404 answer')
  t.equal(statusOf(await anonymous('10.2.0.2')), 401, 'another address has its own bucket')
})

t.test('/health and /ready answer, uncounted, after the anonymous limit of their address is spent', async (t) => {
  const { app } = shared
  t.same(await burst(100, () => anonymous('10.2.1.1')), Array(100).fill(401))
  t.equal(statusOf(await anonymous('10.2.1.1')), 429, 'the address is limited')
  for (const url of ['/health', '/ready']) {
    const res = await app.inject({ url, remoteAddress: '10.2.1.1' })
    t.equal(res.statusCode, 200, `${url} answers`)
    t.equal(res.headers['x-ratelimit-remaining'], undefined, `${url} is not counted`)
  }
  t.same(await burst(150, () => app.inject({ url: '/health', remoteAddress: '10.2.1.2' })), Array(150).fill(200), 'probes never spend a limit')
  t.equal(Number((await anonymous('10.2.1.2')).headers['x-ratelimit-remaining']), 99, 'nor count against their address')
})

t.test('a fresh invalid credential on every request stays in the address bucket', async (t) => {
  const { app } = shared
  const garbage = (i: number) => () => app.inject({ url: '/api/auth/me', remoteAddress: '10.3.0.1', headers: { authorization: `Bearer forged.${i}.token` } })
  const statuses = []
  for (let i = 0; i < 100; i++) statuses.push(...await burst(1, garbage(i)))
  t.same(statuses, Array(100).fill(401))
  check429(t, await garbage(100)(), 100, 'the 101st forged token')
})

t.test('spoofed X-Forwarded-For, mapped IPv4 and one IPv6 /64 count as one caller', async (t) => {
  let i = 0
  const spoofed = () => anonymous('10.4.0.1', { 'x-forwarded-for': `203.0.113.${i++ % 250}` })
  t.same(await burst(100, spoofed), Array(100).fill(401))
  t.equal(statusOf(await spoofed()), 429, 'X-Forwarded-For is not trusted by default')

  t.same(await burst(50, () => anonymous('10.4.0.2')), Array(50).fill(401))
  t.same(await burst(50, () => anonymous('::ffff:10.4.0.2')), Array(50).fill(401))
  t.equal(statusOf(await anonymous('::ffff:10.4.0.2')), 429, '::ffff:10.4.0.2 is 10.4.0.2')

  let host = 0
  const rotating = () => anonymous(`2001:db8:1:2::${(host++).toString(16)}`)
  t.same(await burst(100, rotating), Array(100).fill(401))
  t.equal(statusOf(await rotating()), 429, 'rotating addresses inside one /64')
  t.equal(statusOf(await anonymous('2001:db8:1:3::1')), 401, 'the next /64 is another caller')
})

t.test('signed-in users: 1000 a minute each, whatever address they share', async (t) => {
  const { as } = shared
  const ada = as('ada@dept.example.edu', 'faculty')
  const bob = as('bob@dept.example.edu', 'faculty')
  const statuses = await burst(1000, () => ada({ url: '/api/auth/me', remoteAddress: '10.5.0.1' }))
  t.same(statuses, Array(1000).fill(200), 'beyond the anonymous limit of 100')
  check429(t, await ada({ url: '/api/auth/me', remoteAddress: '10.5.0.1' }), 1000, 'the 1001st')
  const peer = await bob({ url: '/api/auth/me', remoteAddress: '10.5.0.1' })
  t.equal(peer.statusCode, 200, 'a second user behind the same address is unaffected')
  t.equal(Number(peer.headers['x-ratelimit-remaining']), 999)
})

t.test('API keys: 100 reads and 20 writes a minute, in separate buckets, apart from the owner', async (t) => {
  const { app, as } = shared
  const port = await listen(app)
  const owner = as('kay@dept.example.edu', 'faculty')
  const newKey = async () => (await owner({ method: 'POST', url: '/api/api-keys', payload: { name: 'k', permissions: ['read_courses', 'write_publications'] } })).json().key as string
  const key = await newKey()
  // A route no key may write to: refused whatever the key holds, and counted all the same.
  const write = () => send(port, 'POST', '/api/groups', { 'X-API-Key': key }, { name: 'x' })
  const read = () => send(port, 'GET', '/api/courses', { 'X-API-Key': key })

  const firstWrite = await write()
  checkHeaders(t, firstWrite, 20, 'key write')
  t.same(await burst(19, write), Array(19).fill(403), 'writes are refused but counted')
  check429(t, await write(), 20, 'the 21st write')

  const firstRead = await read()
  t.equal(firstRead.status, 200, 'reads have their own bucket')
  checkHeaders(t, firstRead, 100, 'key read')
  t.same(await burst(99, read), Array(99).fill(200))
  check429(t, await read(), 100, 'the 101st read')

  t.equal((await send(port, 'GET', '/api/courses', { 'X-API-Key': await newKey() })).status, 200, 'another key of the same owner')
  t.equal((await owner({ url: '/api/courses' })).statusCode, 200, 'the owner\'s own requests')
})

t.test('the window ends when X-RateLimit-Reset says', async (t) => {
  const { app } = await buildTestApp(t, { ...specLimits, RATE_LIMIT_WINDOW: '2s', RATE_LIMIT_ANONYMOUS: '3' })
  const hit = () => app.inject({ url: '/api/auth/me', remoteAddress: '10.6.0.1' })
  t.same(await burst(3, hit), [401, 401, 401])
  const limited = await hit()
  t.equal(limited.statusCode, 429)
  const reset = Number(limited.headers['x-ratelimit-reset'])
  t.ok(Number(limited.headers['retry-after']) <= 2)
  await new Promise((resolve) => setTimeout(resolve, reset * 1000 - Date.now() + 1000))
  t.equal((await hit()).statusCode, 401, 'served again after the reset time')
})
