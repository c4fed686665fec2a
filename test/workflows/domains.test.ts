import t, { type Test } from 'tap'
import { cases, submitted, type Case } from './cases.js'
import { rejection, workflowDepartment, type Department } from './support.js'
import { testActor } from '../helpers/actor.js'

async function approveAll(t: Test, d: Department, c: Case, id: string, from = 0) {
  for (const [i, stage] of c.stages.entries()) {
    if (i < from) continue
    for (const who of stage) {
      const { instance } = await d.workflows.decide(c.domain, d.as(who), testActor, id, { decision: 'approve' })
      t.equal(instance.stages[i]!.approvals.find((a) => a.approver === d.ids[who] && a.round === instance.round)?.status, 'approved', `${who} approved stage ${i}`)
    }
  }
}

for (const c of cases) {
  t.test(`${c.domain}: submit, every stage approves, approved`, async (t) => {
    const d = await workflowDepartment(t)
    const id = await submitted(d, c)
    const before = await d.workflows.get(c.domain, d.as(c.creator), id)
    t.equal(before.status, 'submitted')
    t.equal(before.instance?.status, 'in_review')
    if (c.domain === 'graduate_milestones') t.equal(before.milestone_status, 'submitted')
    await approveAll(t, d, c, id)
    const after = await d.workflows.get(c.domain, d.as(c.creator), id)
    t.equal(after.status, 'approved')
    t.equal(after.instance?.status, 'approved')
    if (c.domain === 'graduate_milestones') t.equal(after.milestone_status, 'approved')
    if (c.domain === 'major_plans') {
      const planRecord = await d.records.get(after.plan as string)
      t.equal(planRecord?.approval, id, 'the plan is marked approved by this approval')
      t.type(planRecord?.approved_at, 'string')
    }
    const { items } = await d.workflows.history(c.domain, d.as(c.creator), id)
    t.same(items.map((h) => h.action), ['submit', ...c.stages.flat().map(() => 'approve')], 'history holds every action')
  })

  t.test(`${c.domain}: a rejection in the first stage rejects`, async (t) => {
    const d = await workflowDepartment(t)
    const id = await submitted(d, c)
    const { entity, instance } = await d.workflows.decide(c.domain, d.as(c.stages[0]![0]!), testActor, id, { decision: 'reject', comment: 'no' })
    t.equal(entity.status, 'rejected')
    t.equal(instance.status, 'rejected')
    t.same(instance.pending_approvers, [], 'nothing is left in anyone\'s queue')
    if (c.domain === 'graduate_milestones') t.equal(entity.milestone_status, 'in_progress')
    const late = await rejection(t, d.workflows.decide(c.domain, d.as(c.stages[0]!.at(-1)!), testActor, id, { decision: 'approve' }))
    t.equal(late.statusCode, 409, 'a decision on a closed instance is a conflict')
  })

  t.test(`${c.domain}: revision requested in the last stage, edited, resubmitted, approved in round 2`, async (t) => {
    const d = await workflowDepartment(t)
    const id = await submitted(d, c)
    const last = c.stages.length - 1
    for (const [i, stage] of c.stages.entries()) {
      if (i === last) break
      for (const who of stage) await d.workflows.decide(c.domain, d.as(who), testActor, id, { decision: 'approve' })
    }
    const returned = await d.workflows.decide(c.domain, d.as(c.stages[last]![0]!), testActor, id, { decision: 'request_revision', comment: 'fix it' })
    t.equal(returned.entity.status, 'revision_requested')
    if (c.domain === 'graduate_milestones') t.equal(returned.entity.milestone_status, 'in_progress')
    if (c.edit) {
      const edited = await d.workflows.update(c.domain, d.as(c.creator), testActor, id, c.edit)
      for (const [field, value] of Object.entries(c.edit)) t.equal(edited[field], value)
    }
    const again = await d.workflows.submit(c.domain, d.as(c.creator), testActor, id)
    t.equal(again.instance.round, 2)
    t.equal(again.entity.status, 'submitted')
    t.equal(again.instance.current_stage, again.instance.stages[0]!.key, 'round 2 starts from the first stage')
    await approveAll(t, d, c, id)
    const after = await d.workflows.get(c.domain, d.as(c.creator), id)
    t.equal(after.status, 'approved')
    const rounds = (await d.workflows.history(c.domain, d.as(c.creator), id)).items.map((h) => `${h.action}@${h.round}`)
    t.ok(rounds.includes('request_revision@1') && rounds.includes('resubmit@2'), 'history keeps both rounds')
  })

  t.test(`${c.domain}: delegate, the delegate decides on behalf`, async (t) => {
    const d = await workflowDepartment(t)
    const id = await submitted(d, c)
    const { from, to } = c.delegation
    const handed = await d.workflows.delegate(c.domain, d.as(from), testActor, id, { to: d.ids[to], comment: 'away' })
    t.ok(handed.instance.pending_approvers.includes(d.ids[to]) && !handed.instance.pending_approvers.includes(d.ids[from]))
    const queue = await d.workflows.pending(c.domain, d.as(to), { limit: 10, offset: 0 })
    t.equal(queue.items[0]?.on_behalf_of, d.ids[from], 'the delegate\'s queue says for whom')
    const refused = await rejection(t, d.workflows.decide(c.domain, d.as(from), testActor, id, { decision: 'approve' }))
    t.equal(refused.statusCode, 403, 'the delegator no longer decides')
    const further = await rejection(t, d.workflows.delegate(c.domain, d.as(to), testActor, id, { to: d.ids.stu }))
    t.equal(further.statusCode, 403, 'a delegate cannot delegate further')
    const { instance } = await d.workflows.decide(c.domain, d.as(to), testActor, id, { decision: 'approve' })
    const entry = instance.history.at(-1)!
    t.same([entry.actor, entry.on_behalf_of, entry.action], [d.ids[to], d.ids[from], 'approve'])
  })

  t.test(`${c.domain}: the submitter withdraws`, async (t) => {
    const d = await workflowDepartment(t)
    const id = await submitted(d, c)
    const stranger = await rejection(t, d.workflows.withdraw(c.domain, d.as('admin'), testActor, id, {}))
    t.equal(stranger.statusCode, 403, 'only the submitter withdraws')
    const { entity, instance } = await d.workflows.withdraw(c.domain, d.as(c.creator), testActor, id, { comment: 'changed my mind' })
    t.equal(entity.status, 'withdrawn')
    t.equal(instance.status, 'withdrawn')
    t.equal((await d.workflows.pending(c.domain, d.as(c.stages[0]![0]!), { limit: 10, offset: 0 })).total, 0)
    const repeat = await d.workflows.withdraw(c.domain, d.as(c.creator), testActor, id, {})
    t.equal(repeat.instance._version, instance._version, 'a repeated withdraw changes nothing')
  })
}
