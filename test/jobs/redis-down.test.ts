/**
 * Redis configured but down (docs/operations.md, "One job interface, two drivers"): the job routes answer 503
 * at once, naming the job queue, while catalog reads go on; when Redis is back the job routes answer again.
 */
import t from 'tap'
import { freePort, OwnRedis } from '../cache/redis.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'

/** Generous: a request that waits this long has hung, whatever the load on the machine. */
const hangMs = 30_000

async function answered<T>(request: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const hung = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${hangMs} ms`)), hangMs) })
  return Promise.race([request, hung]).finally(() => clearTimeout(timer))
}

t.test('job routes 503 while Redis is down, catalog reads unaffected, and back when it returns', async (t) => {
  let redis: OwnRedis | undefined
  const dir = await tempDir(t, async () => redis?.stop())
  redis = new OwnRedis(await freePort(), dir)
  await redis.start()
  const { app, as } = await buildTestApp(t, { REDIS_URL: redis.url, WORKERS: 'inline', SHUTDOWN_GRACE_MS: '2000' })
  t.equal(app.jobs.kind, 'bullmq')
  const ops = as('ops@dept.example.edu', 'admin')
  t.equal((await ops({ method: 'GET', url: '/api/queues' })).statusCode, 200, 'answered while Redis is up')
  const { id } = await app.jobs.enqueue('maintenance', 'verify-audit-chain', {})

  await redis.stop()
  const requests = [
    { method: 'GET', url: '/api/queues' },
    { method: 'GET', url: '/api/admin/jobs' },
    { method: 'GET', url: `/api/admin/jobs/${id}` },
    { method: 'GET', url: '/api/schedulers' },
    { method: 'POST', url: '/api/schedulers/maintenance', payload: { id: 'x', every: 60000 } },
    { method: 'POST', url: '/api/queues/campus-sync/pause' },
  ] as const
  for (const request of requests) {
    const res = await answered(ops(request))
    t.equal(res.statusCode, 503, `${request.method} ${request.url}`)
    t.same(res.json(), {
      success: false, statusCode: 503, code: 'ADKS_JOBS_UNAVAILABLE',
      error: `The job queue is unavailable (Redis does not answer); try again shortly; quote request id ${String(res.headers['x-request-id'])} when reporting it`,
    })
    t.ok(res.headers['retry-after'], 'says when to try again')
  }
  const unknown = await answered(ops({ method: 'GET', url: '/api/queues/payroll/jobs' }))
  t.equal(unknown.statusCode, 404, 'an unknown queue is still a 404')
  const courses = await answered(ops({ method: 'GET', url: '/api/courses' }))
  t.equal(courses.statusCode, 200, 'catalog reads are unaffected')
  t.ok(Array.isArray(courses.json().items))

  await redis.start()
  const back = await answered((async () => {
    for (;;) {
      const res = await ops({ method: 'GET', url: `/api/admin/jobs/${id}` })
      if (res.statusCode !== 503) return res
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })())
  t.equal(back.statusCode, 200, 'the job routes answer again once Redis is back')
  t.equal(back.json().id, id, 'the job enqueued before the outage is still there')
})
