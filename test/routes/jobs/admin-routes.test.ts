/**
 * The job administration routes (docs/operations.md, "Administration endpoints"), run on both drivers with
 * the same assertions: the embedded driver on the test's store, and BullMQ on the shared Redis under a prefix
 * of the test's own.
 */
import type { FastifyPluginAsync } from 'fastify'
import t, { type Test } from 'tap'
import { PermanentJobError, type JobView } from '../../../src/jobs/port.js'
import { privatePrefix, sharedRedisUrl } from '../../cache/redis.js'
import { buildTestApp } from '../../helpers/app.js'
import { until } from '../../jobs/contract.js'

const admin = 'ops@dept.example.edu'

/** Handlers of this test: a sync that reports progress, and one that fails until told to succeed. */
function testHandlers(state: { fixed: boolean }): FastifyPluginAsync {
  return async (app) => {
    app.jobs.register('campus-sync', {
      courses: async ({ progress }) => {
        await progress(50, 'half the courses', { processed: 5, total: 10 })
        return { created: 10 }
      },
      people: async () => {
        if (!state.fixed) throw new PermanentJobError('the feed refused the credentials')
        return { updated: 3 }
      },
    })
  }
}

async function envFor(t: Test, driver: 'embedded' | 'bullmq'): Promise<Record<string, string>> {
  if (driver === 'embedded') return {}
  const { prefix } = await privatePrefix(t)
  return { REDIS_URL: sharedRedisUrl, REDIS_PREFIX: prefix, RATE_LIMIT_NAMESPACE: `${prefix}rate:`, CACHE_KEY_PREFIX: `${prefix}cache:`, WORKERS: 'inline' }
}

for (const driver of ['embedded', 'bullmq'] as const) {
  t.test(`on the ${driver} driver`, async (t) => {
    const state = { fixed: false }
    const { app, as } = await buildTestApp(t, await envFor(t, driver), { plugins: [testHandlers(state)] })
    t.equal(app.jobs.kind, driver)
    const ops = as(admin, 'admin')
    const faculty = as('prof@dept.example.edu', 'faculty')
    const finished = (id: string) => until(async () => {
      const job = (await ops({ method: 'GET', url: `/api/admin/jobs/${id}` })).json() as JobView
      return job.state === 'completed' || job.state === 'failed' ? job : null
    }, `job ${id}`)

    t.test('only holders of manage_jobs reach them', async (t) => {
      t.equal((await app.inject({ method: 'GET', url: '/api/queues' })).statusCode, 401)
      t.equal((await faculty({ method: 'GET', url: '/api/queues' })).statusCode, 403)
      t.equal((await faculty({ method: 'GET', url: '/api/admin/jobs' })).statusCode, 403)
      t.equal((await faculty({ method: 'POST', url: '/api/schedulers/maintenance', payload: { id: 'x', every: 60000 } })).statusCode, 403)
    })

    t.test('jobs: listed newest first, read one by one, with their progress', async (t) => {
      const courses = await app.jobs.enqueue('campus-sync', 'courses', { term: '2026FA' })
      const done = await finished(courses.id)
      t.match(done, { id: courses.id, queue: 'campus-sync', name: 'courses', state: 'completed', data: { term: '2026FA' }, attempts: 1, result: { created: 10 }, error: null })
      t.same((await ops({ method: 'GET', url: `/api/admin/jobs/${courses.id}/progress` })).json(), { percent: 100, processed: 5, total: 10, message: 'half the courses' })
      const people = await app.jobs.enqueue('campus-sync', 'people', {})
      t.match(await finished(people.id), { state: 'failed', attempts: 1, error: 'the feed refused the credentials' })
      const all = await ops({ method: 'GET', url: '/api/admin/jobs?queue=campus-sync' })
      t.equal(all.statusCode, 200)
      t.match(all.json(), { total: 2, limit: 50, offset: 0 })
      t.same(all.json().items.map((j: JobView) => j.id), [people.id, courses.id], 'newest first')
      t.same((await ops({ method: 'GET', url: '/api/admin/jobs?state=failed&limit=1' })).json().items.map((j: JobView) => j.id), [people.id])
      t.same((await ops({ method: 'GET', url: '/api/queues/campus-sync/jobs?state=completed' })).json().items.map((j: JobView) => j.id), [courses.id])
      t.same((await ops({ method: 'GET', url: '/api/queues/maintenance/jobs' })).json(), { items: [], total: 0, limit: 50, offset: 0 })

      const unknownQueue = await ops({ method: 'GET', url: '/api/admin/jobs?queue=payroll' })
      t.same([unknownQueue.statusCode, unknownQueue.json().code, unknownQueue.json().error], [404, 'ADKS_QUEUE_NOT_FOUND', 'No queue named payroll'])
      t.same((await ops({ method: 'GET', url: '/api/queues/payroll/jobs' })).json(), { success: false, error: 'No queue named payroll', statusCode: 404, code: 'ADKS_QUEUE_NOT_FOUND' })
      const badState = await ops({ method: 'GET', url: '/api/admin/jobs?state=stuck' })
      t.equal(badState.statusCode, 400)
      t.match(badState.json().error, /state/)
      t.equal(badState.json().code, 'ADKS_VALIDATION_FAILED')
      t.equal((await ops({ method: 'GET', url: '/api/admin/jobs?limit=500' })).statusCode, 400)
      t.same((await ops({ method: 'GET', url: '/api/admin/jobs/no-such-job' })).json(), { success: false, error: 'No job no-such-job', statusCode: 404, code: 'ADKS_JOB_NOT_FOUND' })
      t.equal((await ops({ method: 'GET', url: '/api/admin/jobs/no-such-job/progress' })).statusCode, 404)
    })

    t.test('a failed job is retried through its queue', async (t) => {
      const { id } = await app.jobs.enqueue('campus-sync', 'people', { run: 2 })
      await finished(id)
      const wrongQueue = await ops({ method: 'POST', url: `/api/queues/maintenance/jobs/${id}/retry` })
      t.same([wrongQueue.statusCode, wrongQueue.json().code, wrongQueue.json().error], [404, 'ADKS_JOB_NOT_FOUND', `No job ${id} in queue maintenance`])
      state.fixed = true
      const retried = await ops({ method: 'POST', url: `/api/queues/campus-sync/jobs/${id}/retry` })
      t.equal(retried.statusCode, 200)
      t.equal(retried.json().id, id)
      t.match(await finished(id), { state: 'completed', result: { updated: 3 }, error: null })
      const again = await ops({ method: 'POST', url: `/api/queues/campus-sync/jobs/${id}/retry` })
      t.same([again.statusCode, again.json().code, again.json().error], [409, 'ADKS_JOB_NOT_FAILED', `Job ${id} is completed; only a failed job can be retried`])
    })

    t.test('queues: counts, pause and resume', async (t) => {
      const queues = (await ops({ method: 'GET', url: '/api/queues' })).json()
      t.same(queues.map((q: { name: string }) => q.name), ['campus-sync', 'publication-import', 'citation-refresh', 'maintenance', 'notifications'])
      t.match(queues[0], { counts: { waiting: 0, active: 0, delayed: 0 }, paused: false })
      t.ok(queues[0].counts.completed >= 2)
      const paused = await ops({ method: 'POST', url: '/api/queues/campus-sync/pause' })
      t.match(paused.json(), { name: 'campus-sync', paused: true })
      const { id } = await app.jobs.enqueue('campus-sync', 'courses', {})
      await new Promise((resolve) => setTimeout(resolve, 300))
      t.match((await ops({ method: 'GET', url: `/api/admin/jobs/${id}` })).json(), { state: 'waiting' })
      t.match((await ops({ method: 'POST', url: '/api/queues/campus-sync/resume' })).json(), { name: 'campus-sync', paused: false })
      t.match(await finished(id), { state: 'completed' })
      t.equal((await ops({ method: 'POST', url: '/api/queues/payroll/pause' })).statusCode, 404)
    })

    t.test('schedulers: upserted, listed with the next run, removed; bad timing refused', async (t) => {
      const created = await ops({ method: 'POST', url: '/api/schedulers/citation-refresh', payload: { id: 'weekly', pattern: '0 2 * * 0', tz: 'Europe/Berlin', data: { batch: 50 } } })
      t.equal(created.statusCode, 200)
      t.match(created.json(), { queue: 'citation-refresh', id: 'weekly', name: 'weekly', pattern: '0 2 * * 0', every: null, tz: 'Europe/Berlin', data: { batch: 50 } })
      t.equal(new Date(created.json().next_run).getUTCDay() === 0 || new Date(created.json().next_run).getUTCDay() === 6, true, 'Sunday 02:00 in Berlin')
      const listed = (await ops({ method: 'GET', url: '/api/schedulers' })).json()
      t.same(listed, [created.json()])
      const refusals: [object, RegExp][] = [
        [{ id: 'x', pattern: '0 25 * * *' }, /Invalid cron pattern "0 25 \* \* \*"/],
        [{ id: 'x', pattern: 'nightly' }, /Invalid cron pattern "nightly"/],
        [{ id: 'x', every: 10 }, /every must be/],
        [{ id: 'x', every: 'often' }, /every/],
        [{ id: 'x' }, /exactly one of pattern/],
        [{ id: 'a/b', every: 60000 }, /id/],
        [{ id: 'x', every: 60000, tz: 'Nowhere/City' }, /Unknown time zone "Nowhere\/City"/],
      ]
      for (const [payload, message] of refusals) {
        const res = await ops({ method: 'POST', url: '/api/schedulers/citation-refresh', payload })
        t.equal(res.statusCode, 400, JSON.stringify(payload))
        t.match(res.json().error, message)
        t.equal(res.json().code, 'ADKS_VALIDATION_FAILED')
      }
      t.match((await ops({ method: 'POST', url: '/api/schedulers/payroll', payload: { id: 'x', every: 60000 } })).json(), { code: 'ADKS_QUEUE_NOT_FOUND', error: 'No queue named payroll' })
      const removed = await ops({ method: 'DELETE', url: '/api/schedulers/citation-refresh/weekly' })
      t.same(removed.json(), { id: 'weekly', message: 'Scheduler weekly removed from queue citation-refresh' })
      const gone = await ops({ method: 'DELETE', url: '/api/schedulers/citation-refresh/weekly' })
      t.same([gone.statusCode, gone.json().code, gone.json().error], [404, 'ADKS_SCHEDULE_NOT_FOUND', 'No scheduler weekly in queue citation-refresh'])
      t.same((await ops({ method: 'GET', url: '/api/schedulers' })).json(), [])
    })

    t.test('the publication sync: two schedules managed as one', async (t) => {
      t.same((await ops({ method: 'GET', url: '/api/schedulers/publication-sync' })).json(), { import: null, citations: null })
      const put = await ops({ method: 'PUT', url: '/api/schedulers/publication-sync', payload: { import: { pattern: '0 4 * * 1', tz: 'America/Chicago' }, citations: { pattern: '0 5 1 * *' } } })
      t.equal(put.statusCode, 200)
      t.match(put.json(), {
        import: { queue: 'publication-import', id: 'publication-sync', name: 'import-all', pattern: '0 4 * * 1', tz: 'America/Chicago' },
        citations: { queue: 'citation-refresh', id: 'publication-sync', name: 'refresh-all', pattern: '0 5 1 * *', tz: null },
      })
      const bad = await ops({ method: 'PUT', url: '/api/schedulers/publication-sync', payload: { import: { pattern: '0 6 * * *' }, citations: { pattern: '0 5 32 * *' } } })
      t.same([bad.statusCode, bad.json().code, bad.json().error.startsWith('Invalid cron pattern "0 5 32 * *"')], [400, 'ADKS_VALIDATION_FAILED', true])
      t.same((await ops({ method: 'GET', url: '/api/schedulers/publication-sync' })).json(), put.json(), 'a refused change leaves both as they were')
      t.equal((await ops({ method: 'PUT', url: '/api/schedulers/publication-sync', payload: {} })).statusCode, 400)
      t.equal((await ops({ method: 'GET', url: '/api/schedulers' })).json().length, 2)
      t.equal((await ops({ method: 'DELETE', url: '/api/schedulers/publication-sync' })).statusCode, 200)
      t.same((await ops({ method: 'GET', url: '/api/schedulers/publication-sync' })).json(), { import: null, citations: null })
      t.equal((await ops({ method: 'DELETE', url: '/api/schedulers/publication-sync' })).statusCode, 404)
    })
  })
}
