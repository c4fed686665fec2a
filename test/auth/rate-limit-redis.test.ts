import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createServer, type Server, type Socket } from 'node:net'
import { Redis } from 'ioredis'
import t, { type Test } from 'tap'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { captureLogs } from './support.js'

const sharedRedis = 'redis://127.0.0.1:6379'
const limits = { RATE_LIMIT_ANONYMOUS: '100', RATE_LIMIT_USER: '1000', RATE_LIMIT_KEY_READ: '100', RATE_LIMIT_KEY_WRITE: '20' }

/** A counter prefix of this test's own, removed from Redis when the test ends. */
function namespace(t: Test, name: string): string {
  const prefix = `adks:test:${process.pid}:${name}:`
  t.teardown(async () => {
    const redis = new Redis(sharedRedis, { lazyConnect: true })
    await redis.connect()
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
  })
  return prefix
}

async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** A redis-server of this test's own, with nothing written to disk. */
async function startRedis(t: Test, port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString() })
  const deadline = Date.now() + 30_000
  while (!output.includes('Ready to accept connections')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start: ${output}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return child
}

/** Polls until `check` holds or `ms` pass; returns whether it held. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return check()
}

/** Generous: a request that waits this long on Redis has hung, whatever the load on the machine. */
const hangMs = 30_000

/** A request without a credential to a route that wants one: a 401, counted against the address. */
const anonymous = (app: TestApp['app'], remoteAddress: string) => app.inject({ url: '/api/auth/me', remoteAddress })

const requests = (app: TestApp['app'], token: string) => [
  { url: '/health' },
  { url: '/api/auth/me' },
  { url: '/api/courses', headers: { authorization: `Bearer ${token}` } },
  { method: 'POST' as const, url: '/api/auth/login', payload: { idToken: token } },
  { url: '/api/nowhere' },
].map((options) => () => app.inject({ ...options, remoteAddress: '10.9.0.1' }))

/** Every request is answered, none with a 5xx, and none hangs. */
async function servedWithoutRedis(t: Test, app: TestApp['app'], token: string, rounds: number) {
  for (let round = 0; round < rounds; round++) {
    for (const request of requests(app, token)) {
      let timer: NodeJS.Timeout | undefined
      const hung = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${hangMs} ms`)), hangMs) })
      const res = await Promise.race([request(), hung]).finally(() => clearTimeout(timer))
      t.ok(res.statusCode < 500, `${res.statusCode} for ${res.raw.req.method} ${res.raw.req.url}`)
    }
  }
}

t.test('two instances sharing one Redis share the limit; 60 concurrent requests on each let 100 through', async (t) => {
  // Instances behind one load balancer share the signing key as well as Redis.
  const env = { ...limits, REDIS_URL: sharedRedis, RATE_LIMIT_NAMESPACE: namespace(t, 'shared'), JWT_SECRET: randomBytes(48).toString('base64url') }
  const a = await buildTestApp(t, env)
  const b = await buildTestApp(t, env)
  // As a load balancer would, send traffic only once each instance reports itself ready (Redis connected).
  for (const { app } of [a, b]) t.ok(await eventually(async () => (await app.inject({ url: '/ready' })).statusCode === 200), 'instance ready')
  const hit = (app: TestApp['app']) => anonymous(app, '10.8.0.1')
  const answers = await Promise.all([...Array(60)].flatMap(() => [hit(a.app), hit(b.app)]))
  const statuses = answers.map((res) => res.statusCode)
  t.equal(statuses.filter((s) => s === 401).length, 100, 'exactly 100 answered')
  t.equal(statuses.filter((s) => s === 429).length, 20, 'the other 20 refused')
  t.equal((await hit(a.app)).statusCode, 429, 'still refused on A')
  t.equal((await hit(b.app)).statusCode, 429, 'and on B')

  const redis = new Redis(sharedRedis)
  t.teardown(() => redis.quit())
  t.ok((await redis.keys(`${env.RATE_LIMIT_NAMESPACE}*`)).length > 0, 'the counters are in Redis')

  const user = await a.token('ada@dept.example.edu', 'faculty')
  const asUser = (app: TestApp['app']) => app.inject({ url: '/api/auth/me', remoteAddress: '10.8.0.2', headers: { authorization: `Bearer ${user}` } })
  for (let i = 0; i < 500; i++) await asUser(i % 2 ? a.app : b.app)
  const last = await asUser(b.app)
  t.equal(Number(last.headers['x-ratelimit-remaining']), 499, 'a user\'s count is shared too')
})

t.test('with Redis unreachable (a dead port), requests are served and the failure is logged', async (t) => {
  const logs = captureLogs()
  const { app, token } = await buildTestApp(t, { ...limits, REDIS_URL: `redis://127.0.0.1:${await freePort()}`, LOG_LEVEL: 'warn' }, { logStream: logs.stream })
  await servedWithoutRedis(t, app, await token('ada@dept.example.edu', 'faculty'), 4)
  t.ok(await eventually(() => logs.lines.some((line) => line.includes('rate-limit Redis unavailable'))), 'the outage is logged')
  const ready = await app.inject({ url: '/ready' })
  t.equal(ready.statusCode, 503, '/ready reports it')
  t.equal(ready.json().checks.redis.ok, false)
})

t.test('with a Redis that accepts connections and never answers, requests are served', async (t) => {
  const sockets = new Set<Socket>()
  const silent: Server = createServer((socket) => { sockets.add(socket) })
  silent.listen(0, '127.0.0.1')
  await once(silent, 'listening')
  t.teardown(() => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); silent.close(() => resolve()) }))
  const { app, token } = await buildTestApp(t, { ...limits, REDIS_URL: `redis://127.0.0.1:${(silent.address() as { port: number }).port}` })
  await servedWithoutRedis(t, app, await token('ada@dept.example.edu', 'faculty'), 4)
})

t.test('a Redis that stops under a running service: served without limits, then limited again when it is back', async (t) => {
  const port = await freePort()
  let server = await startRedis(t, port)
  const logs = captureLogs()
  const { app, token } = await buildTestApp(t, { ...limits, RATE_LIMIT_ANONYMOUS: '5', REDIS_URL: `redis://127.0.0.1:${port}`, LOG_LEVEL: 'warn' }, { logStream: logs.stream })
  const hit = () => anonymous(app, '10.9.0.2')
  t.ok(await eventually(async () => (await app.inject({ url: '/ready' })).statusCode === 200), 'ready with its Redis')
  t.same([(await hit()).statusCode, Number((await hit()).headers['x-ratelimit-remaining'])], [401, 3], 'counted in the test\'s Redis')
  const direct = new Redis(`redis://127.0.0.1:${port}`)
  t.ok((await direct.keys('adks:rate:*')).length > 0, 'the counter lives in that Redis')
  direct.disconnect()

  server.kill('SIGTERM')
  await once(server, 'exit')
  await servedWithoutRedis(t, app, await token('ada@dept.example.edu', 'faculty'), 3)
  const beyond = []
  for (let i = 0; i < 8; i++) beyond.push((await hit()).statusCode)
  t.same(beyond, Array(8).fill(401), 'fail open: more than the limit is answered while Redis is down')
  t.ok(await eventually(() => logs.lines.some((line) => line.includes('rate-limit Redis unavailable'))), 'the outage is logged')

  server = await startRedis(t, port)
  const limitedAgain = await eventually(async () => {
    const statuses = []
    for (let i = 0; i < 6; i++) statuses.push((await hit()).statusCode)
    return statuses.includes(429)
  })
  t.ok(limitedAgain, 'limits apply again once Redis is back')
})
