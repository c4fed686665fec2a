import t from 'tap'
import { decide, instanceOf, path, pendingIn, spec, startOne, workflowDepartment } from './support.js'

t.test('pending queues: each caller sees what waits for them, oldest first; admins may look at another\'s', async (t) => {
  const d = await workflowDepartment(t)
  const first = await startOne(t, d, 'honors_thesis', 1)
  const second = await startOne(t, d, 'honors_thesis', 2)
  const queue = spec('honors_thesis').pendingPath

  const fays = await d.callers.fay({ method: 'GET', url: queue })
  t.equal(fays.statusCode, 200)
  t.match(fays.json(), { total: 2, limit: 50, offset: 0 })
  t.same(fays.json().items.map((i: { id: string }) => i.id), [first.id, second.id], 'the advisor\'s queue holds both, oldest first')
  t.match(fays.json().items[0], { instance: first.instance, title: 'Thesis 1', stage: 'advisor', overdue: false, age_days: Number, submitted_at: String })
  t.match(fays.json().items[0], { submitter: d.ids.una, submitter_name: 'Una Under' }, 'who submitted, by Person id and name')

  for (const name of ['gus', 'una', 'otto', 'cal'] as const) {
    const res = await d.callers[name]({ method: 'GET', url: queue })
    t.equal(res.statusCode, 200)
    t.same(res.json().items, [], `${name} has nothing waiting`)
  }
  const paged = await d.callers.fay({ method: 'GET', url: `${queue}?limit=1&offset=1` })
  t.same(paged.json().items.map((i: { id: string }) => i.id), [second.id], 'paged as other lists')

  t.same((await d.admin({ method: 'GET', url: queue })).json().items, [], 'the admin\'s own queue is empty before the department stage')
  const seen = await d.admin({ method: 'GET', url: `${queue}?approver=${path(d.ids.fay)}` })
  t.equal(seen.statusCode, 200)
  t.equal(seen.json().total, 2, 'an admin sees the advisor\'s queue with approver=')
  const refused = await d.callers.gus({ method: 'GET', url: `${queue}?approver=${path(d.ids.fay)}` })
  t.equal(refused.statusCode, 403, 'a non-admin may not look at another\'s queue')

  // Once the advisor approves, the request moves to the admins' queue and leaves the advisor's.
  t.equal((await decide(d, 'honors_thesis', 'fay', first.id, 'approve')).statusCode, 200)
  t.same((await d.callers.fay({ method: 'GET', url: queue })).json().items.map((i: { id: string }) => i.id), [second.id])
  t.match((await d.admin({ method: 'GET', url: queue })).json().items, [{ id: first.id, stage: 'department' }])

  // Each domain's queue holds only its own domain.
  const research = await startOne(t, d, 'independent_research')
  t.same((await d.callers.fay({ method: 'GET', url: spec('independent_research').pendingPath })).json().items.map((i: { id: string }) => i.id), [research.id])
  t.notOk((await d.callers.fay({ method: 'GET', url: queue })).json().items.some((i: { id: string }) => i.id === research.id))

  // Milestones: the committee's queue fills once the advisor approves.
  const milestone = await startOne(t, d, 'graduate_milestones')
  t.same(pendingIn(await instanceOf(d, milestone.instance)), [d.ids.fay])
  t.equal((await decide(d, 'graduate_milestones', 'fay', milestone.id, 'approve')).statusCode, 200)
  for (const name of ['cal', 'cora'] as const) {
    t.match((await d.callers[name]({ method: 'GET', url: spec('graduate_milestones').pendingPath })).json().items, [{ id: milestone.id, stage: 'committee' }], `${name} of Gabe's committee is asked`)
  }
  t.same((await d.callers.cyd({ method: 'GET', url: spec('graduate_milestones').pendingPath })).json().items, [], 'Cyd is on no committee of Gabe\'s')
})
