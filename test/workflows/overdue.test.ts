import t from 'tap'
import { workflowDepartment } from './support.js'
import { testActor } from '../helpers/actor.js'

const day = 86_400_000

t.test('the overdue sweep marks late approvals, then escalates to the admins, once each', async (t) => {
  const { workflows, as, ids } = await workflowDepartment(t)
  const draft = await workflows.create('honors_thesis', as('una'), testActor, { student: ids.una, advisor: ids.fay, title: 'T', abstract: 'A', term: '25F' })
  const { instance } = await workflows.submit('honors_thesis', as('una'), testActor, draft._id)
  const due = Date.parse(instance.stages[0]!.due_at!)
  t.same(await workflows.overdue.sweep(new Date(due - 2 * day)), { marked: 0, escalated: 0, due_soon: 0 }, 'nothing two days before the due time')
  t.same(await workflows.overdue.sweep(new Date(due - 1000)), { marked: 0, escalated: 0, due_soon: 1 }, 'due soon within a day of it')
  t.same(await workflows.overdue.sweep(new Date(due - 500)), { marked: 0, escalated: 0, due_soon: 0 }, 'a reminder once')
  t.same(await workflows.overdue.sweep(new Date(due + 1000)), { marked: 1, escalated: 0, due_soon: 0 })
  t.same(await workflows.overdue.sweep(new Date(due + 2000)), { marked: 0, escalated: 0, due_soon: 0 }, 'a repeat marks nothing')
  const [item] = (await workflows.pending('honors_thesis', as('fay'), { limit: 10, offset: 0 })).items
  t.equal(item?.overdue, true)
  const twice = Date.parse(instance.stages[0]!.activated_at!) + 2 * 14 * day
  t.same(await workflows.overdue.sweep(new Date(twice + 1000)), { marked: 0, escalated: 1, due_soon: 0 })
  // The admins join a stage already past its due time, so the next run marks them overdue too; no second escalation.
  t.same(await workflows.overdue.sweep(new Date(twice + 2000)), { marked: 1, escalated: 0, due_soon: 0 }, 'escalated once')
  t.same(await workflows.overdue.sweep(new Date(twice + 3000)), { marked: 0, escalated: 0, due_soon: 0 })
  t.equal((await workflows.pending('honors_thesis', as('admin'), { limit: 10, offset: 0 })).items[0]?.stage, 'advisor', 'admins now hold the advisor stage')
  const { instance: after } = await workflows.decide('honors_thesis', as('admin'), testActor, draft._id, { decision: 'approve' })
  t.equal(after.stages[0]!.status, 'approved', 'one escalated admin decides for the stage')
  t.same(after.history.map((h) => h.action), ['submit', 'due_soon', 'overdue', 'escalate', 'overdue', 'approve'])
})
