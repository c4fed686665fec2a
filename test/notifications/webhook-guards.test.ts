import t from 'tap'
import type { JobContext, JobDriver } from '../../src/jobs/port.js'
import { webhooksCollection, type EventRecord } from '../../src/notifications/collections.js'
import type { NotificationDeps } from '../../src/notifications/deps.js'
import { createWebhooks } from '../../src/notifications/webhooks/index.js'
import type { WebhookRecord } from '../../src/notifications/webhooks/records.js'
import { buildTestApp } from '../helpers/app.js'
import { startReceiver } from './receiver.js'

const quiet = { info: () => {}, warn: () => {}, error: () => {} }

function event(n: number): EventRecord {
  return {
    _id: `run-${n}/job.failed`, type: 'job.failed', source: '/api/jobs', subject: `job-${n}`, time: new Date().toISOString(),
    title: 'A job failed', link: '/jobs', data: { job: `job-${n}` }, recipients: [], fanned_out: false,
  }
}

const context = (data: Record<string, unknown>): JobContext => ({
  id: 'webhook-guards', data, attempt: 1, signal: new AbortController().signal, log: { info: () => {}, error: () => {} }, progress: async () => {},
  actor: { id: 'job:webhook-guards', via: 'notifications/deliver' },
})

t.test('each delivery checks the address again and connects to the address it checked', async (t) => {
  const { app } = await buildTestApp(t)
  const receiver = await startReceiver(t)
  const port = new URL(receiver.url).port
  // DNS as an attacker who controls a name would answer it: public when the webhook is made, loopback after.
  const dns: Record<string, string> = { 'rebinding.example': '93.184.215.14', 'receiver.example': '127.0.0.1' }
  const resolve = async (host: string) => [{ address: dns[host] ?? '203.0.113.1', family: 4 }]
  const queued: unknown[] = []
  const deps = (allowPrivate: boolean): NotificationDeps => ({
    store: app.store, records: app.records, schema: app.schema, secrets: app.secrets, log: quiet, admins: async () => [],
    config: { ...app.config, notifications: { ...app.config.notifications, webhookAllowPrivate: allowPrivate } },
    jobs: { enqueue: async (...args: unknown[]) => { queued.push(args); return { id: 'j', folded: false } } } as unknown as JobDriver,
  })

  const guarded = createWebhooks(deps(false), { resolve })
  const hook = await guarded.endpoints.create({ url: `http://rebinding.example:${port}/in`, events: ['job.failed'] })
  t.equal(hook.url, `http://rebinding.example:${port}/in`, 'accepted while the name resolves to a public address')
  dns['rebinding.example'] = '127.0.0.1'
  const [job] = await guarded.channel.fanOut(event(1))
  t.same(await guarded.deliveries.handle(context(job!.data)), { succeeded: 0, retrying: 1, failed: 0, skipped: 0 })
  const [delivery] = (await guarded.deliveries.list(hook._id, { limit: 5, offset: 0 })).items
  t.match(delivery!.attempts, [{ status_code: null, error: 'not sent: the URL is refused: its host resolves to 127.0.0.1, a loopback address' }])
  t.equal(delivery!.status, 'pending', 'retried later: DNS may change back')
  t.equal(receiver.requests.length, 0, 'nothing reached loopback')
  t.equal(queued.length, 1, 'the retry was queued')
  await guarded.endpoints.remove(hook._id)

  const open = createWebhooks(deps(true), { resolve })
  const pinned = await open.endpoints.create({ url: `http://receiver.example:${port}/pinned`, events: ['job.failed'] })
  receiver.secrets = [pinned.secret]
  const [pinnedJob] = await open.channel.fanOut(event(2))
  t.same(await open.deliveries.handle(context(pinnedJob!.data)), { succeeded: 1, retrying: 0, failed: 0, skipped: 0 }, 'a name the system cannot resolve was reached at its checked address')
  t.equal(receiver.requests.length, 1)
  t.match(receiver.requests[0], { path: '/pinned', headers: { host: `receiver.example:${port}`, 'webhook-id': 'run-2/job.failed' }, verifiedBy: [0] }, 'with the URL\'s own Host header')
  t.same(await open.deliveries.handle(context(pinnedJob!.data)), { succeeded: 0, retrying: 0, failed: 0, skipped: 1 }, 'a duplicate job sends nothing: the claim is gone')
  t.equal(receiver.requests.length, 1)
})

t.test('50 deliveries failing in a row disable a webhook; a success in between starts the count again', async (t) => {
  // One retry, at once, so each failing delivery takes two quick attempts.
  const { app, as } = await buildTestApp(t, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '0s' })
  const receiver = await startReceiver(t)
  const admin = as('ada@dept.edu', 'admin')
  const hook = (await admin({ method: 'POST', url: '/api/webhooks', payload: { url: `${receiver.url}/flaky`, events: ['job.failed'] } })).json()
  const read = async () => (await admin({ method: 'GET', url: `/api/webhooks/${hook._id}` })).json()
  const until = async (check: (h: { consecutive_failures: number; active: boolean }) => boolean, what: string) => {
    const deadline = Date.now() + 30_000
    while (!check(await read())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  let n = 0
  const event = () => app.notifications.events.record({ key: `run-${n++}`, type: 'job.failed', source: '/api/jobs', subject: `job-${n}`, title: 'A job failed', link: '/jobs', data: {}, recipients: [] })
  // The count the 47 deliveries before these would have left (running them all takes minutes on FerretDB).
  const countIs = (count: number) => app.store.collection<WebhookRecord>(webhooksCollection).updateOne({ _id: hook._id }, { $set: { consecutive_failures: count } })

  receiver.answerAll(503)
  for (let i = 0; i < 3; i++) await event()
  await until((h) => h.consecutive_failures === 3, 'three failed deliveries')
  t.equal(receiver.requests.length, 6, 'counted per delivery, not per attempt (each was tried twice)')
  await countIs(48)
  await event()
  await until((h) => h.consecutive_failures === 49, 'the 49th failed delivery')
  t.equal((await read()).active, true, '49 do not disable it')
  receiver.answerAll(200)
  await event()
  await until((h) => h.consecutive_failures === 0, 'the success to reset the count')
  t.equal((await read()).active, true)
  await countIs(49)
  receiver.answerAll(503)
  await event()
  await until((h) => !h.active, 'the webhook to be disabled')
  t.match(await read(), { active: false, consecutive_failures: 50, disabled_reason: '50 consecutive deliveries failed', disabled_at: String })
  const sent = receiver.requests.length
  await event()
  await app.notifications.relay.idle()
  t.equal((await admin({ method: 'GET', url: `/api/webhooks/${hook._id}/deliveries` })).json().total, 6, 'nothing more is delivered to it')
  t.equal(receiver.requests.length, sent)
})
