import t from 'tap'
import { scheduleMaintenanceJobs } from '../../src/jobs/maintenance.js'
import { emailCollection } from '../../src/notifications/collections.js'
import type { EmailDelivery } from '../../src/notifications/email/deliveries.js'
import { until } from '../jobs/contract.js'
import { workflowDepartment, type Department } from '../workflows/support.js'
import { commentMarker } from './ferpa.js'
import { smtpServer, type ReceivedMail } from './smtp.js'
import { testActor } from '../helpers/actor.js'

const frontend = 'https://dept.example.edu'
const linkOf = (id: string) => `${frontend}/approvals/thesis/${encodeURIComponent(id)}`

async function thesis(dept: Department, advisor: 'fay' | 'fred', title: string) {
  const draft = await dept.workflows.create('honors_thesis', dept.as('una'), testActor, { student: dept.ids.una, advisor: dept.ids[advisor], title, abstract: 'A', term: '25F' })
  await dept.workflows.submit('honors_thesis', dept.as('una'), testActor, draft._id)
  return draft
}

const byRecipient = (mails: readonly ReceivedMail[]) => Object.fromEntries(mails.map((m) => [m.to.join(','), m]))

t.test('the daily digest: one email per person listing exactly what awaits them; none when empty; once per day', async (t) => {
  const smtp = await smtpServer(t)
  const dept = await workflowDepartment(t, { SMTP_URL: smtp.url, FRONTEND_URL: frontend, TIME_ZONE: 'America/Chicago' })
  const { app, http, workflows, as } = dept
  t.equal((await http('una')({ method: 'PUT', url: '/api/notifications/preferences', payload: { email: 'daily' } })).statusCode, 200)
  const tides = await thesis(dept, 'fay', 'Tides')
  const rivers = await thesis(dept, 'fred', 'Rivers')
  await workflows.decide('honors_thesis', as('fay'), testActor, tides._id, { decision: 'approve', comment: `${commentMarker}: fine work` })
  await app.notifications.relay.idle()
  const held = await app.store.collection<EmailDelivery>(emailCollection).find({ status: 'held' })
  t.ok(held.length >= 4, 'everyone is on a digest, so the news is held')
  t.equal(smtp.received.length, 0, 'and nothing is sent at once')

  const result = await app.notifications.email.digest('daily')
  t.match(result, { frequency: 'daily', recipients: 5, sent: 4, already: 0, not_sent: 0 })
  t.match(result.period, /^\d{4}-\d{2}-\d{2}$/, 'the period is the calendar day')
  const mails = byRecipient(await smtp.waitFor(4))
  t.same(Object.keys(mails).sort(), ['abe@dept.edu', 'ada@dept.edu', 'fred@dept.edu', 'una@dept.edu'], 'fay has nothing awaiting her any more: no digest')

  const fred = mails['fred@dept.edu']!
  t.equal(fred.subject, 'Your daily digest: 1 awaiting your decision')
  t.match(fred.text, /- Rivers: advisor stage, due \d{4}-\d{2}-\d{2}\n/, 'the title, the stage and when it is due')
  t.match(fred.text, linkOf(rivers._id))
  t.notMatch(fred.text, 'Tides', 'nothing of what awaits others')
  t.match(fred.html, `<a href="${linkOf(rivers._id)}">Rivers</a>`)
  for (const admin of ['ada@dept.edu', 'abe@dept.edu']) {
    const mail = mails[admin]!
    t.equal(mail.subject, 'Your daily digest: 1 awaiting your decision', `${admin}: the admin stage of Tides`)
    t.match(mail.text, /- Tides: department stage, due /)
    t.notMatch(mail.text, 'Rivers')
  }
  const una = mails['una@dept.edu']!
  t.equal(una.subject, 'Your daily digest: 1 update', 'the student hears of the decision as news')
  t.match(una.text, 'A decision on Tides')
  t.notMatch(una.text, 'Awaiting your decision (', 'and has no section of things awaiting her')

  const again = await app.notifications.email.digest('daily')
  t.match(again, { recipients: 3, sent: 0, already: 3 }, 'a second run in the same period sends nothing (and Una has no news left)')
  const stillHeld = await app.store.collection<EmailDelivery>(emailCollection).find({ status: 'held' })
  t.same(stillHeld, [], 'every held news item was digested or superseded')

  // Run by an admin over HTTP: a job, which in this period finds everything sent.
  const refused = await http('fay')({ method: 'POST', url: '/api/admin/notifications/digest', payload: { frequency: 'daily' } })
  t.equal(refused.statusCode, 403, 'manage_jobs is needed')
  t.equal((await http('admin')({ method: 'POST', url: '/api/admin/notifications/digest', payload: { frequency: 'hourly' } })).statusCode, 400)
  const accepted = await http('admin')({ method: 'POST', url: '/api/admin/notifications/digest', payload: { frequency: 'daily' } })
  t.equal(accepted.statusCode, 202)
  const job = await until(async () => {
    const view = await app.jobs.job(accepted.json().jobId)
    return view?.state === 'completed' && view
  }, 'the digest job')
  t.match(job.result, { frequency: 'daily', sent: 0, already: 3 })
  t.equal(smtp.received.length, 4)

  // A weekly digest: nobody is on it, then Fred is; Gus, weekly with nothing awaiting, gets none.
  t.match(await app.notifications.email.digest('weekly'), { recipients: 0, sent: 0 })
  await http('fred')({ method: 'PUT', url: '/api/notifications/preferences', payload: { email: 'weekly' } })
  await http('gus')({ method: 'PUT', url: '/api/notifications/preferences', payload: { email: 'weekly' } })
  const weekly = await app.notifications.email.digest('weekly')
  t.match(weekly, { recipients: 1, sent: 1 })
  t.match(weekly.period, /^\d{4}-W\d{2}$/, 'the period is the ISO week')
  const [, , , , last] = await smtp.waitFor(5)
  t.same(last!.to, ['fred@dept.edu'])
  t.match(last!.subject, 'Your weekly digest: 1 awaiting your decision')
  t.same(smtp.violations(), [], "no digest carries an approver's comment, a grade or a token")
})

t.test('a digest without SMTP_URL is recorded as not sent', async (t) => {
  const dept = await workflowDepartment(t)
  await thesis(dept, 'fred', 'Rivers')
  await dept.app.notifications.relay.idle()
  t.match(await dept.app.notifications.email.digest('daily'), { recipients: 1, sent: 0, not_sent: 1 })
  const digests = await dept.app.store.collection<EmailDelivery>(emailCollection).find({ kind: 'digest' })
  t.same(digests.map((d) => [d.recipient, d.status, d.reason]), [[dept.ids.fred, 'not_sent', 'SMTP_URL is not set']])
  t.match(await dept.app.notifications.email.digest('daily'), { not_sent: 0, already: 1 }, 'once per period all the same')
})

t.test('a digest not accepted is sent by the sweep when the server returns, once', async (t) => {
  const smtp = await smtpServer(t)
  const dept = await workflowDepartment(t, { SMTP_URL: smtp.url })
  const { app } = dept
  await thesis(dept, 'fred', 'Rivers')
  await app.notifications.relay.idle()
  await smtp.stop()
  t.match(await app.notifications.email.digest('daily'), { recipients: 1, sent: 0, retrying: 1 })
  await smtp.start()
  await app.notifications.relay.sweep(new Date())
  const [mail] = await smtp.waitFor(1)
  t.match(mail!.subject, 'Your daily digest: 1 awaiting')
  await until(async () => (await app.store.collection<EmailDelivery>(emailCollection).findOne({ kind: 'digest', status: 'sent' })), 'the digest marked sent')
  t.match(await app.notifications.email.digest('daily'), { sent: 0, already: 1 })
  await app.notifications.relay.sweep(new Date())
  await until(async () => !(await app.store.collection<EmailDelivery>(emailCollection).findOne({ status: 'pending' })), 'nothing pending')
  t.equal(smtp.received.length, 1)
})

t.test('the digests are scheduled daily and on Mondays at DIGEST_HOUR in TIME_ZONE, listed with the other schedulers', async (t) => {
  const { app, http } = await workflowDepartment(t, { DIGEST_HOUR: '6', TIME_ZONE: 'Europe/Berlin' })
  t.same(app.notifications.email.schedules, [
    { queue: 'notifications', spec: { id: 'digest-daily', name: 'digest', pattern: '0 6 * * *', tz: 'Europe/Berlin', data: { frequency: 'daily' } } },
    { queue: 'notifications', spec: { id: 'digest-weekly', name: 'digest', pattern: '0 6 * * 1', tz: 'Europe/Berlin', data: { frequency: 'weekly' } } },
  ])
  // What the server does at start (src/server.ts).
  await scheduleMaintenanceJobs(app.jobs, app.maintenance, app.notifications.schedules)
  const listed = (await http('admin')({ method: 'GET', url: '/api/schedulers' })).json() as { id: string; queue: string; tz: string | null }[]
  t.match(listed.filter((s) => s.id.startsWith('digest-')), [
    { id: 'digest-daily', queue: 'notifications', tz: 'Europe/Berlin' }, { id: 'digest-weekly', queue: 'notifications', tz: 'Europe/Berlin' },
  ])
  t.ok(listed.some((s) => s.id === 'prune-email-deliveries' && s.queue === 'maintenance'), 'old deliveries are pruned by a maintenance job')
})
