import { Redis } from 'ioredis'
import t, { type Test } from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import type { Inject } from '../helpers/records.js'
import { department, personUrl } from './department.js'
import { freePort, OwnRedis } from './redis.js'

/** Well under a second: a cache outage may cost a request the cache's command timeout (300 ms), no more. */
const budgetMs = 700

async function timed(inject: Inject, options: Parameters<Inject>[0]) {
  const started = performance.now()
  const res = await inject(options)
  return { res, ms: performance.now() - started }
}

function warnings(): { lines: string[]; stream: { write(line: string): void } } {
  const lines: string[] = []
  return { lines, stream: { write: (line: string) => { if (line.includes('response cache unavailable')) lines.push(line) } } }
}

async function ownRedis(t: Test): Promise<OwnRedis> {
  let redis: OwnRedis | undefined
  const dir = await tempDir(t, async () => redis?.stop())
  redis = new OwnRedis(await freePort(), dir)
  await redis.start()
  return redis
}

async function until(what: string, check: () => Promise<boolean>, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting until ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

t.test('no Redis on the configured port: every request is served uncached, fast, and the outage logged once', async (t) => {
  const log = warnings()
  const { admin, ids } = await department(t, 'memory', { CACHE_REDIS_URL: `redis://127.0.0.1:${await freePort()}`, LOG_LEVEL: 'warn' }, { logStream: log.stream })
  for (let i = 0; i < 10; i++) {
    for (const url of [personUrl(ids.advisor), '/api/people', '/api/courses', '/api/people/faculty-options']) {
      const { res, ms } = await timed(admin, { method: 'GET', url })
      t.equal(res.statusCode, 200, url)
      t.equal(res.headers['x-cache'], 'bypass', `${url} is served without the cache`)
      t.ok(ms < budgetMs, `${url} answered in ${ms.toFixed(0)} ms`)
    }
  }
  const write = await timed(admin, { method: 'PUT', url: personUrl(ids.advisor), payload: { title: 'Dean' } })
  t.equal(write.res.statusCode, 200, 'writes still succeed')
  t.ok(write.ms < budgetMs, `the write answered in ${write.ms.toFixed(0)} ms`)
  t.equal((await admin({ method: 'GET', url: personUrl(ids.advisor) })).json().title, 'Dean')
  t.equal((await admin({ method: 'GET', url: '/api/admin/cache/stats' })).statusCode, 503, 'cache statistics are unavailable, said so')
  t.equal((await admin({ method: 'POST', url: '/api/admin/cache/clear' })).statusCode, 503)
  t.equal(log.lines.length, 1, 'one warning for the whole outage')
  t.notMatch(log.lines[0], /Faculty|Dean/, 'the warning carries no record data')
})

t.test('Redis stopped and started again: served uncached meanwhile, and no answer older than a write made during the outage', async (t) => {
  const redis = await ownRedis(t)
  const env = { CACHE_REDIS_URL: redis.url }
  const one = await department(t, 'memory', env)
  const other = await buildTestApp(t, env, { store: one.app.store })
  const otherAdmin = other.as('admin@dept.edu', 'admin')
  const url = personUrl(one.ids.advisor)
  for (const inject of [one.admin, otherAdmin]) {
    await inject({ method: 'GET', url })
    t.equal((await inject({ method: 'GET', url })).headers['x-cache'], 'hit', 'cached before the outage')
  }

  await redis.stop()
  for (let i = 0; i < 5; i++) {
    const { res, ms } = await timed(one.admin, { method: 'GET', url })
    t.equal(res.statusCode, 200)
    t.equal(res.headers['x-cache'], 'bypass')
    t.ok(ms < budgetMs, `answered in ${ms.toFixed(0)} ms while Redis is down`)
  }
  const write = await timed(one.admin, { method: 'PUT', url, payload: { title: 'Dean' } })
  t.equal(write.res.statusCode, 200)
  t.ok(write.ms < budgetMs, `the write answered in ${write.ms.toFixed(0)} ms`)

  // The restarted Redis still holds the entries and generations from before the write.
  await redis.start()
  await until('the writing instance is back on the cache', async () => {
    const res = await one.admin({ method: 'GET', url })
    t.equal(res.json().title, 'Dean', `the writing instance shows the write (${res.headers['x-cache']})`)
    return res.headers['x-cache'] !== 'bypass'
  })
  await until('the other instance shows the write', async () => (await otherAdmin({ method: 'GET', url })).json().title === 'Dean')
  t.equal((await otherAdmin({ method: 'GET', url })).json().title, 'Dean')
})

t.test('a write answers only after its invalidation has landed, so another instance never reads past it', async (t) => {
  const redis = await ownRedis(t)
  const env = { CACHE_REDIS_URL: redis.url }
  const one = await department(t, 'memory', env)
  const other = await buildTestApp(t, env, { store: one.app.store })
  const otherAdmin = other.as('admin@dept.edu', 'admin')
  const url = personUrl(one.ids.advisor)
  await otherAdmin({ method: 'GET', url })
  t.equal((await otherAdmin({ method: 'GET', url })).headers['x-cache'], 'hit')

  const control = new Redis(redis.url)
  t.teardown(() => control.quit())
  // Holds every write command (the bump) for a while; reads go on.
  await control.call('CLIENT', 'PAUSE', '200', 'WRITE')
  const write = await timed(one.admin, { method: 'PUT', url, payload: { title: 'Dean' } })
  t.equal(write.res.statusCode, 200)
  t.ok(write.ms >= 100, `the write waited for its invalidation (${write.ms.toFixed(0)} ms)`)
  t.equal((await otherAdmin({ method: 'GET', url })).json().title, 'Dean', 'the other instance shows it at once')
})

t.test('a Redis that stops answering costs one request the cache timeout, then is skipped for a while', async (t) => {
  const redis = await ownRedis(t)
  const { admin, ids } = await department(t, 'memory', { CACHE_REDIS_URL: redis.url })
  const url = personUrl(ids.advisor)
  await admin({ method: 'GET', url })
  const control = new Redis(redis.url)
  t.teardown(() => control.quit())
  await control.call('CLIENT', 'PAUSE', '3000', 'ALL')
  const first = await timed(admin, { method: 'GET', url })
  t.equal(first.res.statusCode, 200)
  t.equal(first.res.headers['x-cache'], 'bypass')
  t.ok(first.ms < budgetMs, `the first request answered in ${first.ms.toFixed(0)} ms`)
  for (let i = 0; i < 5; i++) {
    const { res, ms } = await timed(admin, { method: 'GET', url })
    t.equal(res.statusCode, 200)
    t.equal(res.headers['x-cache'], 'bypass')
    t.ok(ms < 250, `the next ones do not wait for Redis again: ${ms.toFixed(0)} ms`)
  }
  await control.call('CLIENT', 'UNPAUSE')
  await until('the cache is used again', async () => (await admin({ method: 'GET', url })).headers['x-cache'] === 'hit')
})
