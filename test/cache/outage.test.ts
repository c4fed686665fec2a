import { Redis } from 'ioredis'
import t, { type Test } from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import type { Inject } from '../helpers/records.js'
import { department, personUrl } from './department.js'
import { freePort, OwnRedis } from './redis.js'

/** Generous: a request that waits this long on the cache has hung, whatever the load on the machine. */
const hangMs = 30_000

/** The answer, or a failure if none came within `hangMs`. */
async function answered(inject: Inject, options: Parameters<Inject>[0]) {
  let timer: NodeJS.Timeout | undefined
  const hung = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${hangMs} ms`)), hangMs) })
  return Promise.race([inject(options), hung]).finally(() => clearTimeout(timer))
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

async function until(what: string, check: () => Promise<boolean>, withinMs = 30_000): Promise<void> {
  const deadline = Date.now() + withinMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting until ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

t.test('no Redis on the configured port: every request is served uncached and the outage logged once', async (t) => {
  const log = warnings()
  const { admin, ids } = await department(t, 'memory', { CACHE_REDIS_URL: `redis://127.0.0.1:${await freePort()}`, LOG_LEVEL: 'warn' }, { logStream: log.stream })
  for (let i = 0; i < 10; i++) {
    for (const url of [personUrl(ids.advisor), '/api/people', '/api/courses', '/api/people/faculty-options']) {
      const res = await answered(admin, { method: 'GET', url })
      t.equal(res.statusCode, 200, url)
      t.equal(res.headers['x-cache'], 'bypass', `${url} is served without the cache`)
    }
  }
  const write = await answered(admin, { method: 'PUT', url: personUrl(ids.advisor), payload: { title: 'Dean' } })
  t.equal(write.statusCode, 200, 'writes still succeed')
  t.equal((await admin({ method: 'GET', url: personUrl(ids.advisor) })).json().title, 'Dean')
  t.equal((await admin({ method: 'GET', url: '/api/admin/cache/stats' })).statusCode, 503, 'cache statistics are unavailable, said so')
  t.equal((await admin({ method: 'POST', url: '/api/admin/cache/clear' })).statusCode, 503)
  t.equal(log.lines.length, 1, 'one warning for the whole outage')
  t.notMatch(log.lines[0], /Faculty|Dean/, 'the warning carries no record data')
})

/**
 * Where Redis is stopped outright (refused at once) or paused for less than the command timeout, the
 * longest timeout keeps a busy machine from turning the hits these tests expect into bypasses. The test of
 * a Redis that stops answering keeps the default, as the timeout is what it tests.
 */
const patient = { CACHE_TIMEOUT_MS: '30000' }

t.test('Redis stopped and started again: served uncached meanwhile, and no answer older than a write made during the outage', async (t) => {
  const redis = await ownRedis(t)
  const env = { CACHE_REDIS_URL: redis.url, ...patient }
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
    const res = await answered(one.admin, { method: 'GET', url })
    t.equal(res.statusCode, 200, 'answered while Redis is down')
    t.equal(res.headers['x-cache'], 'bypass')
  }
  const write = await answered(one.admin, { method: 'PUT', url, payload: { title: 'Dean' } })
  t.equal(write.statusCode, 200)

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
  const env = { CACHE_REDIS_URL: redis.url, ...patient }
  const one = await department(t, 'memory', env)
  const other = await buildTestApp(t, env, { store: one.app.store })
  const otherAdmin = other.as('admin@dept.edu', 'admin')
  const url = personUrl(one.ids.advisor)
  await otherAdmin({ method: 'GET', url })
  t.equal((await otherAdmin({ method: 'GET', url })).headers['x-cache'], 'hit')

  const control = new Redis(redis.url)
  t.teardown(() => control.quit())
  const generations = async () => {
    const keys = (await control.keys('adks:cache:g:*')).sort()
    return Promise.all(keys.map(async (k) => `${k}=${await control.get(k)}`))
  }
  const before = await generations()
  // Holds every write command (the bump) for a while; reads go on.
  await control.call('CLIENT', 'PAUSE', '200', 'WRITE')
  const write = await answered(one.admin, { method: 'PUT', url, payload: { title: 'Dean' } })
  t.equal(write.statusCode, 200)
  t.notSame(await generations(), before, 'the bump had landed when the write answered')
  t.equal((await otherAdmin({ method: 'GET', url })).json().title, 'Dean', 'the other instance shows it at once')
})

t.test('a Redis that stops answering: requests go on without the cache, and use it again once it answers', async (t) => {
  const redis = await ownRedis(t)
  const { admin, ids } = await department(t, 'memory', { CACHE_REDIS_URL: redis.url })
  const url = personUrl(ids.advisor)
  await admin({ method: 'GET', url })
  const control = new Redis(redis.url)
  t.teardown(() => control.quit())
  await control.call('CLIENT', 'PAUSE', '3000', 'ALL')
  for (let i = 0; i < 6; i++) {
    const res = await answered(admin, { method: 'GET', url })
    t.equal(res.statusCode, 200)
    t.equal(res.headers['x-cache'], 'bypass', 'served without the cache')
  }
  await control.call('CLIENT', 'UNPAUSE')
  await until('the cache is used again', async () => (await admin({ method: 'GET', url })).headers['x-cache'] === 'hit')
})
