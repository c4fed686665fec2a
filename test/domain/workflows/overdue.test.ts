import t from 'tap'
import { decide, escalate, markOverdue, pendingApprovals, start, type WorkflowInstance } from '../../../src/domain/workflows/index.js'
import { directory, fellowship, instanceOf, later, standing, student, t0, thesis } from './fixtures.js'

function submitted(): WorkflowInstance {
  return instanceOf(start({ definition: thesis, entity: 'ThesisRequest/1', submitter: student, directory, now: t0 }))
}

t.test('past due_at, the pending approvals of the active stage are marked overdue, once', async (t) => {
  const instance = instanceOf(decide(submitted(), thesis, { actor: { id: 'Faculty/ada' }, decision: 'approve', directory, now: later(1) }))
  t.same(markOverdue(instance, later(6.9)), { ok: true, instance, applied: false }, 'not yet due')
  const marked = instanceOf(markOverdue(instance, later(7)))
  t.same(marked.stages[0]!.approvals.map((a) => a.overdue ?? false), [false, true], 'only the approval still pending')
  t.match(marked.history.at(-1), { actor: 'system', action: 'overdue', stage: 'advisor', round: 1, comment: 'overdue since 2025-09-08T12:00:00.000Z: Faculty/alan' })
  t.same(markOverdue(marked, later(8)), { ok: true, instance: marked, applied: false }, 'a second run changes nothing')
  const decided = instanceOf(decide(marked, thesis, { actor: { id: 'Faculty/alan' }, decision: 'approve', directory, now: later(8) }))
  t.equal(decided.stages[0]!.approvals[1]!.overdue, undefined, 'a decision clears the mark')
  t.same(markOverdue(decided, later(30)), { ok: true, instance: decided, applied: false }, 'a stage without due_in_days is never overdue')
})

t.test('past twice the due time, the department admins join the stage; any one of them decides for it', async (t) => {
  const instance = submitted()
  t.same(escalate(instance, thesis, directory, later(13.9)), { ok: false, code: 'conflict', reason: 'stage advisor escalates at 2025-09-15T12:00:00.000Z' })
  const escalated = instanceOf(escalate(instance, thesis, directory, later(14)))
  t.same(standing(escalated, 'advisor'), ['Faculty/ada:pending', 'Faculty/alan:pending', 'User/root:pending', 'User/chief:pending'])
  t.same(escalated.stages[0]!.approvals.slice(2).map((a) => a.source), ['escalation', 'escalation'])
  t.equal(escalated.stages[0]!.escalated_at, later(14).toISOString())
  t.match(escalated.history.at(-1), { actor: 'system', action: 'escalate', stage: 'advisor', comment: 'department admins added: User/root, User/chief' })
  t.same(escalate(escalated, thesis, directory, later(20)), { ok: true, instance: escalated, applied: false }, 'once per activation')
  t.same(pendingApprovals(escalated).map((a) => a.approver), ['Faculty/ada', 'Faculty/alan', 'User/root', 'User/chief'])
  const decided = instanceOf(decide(escalated, thesis, { actor: { id: 'User/chief', admin: true }, decision: 'approve', directory, now: later(15) }))
  t.same(decided.stages.map((s) => s.status), ['approved', 'active'], 'one escalated admin\'s approval completes the stage')
})

t.test('escalation refusals', async (t) => {
  const fellowshipInstance = instanceOf(start({ definition: fellowship, entity: 'FellowshipApplication/1', submitter: student, directory, now: t0 }))
  t.same(escalate(fellowshipInstance, fellowship, directory, later(100)), { ok: false, code: 'conflict', reason: 'stage advisor has no due time' })
  const onlyAdmin = { ...directory, roles: { ...directory.roles, advisor: ['User/root'], department_admin: ['User/root'] } }
  const asked = instanceOf(start({ definition: thesis, entity: 'ThesisRequest/1', submitter: student, directory: onlyAdmin, now: t0 }))
  t.same(escalate(asked, thesis, onlyAdmin, later(14)), {
    ok: false, code: 'conflict', reason: 'stage advisor is overdue but no department admin who may decide is left to add',
  }, 'an admin already asked is not added twice')
  const rejected = instanceOf(decide(submitted(), thesis, { actor: { id: 'Faculty/ada' }, decision: 'reject', directory, now: later(1) }))
  t.same(escalate(rejected, thesis, directory, later(30)), { ok: false, code: 'conflict', reason: 'the instance is rejected with no active stage' })
})
