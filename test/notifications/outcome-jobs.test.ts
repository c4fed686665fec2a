/**
 * job.failed (docs/notifications.md): a job that fails for good tells the department admins in the app, once
 * per failure, on both job drivers: the embedded one on the test's store, BullMQ on the shared Redis under a
 * prefix of the test's own.
 */
import type { FastifyPluginAsync, InjectOptions, LightMyRequestResponse } from 'fastify'
import t, { type Test } from 'tap'
import { PermanentJobError } from '../../src/jobs/port.js'
import { eventsCollection, type EventRecord } from '../../src/notifications/collections.js'
import { privatePrefix, sharedRedisUrl } from '../cache/redis.js'
import { buildTestApp } from '../helpers/app.js'
import { until } from '../jobs/contract.js'
import { finished } from '../routes/campus-sync/support.js'
import { commentMarker, ferpaViolations } from './ferpa.js'

const admin = 'ops@dept.example.edu'
type Caller = (options: InjectOptions) => Promise<LightMyRequestResponse>
const inbox = async (caller: Caller) => (await caller({ method: 'GET', url: '/api/notifications' })).json() as { total: number; items: Record<string, unknown>[] }

/** A job whose error quotes what it read, as a real one may: none of it may reach a notice. */
const leakyError = `row 7 (Given-S1 Family-S1): grade: A- ${commentMarker}`

function testHandlers(state: { flakyRuns: number }): FastifyPluginAsync {
  return async (app) => {
    app.jobs.register('citation-refresh', {
      leaky: async () => { throw new PermanentJobError(leakyError) },
      flaky: async () => { state.flakyRuns++; throw new Error('OpenAlex answered 503') },
    })
  }
}

async function envFor(t: Test, driver: 'embedded' | 'bullmq'): Promise<Record<string, string>> {
  if (driver === 'embedded') return {}
  const { prefix } = await privatePrefix(t)
  return { REDIS_URL: sharedRedisUrl, REDIS_PREFIX: prefix, RATE_LIMIT_NAMESPACE: `${prefix}rate:`, CACHE_KEY_PREFIX: `${prefix}cache:`, WORKERS: 'inline' }
}

for (const driver of ['embedded', 'bullmq'] as const) {
  t.test(`on the ${driver} driver, a job failing for good tells the admins in the app, once per failure`, async (t) => {
    const state = { flakyRuns: 0 }
    const { app, as } = await buildTestApp(t, await envFor(t, driver), { plugins: [testHandlers(state)] })
    t.equal(app.jobs.kind, driver)
    const ops = as(admin, 'admin')
    const faculty = as('prof@dept.example.edu', 'faculty')
    t.equal((await inbox(ops)).total, 0, 'the admin has signed in, and has nothing yet')
    await inbox(faculty)
    const events = () => app.store.collection<EventRecord>(eventsCollection).find({ type: 'job.failed' })

    // The notifications queue's own sends are told on their deliveries, never as a job.failed.
    const send = await app.jobs.enqueue('notifications', 'no-such-send', {}, { attempts: 1 })
    t.equal((await finished(ops, send.id)).state, 'failed')
    const leaky = await app.jobs.enqueue('citation-refresh', 'leaky', {}, { attempts: 3 })
    const flaky = await app.jobs.enqueue('citation-refresh', 'flaky', {}, { attempts: 2, backoffMs: 50 })
    t.match(await finished(ops, leaky.id), { state: 'failed', attempts: 1 }, 'a permanent error fails at its first attempt')
    t.match(await finished(ops, flaky.id), { state: 'failed', attempts: 2 }, 'the other fails when no attempts are left')
    t.equal(state.flakyRuns, 2)

    await until(async () => {
      const page = await inbox(ops)
      return page.total >= 2 ? page : null
    }, 'the admin to be told of both failures')
    await app.notifications.relay.idle()
    // Read again once the relay is idle: a page read while it fans out may count a notice its items miss.
    const page = await inbox(ops)
    t.equal(page.total, 2, 'one notice per failure, none for the failed send')
    t.same(page.items.map((i) => i.subject).sort(), [leaky.id, flaky.id].sort())
    const told = page
    t.match(told.items.find((i) => i.subject === leaky.id), { type: 'job.failed', title: 'Job citation-refresh/leaky failed', link: '/admin/jobs', read_at: null })
    t.match(told.items.find((i) => i.subject === flaky.id), { type: 'job.failed', title: 'Job citation-refresh/flaky failed' })
    t.equal((await inbox(faculty)).total, 0, 'only the admins are told')

    const stored = await events()
    t.equal(stored.length, 2, 'each failure is one event')
    t.match(stored.find((e) => e.subject === leaky.id), { source: '/api/admin/jobs', data: { job: leaky.id, queue: 'citation-refresh', name: 'leaky', attempts: 1 } })
    const text = JSON.stringify(stored)
    // The error texts themselves, not their parts: a stamp or job id may hold the digits 503 by chance.
    t.notOk(text.includes('Given-S1') || text.includes('answered 503'), 'no error text reaches an event')
    t.same(ferpaViolations(text), [])

    // An admin retries it and it fails again: another failure, told again.
    const retried = await ops({ method: 'POST', url: `/api/queues/citation-refresh/jobs/${leaky.id}/retry` })
    t.equal(retried.statusCode, 200, retried.body)
    await until(async () => (await inbox(ops)).items.filter((i) => i.subject === leaky.id).length === 2, 'the second failure to be told')
    t.equal((await events()).filter((e) => e.subject === leaky.id).length, 2)
  })
}
