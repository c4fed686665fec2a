import t from 'tap'
import { rejection, workflowDepartment } from './support.js'
import { testActor } from '../helpers/actor.js'

const thesis = (student: string, advisor: string) => ({ student, advisor, title: 'Graph colouring', abstract: 'On colours.', term: '25F' })

t.test('honors thesis: submit, the advisor approves, an admin approves', async (t) => {
  const { workflows, as, ids } = await workflowDepartment(t)
  const draft = await workflows.create('honors_thesis', as('una'), testActor, thesis(ids.una, ids.fay))
  t.equal(draft.status, 'draft')
  const submitted = await workflows.submit('honors_thesis', as('una'), testActor, draft._id)
  t.equal(submitted.entity.status, 'submitted')
  t.same(submitted.instance.pending_approvers, [ids.fay], 'the thesis advisor is asked')
  const queue = await workflows.pending('honors_thesis', as('fay'), { limit: 10, offset: 0 })
  t.same(queue.items.map((i) => i.id), [draft._id])
  t.equal(queue.items[0]!.title, 'Graph colouring')
  const advised = await workflows.decide('honors_thesis', as('fay'), testActor, draft._id, { decision: 'approve' })
  t.equal(advised.instance.current_stage, 'department')
  t.same(advised.instance.pending_approvers.toSorted(), [ids.admin, ids.admin2].toSorted(), 'both admins, by Person id')
  const done = await workflows.decide('honors_thesis', as('admin2'), testActor, draft._id, { decision: 'approve', comment: 'fine' })
  t.equal(done.instance.status, 'approved')
  t.equal(done.entity.status, 'approved')
  t.same(done.instance.history.map((h) => h.action), ['submit', 'approve', 'approve'])
  t.equal((await workflows.pending('honors_thesis', as('admin'), { limit: 10, offset: 0 })).total, 0)
  const err = await rejection(t, workflows.decide('honors_thesis', as('una'), testActor, draft._id, { decision: 'approve' }))
  t.equal(err.statusCode, 403, 'no one decides on their own submission')
})
