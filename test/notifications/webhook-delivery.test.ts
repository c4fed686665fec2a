import type { Test } from 'tap'
import t from 'tap'
import { webhookDeliveriesCollection, webhooksCollection } from '../../src/notifications/collections.js'
import type { DeliveryRecord, WebhookRecord } from '../../src/notifications/webhooks/records.js'
import { workflowDepartment } from '../workflows/support.js'
import { commentMarker } from './ferpa.js'
import { startReceiver, type Received } from './receiver.js'
import { testActor } from '../helpers/actor.js'

interface Attempt { at: string; status_code: number | null; error: string | null; response_body: string | null }
interface Delivery { _id: string; event_id: string; type: string; status: string; attempts: Attempt[]; next_attempt_at: string | null }
interface Log { items: Delivery[]; total: number }

/** Polls `read` until `check` holds, for at most 30 s. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (check(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 2000)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** A department whose webhooks may reach loopback and retry after 1 s, with a receiver on loopback. */
async function department(t: Test) {
  const dept = await workflowDepartment(t, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' })
  const receiver = await startReceiver(t)
  const admin = dept.http('admin')
  const subscribe = async (events: string[], path = '/hook') => {
    const answer = await admin({ method: 'POST', url: '/api/webhooks', payload: { url: `${receiver.url}${path}`, events } })
    t.equal(answer.statusCode, 201, `subscribed ${path} to ${events.join(', ')}`)
    const hook = answer.json() as { _id: string; secret: string }
    receiver.secrets = [...receiver.secrets, hook.secret]
    return hook
  }
  const log = async (hook: string) => (await admin({ method: 'GET', url: `/api/webhooks/${hook}/deliveries` })).json() as Log
  const logUntil = (hook: string, check: (log: Log) => boolean, what: string) => eventually(() => log(hook), check, what)
  /** Una submits a thesis request, commenting with the marker a leak would show; Fay's approval is `approve`. */
  const submit = async (title = 'Tides') => {
    const draft = await dept.workflows.create('honors_thesis', dept.as('una'), testActor, { student: dept.ids.una, advisor: dept.ids.fay, title, abstract: 'A', term: '25F' })
    await dept.workflows.submit('honors_thesis', dept.as('una'), testActor, draft._id, { comment: `${commentMarker}: please hurry` })
    await dept.app.notifications.relay.idle()
    const approve = async () => {
      await dept.workflows.decide('honors_thesis', dept.as('fay'), testActor, draft._id, { decision: 'approve', comment: `${commentMarker}: fine work, grade: A` })
      await dept.app.notifications.relay.idle()
    }
    return { id: draft._id as string, approve }
  }
  const clean = (t: Test) => t.same(receiver.requests.flatMap((r) => r.violations), [], 'every payload passes the FERPA check')
  return { ...dept, receiver, admin, subscribe, log, logUntil, submit, clean }
}

const idOf = (request: Received) => String(request.headers['webhook-id'])

t.test('a delivery is a thin CloudEvent, signed so the reference library verifies it, sent only to subscribed webhooks', async (t) => {
  const { receiver, subscribe, submit, log, clean, config } = await department(t)
  const activated = await subscribe(['workflow.stage_activated'], '/a')
  const outcomes = await subscribe(['workflow.approved', 'workflow.rejected'], '/b')
  await subscribe(['workflow.submitted', 'workflow.decided'], '/c')
  const thesis = await submit()
  await receiver.until(() => receiver.requests.length >= 2, 'the submission\'s two events')
  await thesis.approve()
  await receiver.until(() => receiver.requests.length >= 4, 'the decision\'s two events')
  const at = (path: string) => receiver.requests.filter((r) => r.path === path)

  t.same(at('/a').map((r) => JSON.parse(r.body).type), ['workflow.stage_activated', 'workflow.stage_activated'])
  t.same(at('/c').map((r) => JSON.parse(r.body).type).sort(), ['workflow.decided', 'workflow.submitted'])
  t.equal(at('/b').length, 0, 'nothing to a webhook not subscribed to these types')
  t.equal((await log(outcomes._id)).total, 0, 'and no delivery was written for it')

  for (const request of receiver.requests) {
    const index = ['/a', '/b', '/c'].indexOf(request.path)
    t.same(request.verifiedBy, [index], `${request.path}: Webhook.verify accepts it under its own secret only`)
    t.equal(request.headers['content-type'], 'application/json')
    t.match(request.headers['webhook-signature'], /^v1,[A-Za-z0-9+/]+=*$/)
    t.ok(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000) < 300, 'webhook-timestamp is now, in seconds')
  }
  const first = at('/a')[0]!
  const event = JSON.parse(first.body)
  t.same(Object.keys(event).sort(), ['data', 'datacontenttype', 'id', 'source', 'specversion', 'subject', 'time', 'type'], 'the CloudEvents attributes, nothing else')
  t.match(event, {
    specversion: '1.0', id: idOf(first), source: `${config.publicUrl}/api/thesis/requests`, type: 'workflow.stage_activated',
    subject: thesis.id, datacontenttype: 'application/json', time: String,
    data: { domain: 'honors_thesis', entity: thesis.id, title: 'Tides', link: `${config.frontendUrl}/approvals/thesis/${encodeURIComponent(thesis.id)}` },
  })
  t.equal(idOf(first), `${event.data.instance}#1/workflow.stage_activated`, 'webhook-id is the event id')
  t.notMatch(first.body, /recipients|actor|comment/, 'no recipients, actor or comments')
  clean(t)

  const entries = (await log(activated._id)).items
  t.equal(entries.length, 2)
  t.ok(entries.every((d) => d.status === 'succeeded' || d.status === 'pending'), 'the log lists them')
  t.notMatch(JSON.stringify(entries), /whsec_|payload/, 'no secret (nor the payload) in the delivery log')
})

t.test('500, 500, 200: delivered on the third attempt with one webhook-id; a redelivery keeps it; old deliveries are pruned', async (t) => {
  const { app, receiver, subscribe, submit, logUntil, admin, clean } = await department(t)
  const hook = await subscribe(['workflow.submitted'])
  receiver.script(500, 500)
  await submit()
  await receiver.until(() => receiver.requests.length === 3, 'three attempts')
  const log = await logUntil(hook._id, (l) => l.items[0]?.status === 'succeeded', 'the delivery to succeed')
  const [delivery] = log.items
  t.same(delivery!.attempts.map((a) => a.status_code), [500, 500, 200])
  t.match(delivery!.attempts[0], { error: 'the receiver answered 500', response_body: 'answered 500' })
  t.match(delivery!.attempts[2], { error: null, response_body: 'answered 200' })
  t.equal(delivery!.next_attempt_at, null)
  t.ok(Date.parse(delivery!.attempts[1]!.at) - Date.parse(delivery!.attempts[0]!.at) >= 900, 'the retry waited its scheduled second')
  t.equal(new Set(receiver.requests.map(idOf)).size, 1, 'every attempt carries the same webhook-id')
  t.equal(idOf(receiver.requests[0]!), delivery!.event_id)
  t.ok(receiver.requests.every((r) => r.verifiedBy.length === 1), 'each attempt verifies')
  t.equal(receiver.requests[0]!.body, receiver.requests[2]!.body, 'the same bytes each time')

  const again = await admin({ method: 'POST', url: `/api/webhooks/${hook._id}/deliveries/${delivery!._id}/redeliver` })
  t.equal(again.statusCode, 202)
  t.match(again.json(), { _id: delivery!._id, status: 'pending' })
  await receiver.until(() => receiver.requests.length === 4, 'the redelivery')
  t.equal(idOf(receiver.requests[3]!), delivery!.event_id, 'a redelivery has the same webhook-id')
  t.same(receiver.requests[3]!.verifiedBy, [0])
  const after = await logUntil(hook._id, (l) => l.items[0]?.status === 'succeeded' && l.items[0].attempts.length === 4, 'the redelivery to be logged')
  t.equal(after.total, 1, 'still one delivery')
  t.equal((await admin({ method: 'GET', url: `/api/webhooks/${hook._id}` })).json().consecutive_failures, 0)
  clean(t)

  const prune = app.notifications.maintenance['prune-webhook-deliveries']!
  const day = 24 * 3600_000
  t.same(await prune.run(new Date(Date.now() + 29 * day)), { deleted: 0, secrets_forgotten: 0 }, 'kept within NOTIFICATION_RETENTION_DAYS')
  t.same(await prune.run(new Date(Date.now() + 31 * day)), { deleted: 1, secrets_forgotten: 0 }, 'removed after')
  t.equal((await admin({ method: 'GET', url: `/api/webhooks/${hook._id}/deliveries` })).json().total, 0)
})

t.test('a 410 disables the webhook; activated again, a redelivery goes out', async (t) => {
  const { receiver, subscribe, submit, log, logUntil, admin, clean } = await department(t)
  const hook = await subscribe(['workflow.submitted', 'workflow.decided'])
  receiver.script(410)
  const thesis = await submit()
  await receiver.until(() => receiver.requests.length === 1, 'the first attempt')
  const disabled = await eventually(async () => (await admin({ method: 'GET', url: `/api/webhooks/${hook._id}` })).json(), (h) => h.active === false, 'the webhook to be disabled')
  t.match(disabled, { active: false, disabled_reason: 'the receiver answered 410 Gone', disabled_at: String })
  const [delivery] = (await logUntil(hook._id, (l) => l.items[0]?.status === 'failed', 'the delivery to fail')).items
  t.same(delivery!.attempts.map((a) => a.status_code), [410], 'no retry after a 410')

  await thesis.approve()
  t.equal((await log(hook._id)).total, 1, 'a disabled webhook gets no new deliveries')
  const refused = await admin({ method: 'POST', url: `/api/webhooks/${hook._id}/deliveries/${delivery!._id}/redeliver` })
  t.equal(refused.statusCode, 400)
  t.match(refused.json().error, /is inactive \(the receiver answered 410 Gone\)/)

  const active = await admin({ method: 'PUT', url: `/api/webhooks/${hook._id}`, payload: { url: `${receiver.url}/hook`, events: ['workflow.submitted'], active: true } })
  t.match(active.json(), { active: true, disabled_reason: null, disabled_at: null, consecutive_failures: 0 })
  t.equal((await admin({ method: 'POST', url: `/api/webhooks/${hook._id}/deliveries/${delivery!._id}/redeliver` })).statusCode, 202)
  await receiver.until(() => receiver.requests.length === 2, 'the redelivery')
  t.equal(idOf(receiver.requests[1]!), idOf(receiver.requests[0]!))
  const [redelivered] = (await logUntil(hook._id, (l) => l.items[0]?.status === 'succeeded', 'the redelivery to succeed')).items
  t.same(redelivered!.attempts.map((a) => a.status_code), [410, 200])
  clean(t)
})

t.test('after a rotation both secrets sign for 24 hours, then the new one alone', async (t) => {
  const { app, receiver, subscribe, submit, admin, clean } = await department(t)
  const hook = await subscribe(['workflow.submitted', 'workflow.decided'])
  const rotated = (await admin({ method: 'POST', url: `/api/webhooks/${hook._id}/rotate-secret` })).json()
  receiver.secrets = [hook.secret, rotated.secret]
  const thesis = await submit()
  await receiver.until(() => receiver.requests.length === 1, 'the delivery')
  t.equal(String(receiver.requests[0]!.headers['webhook-signature']).split(' ').length, 2, 'two signatures')
  t.same(receiver.requests[0]!.verifiedBy, [0, 1], 'each secret verifies it')

  // The grace period ends.
  await app.store.collection<WebhookRecord>(webhooksCollection).updateOne({ _id: hook._id }, { $set: { previous_secret_until: new Date(Date.now() - 1000).toISOString() } })
  await thesis.approve()
  await receiver.until(() => receiver.requests.length === 2, 'the next delivery')
  t.equal(String(receiver.requests[1]!.headers['webhook-signature']).split(' ').length, 1, 'one signature')
  t.same(receiver.requests[1]!.verifiedBy, [1], 'the new secret alone verifies it')
  t.match(receiver.requests[1]!.refusals, [/secret 0: No matching signature found/])
  t.same(await app.notifications.maintenance['prune-webhook-deliveries']!.run(new Date()), { deleted: 0, secrets_forgotten: 1 }, 'maintenance forgets the old secret')
  t.notOk((await app.store.collection<WebhookRecord>(webhooksCollection).findById(hook._id))!.previous_secret)
  clean(t)
})

t.test('a redirect is not followed: the attempt fails and is retried', async (t) => {
  const { receiver, subscribe, submit, logUntil, clean } = await department(t)
  const hook = await subscribe(['workflow.submitted'])
  receiver.script({ status: 302, location: `${receiver.url}/elsewhere` })
  await submit()
  await receiver.until(() => receiver.requests.length === 2, 'the retry')
  t.same(receiver.requests.map((r) => r.path), ['/hook', '/hook'], 'nothing went to the redirect target')
  const [delivery] = (await logUntil(hook._id, (l) => l.items[0]?.status === 'succeeded', 'the retry to succeed')).items
  t.match(delivery!.attempts[0], { status_code: 302, error: `redirect not followed (to ${receiver.url}/elsewhere)` })
  clean(t)
})

t.test('a receiver that hangs does not hold up the API, and its attempt ends as a timeout after 10 s', async (t) => {
  const { receiver, subscribe, submit, log, logUntil, admin, http, clean } = await department(t)
  const hook = await subscribe(['workflow.submitted'])
  receiver.script('hang')
  await submit()
  await receiver.until(() => receiver.requests.length === 1, 'the delivery to arrive')
  t.equal(receiver.requests[0]!.answered, 'hung')
  const list = await admin({ method: 'GET', url: '/api/webhooks' })
  t.equal(list.statusCode, 200, 'the API answers while a delivery hangs')
  const inbox = await http('fay')({ method: 'GET', url: '/api/notifications' })
  t.equal(inbox.statusCode, 200)
  t.equal(inbox.json().total, 1)
  const written = await admin({ method: 'POST', url: '/api/webhooks', payload: { url: `${receiver.url}/other`, events: ['job.failed'] } })
  t.equal(written.statusCode, 201, 'writes answer too')
  const during = await log(hook._id)
  t.match(during.items[0], { status: 'pending', attempts: [] }, 'the attempt is still in flight')

  const timedOut = await logUntil(hook._id, (l) => (l.items[0]?.attempts.length ?? 0) >= 1, 'the attempt to time out')
  t.match(timedOut.items[0]!.attempts[0], { status_code: null, error: 'timeout: no complete answer within 10000 ms' }, 'the default 10 s timeout')
  await receiver.until(() => receiver.requests.length === 2, 'the retry')
  await logUntil(hook._id, (l) => l.items[0]?.status === 'succeeded', 'the retry to succeed')
  clean(t)
})

t.test('the sweep takes back a delivery whose sender died after claiming it, and leaves a live claim alone', async (t) => {
  const { app, receiver, subscribe, submit, logUntil, clean } = await department(t)
  const hook = await subscribe(['workflow.submitted'])
  await submit()
  await receiver.until(() => receiver.requests.length === 1, 'the delivery')
  const [delivery] = (await logUntil(hook._id, (l) => l.items[0]?.status === 'succeeded', 'it to succeed')).items
  const deliveries = app.store.collection<DeliveryRecord>(webhookDeliveriesCollection)
  const live = new Date().toISOString()
  await deliveries.updateOne({ _id: delivery!._id }, { $set: { status: 'pending', claimed: true, claim: 'a-live-sender', claimed_at: live, next_attempt_at: live } })
  t.same(await app.notifications.webhooks.channel.sweep!(new Date()), [], 'a claim younger than a minute is left to its sender')
  const old = new Date(Date.now() - 120_000).toISOString()
  await deliveries.updateOne({ _id: delivery!._id }, { $set: { claimed_at: old, claim: 'a-dead-sender' } })
  const swept = await app.notifications.relay.sweep(new Date())
  t.equal(swept.requeued, 1)
  await receiver.until(() => receiver.requests.length === 2, 'the delivery sent again')
  t.equal(idOf(receiver.requests[1]!), delivery!.event_id, 'with the same webhook-id')
  await logUntil(hook._id, (l) => l.items[0]?.status === 'succeeded' && l.items[0].attempts.length === 2, 'it to be logged')
  clean(t)
})
