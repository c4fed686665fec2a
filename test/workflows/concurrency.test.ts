import t from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { WorkflowConflictError } from '../../src/workflows/errors.js'
import { principal, workflowDepartment } from './support.js'
import { testActor } from '../helpers/actor.js'

const quorum = 5

/**
 * An awards committee of 15 and a definition whose committee stage needs 5 approvals: 14 members approve
 * at once while one member sends the same approval 6 times, 20 calls racing on one stage.
 */
t.test('20 concurrent decisions on one quorum stage: each applied once or a 409, none lost', async (t) => {
  const { app, workflows, records, as, ids } = await workflowDepartment(t)
  const members = Array.from({ length: 15 }, (_, i) => `m${i}@dept.edu`)
  const memberIds: string[] = []
  for (const [i, email] of members.entries()) {
    await records.create('User', { email, role: 'faculty', affiliation: [] }, { actor: testActor, key: userIdForEmail(email).slice('User/'.length) })
    memberIds.push((await records.create('Faculty', { first_name: `M${i}`, last_name: 'X', email }, { actor: testActor }))._id)
  }
  const [group] = await records.find(app.schema.class('Group')!, { name: 'Awards committee' })
  await records.update(group!._id, { members: members.map(userIdForEmail) }, { actor: testActor })
  const current = (await workflows.catalog.definitions(as('admin'))).items.find((w) => w.domain === 'award_nominations')!
  await workflows.catalog.updateDefinition(as('admin'), testActor, current._id, {
    domain: 'award_nominations', name: 'Awards, larger quorum',
    stages: current.stages.map((s) => (s.key === 'committee' ? { ...s, quorum } : s)),
  })
  const nomination = await workflows.create('award_nominations', as('gus'), testActor, { nominee: ids.una, award: 'Prize', statement: 'S' })
  const { instance: submitted } = await workflows.submit('award_nominations', as('gus'), testActor, nomination._id)
  t.equal(submitted.stages[0]!.approvals.length, 15, 'every member is asked')

  const calls = [
    ...members.slice(1).map((email) => ({ email })),
    ...Array.from({ length: 6 }, () => ({ email: members[0]! })),
  ]
  t.equal(calls.length, 20)
  const outcomes = await Promise.allSettled(calls.map(({ email }) =>
    workflows.decide('award_nominations', principal(email, 'faculty'), testActor, nomination._id, { decision: 'approve', stage: 'committee' })))
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') t.ok(outcome.reason instanceof WorkflowConflictError, `a refused call is a 409: ${String(outcome.reason)}`)
  }
  const conflicts = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[]
  for (const { reason } of conflicts) t.ok((reason as WorkflowConflictError).instance?._id, 'a 409 carries the current instance')

  const final = (await workflows.instancesStore.ofEntity(nomination._id))!
  const committee = final.stages[0]!
  const approved = committee.approvals.filter((a) => a.status === 'approved').map((a) => a.approver)
  const entries = final.history.filter((h) => h.action === 'approve' && h.stage === 'committee').map((h) => h.actor)
  t.same(entries.toSorted(), approved.toSorted(), 'history holds exactly the applied decisions')
  t.equal(new Set(entries).size, entries.length, 'no decision is applied twice')
  // A distinct approver's call succeeded exactly when their approval was applied.
  for (const [i, { email }] of calls.entries()) {
    if (email === members[0]) continue
    const id = memberIds[members.indexOf(email)]!
    t.equal(outcomes[i]!.status === 'fulfilled', approved.includes(id), `${email}: answered as applied`)
  }
  const repeaterSucceeded = outcomes.some((o, i) => calls[i]!.email === members[0] && o.status === 'fulfilled')
  t.equal(repeaterSucceeded, approved.includes(memberIds[0]!), 'the repeated approval was applied once when any of its calls succeeded')
  t.ok(approved.length <= quorum, 'never more approvals than the quorum: the stage closes at the quorum')
  t.equal(committee.status, approved.length === quorum ? 'approved' : 'active', 'the stage stands as its policy says')
  if (approved.length === quorum) t.equal(final.current_stage, 'department', 'the next stage is active')
  t.ok(approved.length >= 1, 'at least one racer won')
  t.comment(`${outcomes.length - conflicts.length} calls answered 200, ${conflicts.length} answered 409, ${approved.length} approvals applied`)

  // The rest, one after another: the stage closes at exactly the quorum, and later calls are 409.
  let late = 0
  for (const email of members) {
    try {
      await workflows.decide('award_nominations', principal(email, 'faculty'), testActor, nomination._id, { decision: 'approve', stage: 'committee' })
    } catch (error) {
      t.ok(error instanceof WorkflowConflictError)
      late++
    }
  }
  const closed = (await workflows.instancesStore.ofEntity(nomination._id))!
  t.equal(closed.stages[0]!.status, 'approved')
  t.equal(closed.stages[0]!.approvals.filter((a) => a.status === 'approved').length, quorum)
  t.equal(late, members.length - quorum, 'every call after the quorum was a 409')
  t.equal(closed.history.filter((h) => h.action === 'approve').length, quorum)
})
