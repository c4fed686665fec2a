import t from 'tap'
import { listen, send } from '../auth/support.js'
import { workflowDepartment } from '../workflows/support.js'
import { testActor } from '../helpers/actor.js'

t.test('a submission tells the advisors in the app, once, and never the student who submitted', async (t) => {
  const { app, workflows, as, http, ids } = await workflowDepartment(t)
  const draft = await workflows.create('honors_thesis', as('una'), testActor, { student: ids.una, advisor: ids.fay, title: 'Tides', abstract: 'A', term: '25F' })
  await workflows.submit('honors_thesis', as('una'), testActor, draft._id)
  await app.notifications.relay.idle()
  const fay = await (await http('fay')({ method: 'GET', url: '/api/notifications' })).json()
  t.equal(fay.total, 1, 'one notice for the advisor')
  t.match(fay.items[0], { type: 'workflow.stage_activated', subject: draft._id, title: 'Tides', link: `/approvals/thesis/${encodeURIComponent(draft._id)}`, read_at: null })
  t.equal(fay.unread, 1)
  const una = await (await http('una')({ method: 'GET', url: '/api/notifications' })).json()
  t.equal(una.total, 0, 'the submitter is not told of their own act')
  await app.notifications.relay.sweep(new Date())
  t.equal((await (await http('fay')({ method: 'GET', url: '/api/notifications' })).json()).total, 1, 'a sweep writes nothing twice')

  const read = await http('fay')({ method: 'POST', url: `/api/notifications/${fay.items[0]._id}/read` })
  t.equal(read.statusCode, 200)
  t.ok(read.json().read_at)
  t.equal((await http('una')({ method: 'POST', url: `/api/notifications/${fay.items[0]._id}/read` })).statusCode, 404, "another's notification is not found")
  t.equal((await (await http('fay')({ method: 'GET', url: '/api/notifications?unread=true' })).json()).total, 0)

  await workflows.decide('honors_thesis', as('fay'), testActor, draft._id, { decision: 'approve' })
  await app.notifications.relay.idle()
  const admin = await (await http('admin')({ method: 'GET', url: '/api/notifications' })).json()
  t.match(admin.items.map((i: { type: string }) => i.type), ['workflow.stage_activated'], 'the decision activates the admins\' stage')
  const student = await (await http('una')({ method: 'GET', url: '/api/notifications' })).json()
  t.same(student.items.map((i: { type: string }) => i.type), ['workflow.decided'], 'the student hears of the decision')
  await workflows.decide('honors_thesis', as('admin'), testActor, draft._id, { decision: 'approve' })
  await app.notifications.relay.idle()
  const after = await (await http('una')({ method: 'GET', url: '/api/notifications' })).json()
  t.same(after.items.map((i: { type: string }) => i.type), ['workflow.approved', 'workflow.decided'])
  const all = await http('una')({ method: 'POST', url: '/api/notifications/read-all' })
  t.same(all.json(), { marked: 2 })
})

t.test('an instance stored before there were events relays only what is written after, not its past', async (t) => {
  const { app, workflows, as, http, ids } = await workflowDepartment(t)
  const draft = await workflows.create('honors_thesis', as('una'), testActor, { student: ids.una, advisor: ids.fay, title: 'Old', abstract: 'A', term: '25F' })
  const { instance } = await workflows.submit('honors_thesis', as('una'), testActor, draft._id)
  await app.notifications.relay.idle()
  // As an instance written before the outbox existed: no outbox fields, and no events of its past.
  await app.store.collection('workflow_instances').updateOne({ _id: instance._id }, { $unset: { events_pending: true, events_relayed: true } })
  await app.store.collection('notification_events').deleteMany({})
  await app.store.collection('notifications').deleteMany({})
  await workflows.decide('honors_thesis', as('fay'), testActor, draft._id, { decision: 'approve' })
  await app.notifications.relay.idle()
  const events = await app.store.collection('notification_events').find({})
  t.same(events.map((e) => e._id).sort(), [`${instance._id}#2/workflow.decided`, `${instance._id}#2/workflow.stage_activated`], 'only the new entry\'s events')
  t.equal((await (await http('fay')({ method: 'GET', url: '/api/notifications' })).json()).total, 0, 'the advisor is not told again of the submission')
})

t.test('notifications are for signed-in people: no token is a 401, an API key a 403, bad ids and fields a 400', async (t) => {
  const { app, http } = await workflowDepartment(t)
  t.equal((await app.inject({ method: 'GET', url: '/api/notifications' })).statusCode, 401)
  const key = (await http('fay')({ method: 'POST', url: '/api/api-keys', payload: { name: 'k', permissions: ['read_courses'] } })).json() as { key: string }
  t.match(key.key, /^adks_/)
  t.equal((await send(await listen(app), 'GET', '/api/notifications', { 'X-API-Key': key.key })).status, 403, 'workflow news is people\'s, not keys\'')
  t.equal((await http('fay')({ method: 'GET', url: '/api/notifications?limit=100000' })).statusCode, 400)
  t.equal((await http('fay')({ method: 'GET', url: '/api/notifications?unread=maybe' })).statusCode, 400)
  t.equal((await http('fay')({ method: 'POST', url: '/api/notifications/%7B%22%24ne%22%3A1%7D/read' })).statusCode, 400)
  t.equal((await http('fay')({ method: 'POST', url: '/api/notifications/abcdefabcdefabcdefabcdef/read' })).statusCode, 404)
})
