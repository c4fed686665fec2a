import t from 'tap'
import { workflowEventId } from '../../src/domain/notifications/events.js'
import { deliveryId, emailCollection } from '../../src/notifications/collections.js'
import type { EmailDelivery } from '../../src/notifications/email/deliveries.js'
import { instanceIdOf } from '../../src/workflows/persistence.js'
import { listen, send } from '../auth/support.js'
import { until } from '../jobs/contract.js'
import { workflowDepartment, type Department } from '../workflows/support.js'
import { commentMarker } from './ferpa.js'
import { smtpServer } from './smtp.js'
import { testActor } from '../helpers/actor.js'

const frontend = 'https://dept.example.edu'

const deliveriesOf = (app: Department['app']) => app.store.collection<EmailDelivery>(emailCollection)

/** Until no delivery waits to be sent: then every email the app will send has been accepted. */
async function settled(app: Department['app']): Promise<EmailDelivery[]> {
  await app.notifications.relay.idle()
  return until(async () => {
    const all = await deliveriesOf(app).find({})
    return !all.some((d) => d.status === 'pending' || d.status === 'sending') && all
  }, 'every email delivery settled')
}

async function thesis(dept: Department, advisor: 'fay' | 'fred', title: string) {
  const draft = await dept.workflows.create('honors_thesis', dept.as('una'), testActor, { student: dept.ids.una, advisor: dept.ids[advisor], title, abstract: 'A', term: '25F' })
  await dept.workflows.submit('honors_thesis', dept.as('una'), testActor, draft._id)
  return draft
}

t.test('immediate: one email per event, with its absolute link; the daily default holds instead', async (t) => {
  const smtp = await smtpServer(t)
  const dept = await workflowDepartment(t, { SMTP_URL: smtp.url, FRONTEND_URL: frontend, MAIL_FROM: 'Dept <notices@dept.example.edu>' })
  const { app, http, ids, workflows, as } = dept
  t.equal((await http('fay')({ method: 'PUT', url: '/api/notifications/preferences', payload: { email: 'immediate' } })).statusCode, 200)

  const tides = await thesis(dept, 'fay', 'Tides')
  await thesis(dept, 'fred', 'Rivers')
  const [first] = await smtp.waitFor(1)
  t.same(first!.to, ['fay@dept.edu'], 'the advisor on immediate gets the email')
  t.equal(first!.subject, 'Awaiting your decision: Tides')
  const link = `${frontend}/approvals/thesis/${encodeURIComponent(tides._id)}`
  t.match(first!.text, link, 'the plain text links to the request')
  t.match(first!.html, `href="${link}"`, 'so does the HTML part')
  t.match(first!.parsed.from?.value, [{ name: 'Dept', address: 'notices@dept.example.edu' }], 'from MAIL_FROM')
  const sent = await deliveriesOf(app).findById(deliveryId(workflowEventId(instanceIdOf(tides._id), 0, 'workflow.stage_activated'), ids.fay, 'email'))
  t.equal(sent?.status, 'sent')
  t.equal(first!.parsed.messageId, `<${sent!._id}.email@dept.example.edu>`, 'the Message-ID follows from the delivery')

  const all = await settled(app)
  const fred = all.filter((d) => d.recipient === ids.fred)
  t.same(fred.map((d) => [d.status, d.type]), [['held', 'workflow.stage_activated']], 'the faculty default (daily) holds the news for the digest')
  t.equal(smtp.received.length, 1, 'and sends nothing now')

  // A decision with a comment: the student (immediate by default) hears of it; the comment stays in the app.
  await workflows.decide('honors_thesis', as('fay'), testActor, tides._id, { decision: 'approve', comment: `${commentMarker}: a careful study` })
  const [, decided] = await smtp.waitFor(2)
  t.same(decided!.to, ['una@dept.edu'])
  t.equal(decided!.subject, 'A decision on Tides')
  await app.notifications.relay.sweep(new Date())
  const after = await settled(app)
  t.equal(smtp.received.length, 2, 'a sweep sends nothing twice')
  t.same(after.filter((d) => d.recipient === ids.admin).map((d) => d.status), ['held'], 'admins default to the digest too')
  const una = await (await http('una')({ method: 'GET', url: '/api/notifications' })).json()
  t.equal(una.total, 1, 'the in-app notification is there as well')
  t.same(smtp.violations(), [], 'no email carries a comment, grade or token')
})

t.test('preferences: the caller\'s own, defaults by who they are, bad values and API keys refused', async (t) => {
  const { app, http, ids } = await workflowDepartment(t)
  const get = async (who: 'una' | 'gina' | 'fay' | 'fred' | 'admin' | 'stu') => (await http(who)({ method: 'GET', url: '/api/notifications/preferences' })).json()
  t.same(await get('una'), { email: 'immediate', default: true }, 'undergraduates hear at once')
  t.same(await get('gina'), { email: 'immediate', default: true }, 'so do graduate students')
  t.same(await get('fay'), { email: 'daily', default: true }, 'faculty get the daily digest')
  t.same(await get('stu'), { email: 'daily', default: true }, 'staff too')
  t.same(await get('admin'), { email: 'daily', default: true }, 'and admins')

  const put = (payload: unknown) => http('fay')({ method: 'PUT', url: '/api/notifications/preferences', payload: payload as object })
  const set = await put({ email: 'weekly' })
  t.equal(set.statusCode, 200)
  t.same(set.json(), { email: 'weekly', default: false })
  t.same(await get('fay'), { email: 'weekly', default: false })
  t.match(await app.store.collection('notification_preferences').findById(ids.fay), { email: 'weekly' }, 'kept under her workflow id')
  t.same(await get('fred'), { email: 'daily', default: true }, 'nobody else\'s changes')

  for (const [payload, what] of [[{ email: 'hourly' }, 'an unknown value'], [{}, 'no value'], [{ email: 'off', also: 1 }, 'an unknown field'], [{ email: 7 }, 'a number']] as const) {
    const refused = await put(payload)
    t.equal(refused.statusCode, 400, what)
    t.match(refused.json(), { code: 'ADKS_VALIDATION_FAILED' }, what)
  }
  t.equal((await app.inject({ method: 'GET', url: '/api/notifications/preferences' })).statusCode, 401, 'signed out')

  const key = (await http('fay')({ method: 'POST', url: '/api/api-keys', payload: { name: 'k', permissions: ['read_courses'] } })).json() as { key: string }
  const port = await listen(app)
  for (const method of ['GET', 'PUT'] as const) {
    const refused = await send(port, method, '/api/notifications/preferences', { 'X-API-Key': key.key }, method === 'PUT' ? { email: 'off' } : undefined)
    t.equal(refused.status, 403, `${method} with an API key`)
    t.match(refused.json(), { code: 'ADKS_API_KEY_NOT_ALLOWED' })
  }
  t.same(await get('fay'), { email: 'weekly', default: false }, 'the key changed nothing')
})

t.test('without SMTP_URL emails are recorded as not sent, and in-app notifications still work', async (t) => {
  const dept = await workflowDepartment(t)
  const { app, http, ids } = dept
  await http('fay')({ method: 'PUT', url: '/api/notifications/preferences', payload: { email: 'immediate' } })
  await thesis(dept, 'fay', 'Tides')
  const all = await settled(app)
  t.same(all.map((d) => [d.recipient, d.status, d.reason]), [[ids.fay, 'not_sent', 'SMTP_URL is not set']])
  t.equal((await (await http('fay')({ method: 'GET', url: '/api/notifications' })).json()).total, 1, 'the advisor sees it in the app')
})

t.test('an email preference of off: recorded as skipped, nothing sent', async (t) => {
  const smtp = await smtpServer(t)
  const dept = await workflowDepartment(t, { SMTP_URL: smtp.url })
  await dept.http('fay')({ method: 'PUT', url: '/api/notifications/preferences', payload: { email: 'off' } })
  await thesis(dept, 'fay', 'Tides')
  const all = await settled(dept.app)
  t.same(all.map((d) => [d.recipient, d.status]), [[dept.ids.fay, 'skipped']])
  t.equal(smtp.received.length, 0)
})

t.test('the SMTP server down for a while: the email goes out when it returns, once', async (t) => {
  const smtp = await smtpServer(t)
  const dept = await workflowDepartment(t, { SMTP_URL: smtp.url })
  const { app, http, ids } = dept
  await http('fay')({ method: 'PUT', url: '/api/notifications/preferences', payload: { email: 'immediate' } })
  await smtp.stop()
  await thesis(dept, 'fay', 'Tides')
  await app.notifications.relay.idle()
  const failed = await until(async () => (await deliveriesOf(app).findOne({ recipient: ids.fay, status: 'pending', attempts: { $gte: 1 } })), 'a failed attempt')
  t.match(failed.error, /ECONNREFUSED|connect/i, 'the error is kept')
  t.equal(smtp.received.length, 0)

  // A sweep while it is still down tries again and fails again; nothing is lost.
  await app.notifications.relay.sweep(new Date())
  await until(async () => (await deliveriesOf(app).findOne({ recipient: ids.fay, status: 'pending', attempts: { $gte: 2 } })), 'a second failed attempt')

  await smtp.start()
  await app.notifications.relay.sweep(new Date())
  await smtp.waitFor(1)
  await app.notifications.relay.sweep(new Date())
  const all = await settled(app)
  t.same(all.map((d) => [d.recipient, d.status]), [[ids.fay, 'sent']])
  t.equal(smtp.received.length, 1, 'delivered once')
  t.same(smtp.received[0]!.to, ['fay@dept.edu'])
})

t.test('a claim older than a minute is taken back and sent once; a fresh claim is left alone', async (t) => {
  const smtp = await smtpServer(t)
  const dept = await workflowDepartment(t, { SMTP_URL: smtp.url })
  const { app, http, ids } = dept
  await http('fay')({ method: 'PUT', url: '/api/notifications/preferences', payload: { email: 'immediate' } })
  await http('fred')({ method: 'PUT', url: '/api/notifications/preferences', payload: { email: 'immediate' } })
  // The job driver is paused so that the claims below stand for a sender that died mid-send.
  await app.jobs.pause('notifications')
  await thesis(dept, 'fay', 'Tides')
  await thesis(dept, 'fred', 'Rivers')
  await app.notifications.relay.idle()
  const now = Date.now()
  await deliveriesOf(app).updateMany({ recipient: ids.fay }, { $set: { status: 'sending', claimed_at: new Date(now - 61_000).toISOString() } })
  await deliveriesOf(app).updateMany({ recipient: ids.fred }, { $set: { status: 'sending', claimed_at: new Date(now - 10_000).toISOString() } })
  const swept = await app.notifications.relay.sweep(new Date(now))
  t.equal(swept.requeued, 1, 'one send job: the stale claim')
  await app.jobs.resume('notifications')
  await smtp.waitFor(1)
  await app.notifications.relay.sweep(new Date(now))
  await until(async () => (await deliveriesOf(app).findOne({ recipient: ids.fay, status: 'sent' })), 'the stale claim sent')
  t.same(smtp.received.map((m) => m.to), [['fay@dept.edu']])
  t.match(await deliveriesOf(app).findOne({ recipient: ids.fred }), { status: 'sending' }, 'a claim younger than a minute is its sender\'s')
})

t.test('a title with CR/LF adds no header to the email', async (t) => {
  const smtp = await smtpServer(t)
  const dept = await workflowDepartment(t, { SMTP_URL: smtp.url })
  const { app, http, ids } = dept
  await http('fay')({ method: 'PUT', url: '/api/notifications/preferences', payload: { email: 'immediate' } })
  const draft = await dept.workflows.create('honors_thesis', dept.as('una'), testActor, { student: ids.una, advisor: ids.fay, title: 'Tides', abstract: 'A', term: '25F' })
  // Written straight to the store: whatever a future writer lets into a title, the email must hold.
  await app.store.collection('thesis_requests').updateOne({ _id: draft._id }, { $set: { title: 'Tides\r\nBcc: eve@evil.example\r\nX-Injected: yes\n\nbody' } })
  await dept.workflows.submit('honors_thesis', dept.as('una'), testActor, draft._id)
  const [mail] = await smtp.waitFor(1)
  t.same(mail!.to, ['fay@dept.edu'], 'one recipient in the envelope')
  t.notOk(mail!.parsed.headers.has('bcc'), 'no Bcc header')
  t.notOk(mail!.parsed.headers.has('x-injected'), 'no injected header')
  t.notMatch(mail!.raw, /^X-Injected:/m)
  t.notMatch(mail!.raw, /^Bcc:/m)
  t.equal(mail!.subject, 'Awaiting your decision: Tides Bcc: eve@evil.example X-Injected: yes body', 'the subject is one line')
  await settled(app)
})

t.test("FERPA: delegations, revision requests and rejections with comments; no email carries them", async (t) => {
  const smtp = await smtpServer(t)
  const dept = await workflowDepartment(t, { SMTP_URL: smtp.url })
  const { app, http, workflows, as, ids } = dept
  for (const who of ['fay', 'gus'] as const) await http(who)({ method: 'PUT', url: '/api/notifications/preferences', payload: { email: 'immediate' } })
  const tides = await thesis(dept, 'fay', 'Tides')
  await workflows.delegate('honors_thesis', as('fay'), testActor, tides._id, { to: ids.gus, comment: `${commentMarker}: over to you` })
  await workflows.decide('honors_thesis', as('gus'), testActor, tides._id, { decision: 'request_revision', comment: `${commentMarker}: grade: B, see the transcript` })
  await workflows.update('honors_thesis', as('una'), testActor, tides._id, { abstract: 'B' })
  await workflows.submit('honors_thesis', as('una'), testActor, tides._id)
  await app.notifications.relay.idle()
  await settled(app)
  const subjects = smtp.received.map((m) => `${m.to.join()} ${m.subject}`).sort()
  t.same(subjects, [
    'fay@dept.edu Awaiting your decision: Tides', 'fay@dept.edu Awaiting your decision: Tides',
    'gus@dept.edu Delegated to you: Tides', 'una@dept.edu Revision requested: Tides',
  ], 'the delegate, the student on the revision, the advisor at each round')
  t.same(smtp.violations(), [], 'and none carries a comment, grade or transcript')
})

t.test('delivery records past NOTIFICATION_RETENTION_DAYS are pruned, unless still owed', async (t) => {
  const { app } = await workflowDepartment(t, { NOTIFICATION_RETENTION_DAYS: '30' })
  const now = new Date('2025-06-01T00:00:00Z')
  const at = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString()
  const record = (id: string, status: EmailDelivery['status'], days: number): EmailDelivery => ({ _id: id, kind: 'event', recipient: 'Faculty/x', to: null, status, created_at: at(days), attempts: 0 })
  await deliveriesOf(app).insertMany([
    record('old-sent', 'sent', 31), record('old-skipped', 'skipped', 40), record('old-held', 'held', 31), record('old-pending', 'pending', 31),
    record('new-sent', 'sent', 29),
  ])
  t.same(await app.maintenance['prune-email-deliveries']!.run(now), { removed: 2 })
  t.same((await deliveriesOf(app).find({})).map((d) => d._id).sort(), ['new-sent', 'old-held', 'old-pending'])
})
