import t from 'tap'
import { webhookDeliveriesCollection } from '../../src/notifications/collections.js'
import { buildTestApp } from '../helpers/app.js'
import { startReceiver, type Receiver } from './receiver.js'

// On FerretDB over SQLite every store write takes milliseconds, so the second pass checks the same path
// with fewer events. How fast they go is the benchmark's to say (npm run bench:notify), not this test's:
// the wait is only long enough that a stuck relay fails rather than hangs.
const onMongo = Boolean(process.env.MONGODB_URL)
const events = onMongo ? 100 : 1000
const boundMs = 300_000

t.test(`${events} events to 3 webhooks are all delivered, each once, on the embedded job driver`, async (t) => {
  const { app, as } = await buildTestApp(t, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' })
  t.equal(app.jobs.kind, 'embedded')
  const admin = as('ada@dept.edu', 'admin')
  const receivers: Receiver[] = []
  for (let i = 0; i < 3; i++) {
    const receiver = await startReceiver(t)
    const hook = (await admin({ method: 'POST', url: '/api/webhooks', payload: { url: `${receiver.url}/in`, events: ['job.failed', 'sync.completed'] } })).json()
    receiver.secrets = [hook.secret]
    receivers.push(receiver)
  }
  const received = () => receivers.reduce((sum, r) => sum + r.requests.length, 0)
  const started = Date.now()
  for (let n = 0; n < events; n++) {
    await app.notifications.events.record({ key: `run-${n}`, type: 'job.failed', source: '/api/jobs', subject: `job-${n}`, title: 'A job failed', link: '/jobs', data: { job: `job-${n}` }, recipients: [] })
  }
  await receivers[0]!.until(() => received() >= 3 * events, `${3 * events} deliveries`, boundMs)
  t.comment(`${3 * events} deliveries in ${Date.now() - started} ms`)
  for (const [i, receiver] of receivers.entries()) {
    t.equal(new Set(receiver.requests.map((r) => String(r.headers['webhook-id']))).size, events, `receiver ${i + 1}: each event once`)
    t.ok(receiver.requests.every((r) => r.verifiedBy.length === 1), `receiver ${i + 1}: every one verifies`)
    t.same(receiver.requests.flatMap((r) => r.violations), [])
  }
  const deliveries = app.store.collection(webhookDeliveriesCollection)
  const deadline = Date.now() + 30_000
  while (await deliveries.count({ status: 'succeeded' }) < 3 * events && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
  t.equal(await deliveries.count({ status: 'succeeded' }), 3 * events, 'and each is logged as succeeded')
})
