import { Redis } from 'ioredis'
import t, { type Test } from 'tap'
import { buildTestApp } from '../helpers/app.js'
import type { Inject } from '../helpers/records.js'
import { tempDir } from '../helpers/temp-dir.js'
import { department, personUrl } from '../cache/department.js'
import { freePort, OwnRedis } from '../cache/redis.js'

/** Generous: a request that waits this long on Redis has hung, whatever the load on the machine. */
const hangMs = 30_000
const reads = 120

async function ownRedis(t: Test): Promise<OwnRedis> {
  let redis: OwnRedis | undefined
  const dir = await tempDir(t, async () => { redis?.resume(); await redis?.stop() })
  redis = new OwnRedis(await freePort(), dir)
  await redis.start()
  return redis
}

/** The answer, or a failure if none came within `hangMs`. */
async function answered(inject: Inject, options: Parameters<Inject>[0]) {
  let timer: NodeJS.Timeout | undefined
  const hung = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${hangMs} ms`)), hangMs) })
  return Promise.race([inject(options), hung]).finally(() => clearTimeout(timer))
}

async function until(what: string, check: () => Promise<boolean>, withinMs = 30_000): Promise<void> {
  const deadline = Date.now() + withinMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting until ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** How many rate-limit counts (the plugin's script) Redis has run, read from its command statistics. */
async function countsRun(control: Redis): Promise<number> {
  const stats = await control.info('commandstats')
  return [...stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0)
}

t.test('Redis black-holed under a running service: catalog reads are answered, and Redis is left alone meanwhile', async (t) => {
  const redis = await ownRedis(t)
  const { admin, ids } = await department(t, 'memory', { REDIS_URL: redis.url })
  const urls = ['/api/people', '/api/courses', personUrl(ids.advisor), '/api/people/faculty-options']
  for (const url of urls) await admin({ method: 'GET', url })
  t.equal((await admin({ method: 'GET', url: urls[0]! })).headers['x-cache'], 'hit', 'the cache is in use before')
  const control = new Redis(redis.url)
  t.teardown(() => control.disconnect())
  const before = await countsRun(control)
  t.ok(before > 0, 'requests are counted in this Redis')

  redis.pause()
  const caches = new Set<string>()
  for (let i = 0; i < reads; i++) {
    const url = urls[i % urls.length]!
    const res = await answered(admin, { method: 'GET', url })
    t.equal(res.statusCode, 200, `${url} answered`)
    caches.add(String(res.headers['x-cache']))
  }
  t.same([...caches], ['bypass'], 'all served from the store, without the cache')

  redis.resume()
  // Commands sent to the stopped server were held in its sockets and run now; let them finish.
  await new Promise((r) => setTimeout(r, 500))
  const during = (await countsRun(control)) - before
  t.ok(during < reads / 4, `${during} of ${reads} requests asked the stopped Redis to count them: the rest were not held on it`)

  await until('the cache is used again', async () => (await admin({ method: 'GET', url: urls[0]! })).headers['x-cache'] === 'hit')
  const counted = await countsRun(control)
  await admin({ method: 'GET', url: urls[1]! })
  t.equal(await countsRun(control), counted + 1, 'and requests are counted in Redis again')
})

t.test('a write made while Redis is black-holed: no read after it answers again shows the older record', async (t) => {
  const redis = await ownRedis(t)
  const env = { REDIS_URL: redis.url }
  const one = await department(t, 'memory', env)
  const other = await buildTestApp(t, env, { store: one.app.store })
  const otherAdmin = other.as('admin@dept.edu', 'admin')
  const url = personUrl(one.ids.advisor)
  for (const inject of [one.admin, otherAdmin]) {
    await inject({ method: 'GET', url })
    t.equal((await inject({ method: 'GET', url })).headers['x-cache'], 'hit', 'cached before the outage')
  }

  redis.pause()
  const write = await answered(one.admin, { method: 'PUT', url, payload: { title: 'Dean' } })
  t.equal(write.statusCode, 200, 'the write is answered')
  const during = await answered(one.admin, { method: 'GET', url })
  t.equal(during.json().title, 'Dean', 'read during the outage')

  // Redis now runs what was sent to it while stopped, then answers as before, the old entry included.
  redis.resume()
  const next = await answered(one.admin, { method: 'GET', url })
  t.equal(next.json().title, 'Dean', `the next read is fresh (${next.headers['x-cache']})`)
  await until('the writing instance is back on the cache', async () => {
    const res = await one.admin({ method: 'GET', url })
    t.equal(res.json().title, 'Dean', `every read on the writing instance shows the write (${res.headers['x-cache']})`)
    return res.headers['x-cache'] === 'hit'
  })
  await until('the other instance shows the write', async () => (await otherAdmin({ method: 'GET', url })).json().title === 'Dean')
})
