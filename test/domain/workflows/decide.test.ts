import t from 'tap'
import { decide, delegate, exclude, start, type Actor, type DecideInput, type Decision, type WorkflowDefinition, type WorkflowInstance } from '../../../src/domain/workflows/index.js'
import { directory, fellowship, instanceOf, later, standing, student, t0, thesis } from './fixtures.js'

const ada: Actor = { id: 'Faculty/ada' }
const alan: Actor = { id: 'Faculty/alan' }
const root: Actor = { id: 'User/root', admin: true }
const chief: Actor = { id: 'User/chief', admin: true }

function submitted(definition: WorkflowDefinition = thesis, submitter = student, excluded: string[] = []): WorkflowInstance {
  return instanceOf(start({ definition, entity: 'ThesisRequest/1', submitter, excluded, directory, now: t0 }))
}

function by(actor: Actor, decision: Decision, extra: Partial<DecideInput> = {}): DecideInput {
  return { actor, decision, directory, now: later(1), ...extra }
}

function run(instance: WorkflowInstance, ...steps: DecideInput[]): WorkflowInstance {
  return steps.reduce((current, step) => instanceOf(decide(current, thesis, step)), instance)
}

t.test('policy all: the stage completes when every approver approved, and the next one activates', async (t) => {
  const once = instanceOf(decide(submitted(), thesis, by(ada, 'approve', { comment: 'fine' })))
  t.equal(once.status, 'in_review')
  t.same(once.stages.map((s) => s.status), ['active', 'waiting'], 'one of two approvals is not enough')
  t.match(once.stages[0]!.approvals[0], { approver: 'Faculty/ada', status: 'approved', decided_at: later(1).toISOString(), comment: 'fine' })
  t.match(once.history.at(-1), { at: later(1).toISOString(), actor: 'Faculty/ada', action: 'approve', stage: 'advisor', round: 1, comment: 'fine' })
  const twice = instanceOf(decide(once, thesis, { ...by(alan, 'approve'), now: later(2) }))
  t.same(twice.stages.map((s) => s.status), ['approved', 'active'])
  t.equal(twice.current_stage, 'department')
  t.same(standing(twice, 'department'), ['User/root:pending', 'User/chief:pending'], 'the admins are asked when the stage activates')
  t.equal(twice.stages[1]!.activated_at, later(2).toISOString())
})

t.test('policy any: one approval completes the stage; the last stage approved approves the instance', async (t) => {
  const done = run(submitted(), by(ada, 'approve'), by(alan, 'approve'), by(root, 'approve'))
  t.equal(done.status, 'approved')
  t.same(done.stages.map((s) => s.status), ['approved', 'approved'])
  t.match(decide(done, thesis, by(chief, 'approve')), { ok: false, code: 'conflict', reason: 'the instance is approved' }, 'the other admin is too late')
})

t.test('policy quorum: the number of approvals asked for, each person counted once', async (t) => {
  const doubled = { ...directory, groups: { 'Group/fellows': ['Faculty/grace', 'Faculty/grace', 'Faculty/edsger'] } }
  let instance = instanceOf(start({ definition: fellowship, entity: 'FellowshipApplication/1', submitter: student, directory: doubled, now: t0 }))
  const step = (actor: Actor) => { instance = instanceOf(decide(instance, fellowship, { ...by(actor, 'approve'), directory: doubled })) }
  step(alan)
  t.same(standing(instance, 'committee'), ['Faculty/grace:pending', 'Faculty/edsger:pending'])
  t.equal(instance.stages[1]!.due_at, '2025-09-12T12:00:00.000Z', 'due_at counts from the stage\'s own activation')
  step({ id: 'Faculty/grace' })
  t.equal(instance.stages[1]!.status, 'active', 'one approval of a quorum of 2')
  t.same(decide(instance, fellowship, { ...by({ id: 'Faculty/grace' }, 'approve'), directory: doubled }), { ok: true, instance, applied: false }, 'grace again counts once')
  step({ id: 'Faculty/edsger' })
  t.same(instance.stages.map((s) => s.status), ['approved', 'approved', 'active'])
})

t.test('the veto: any rejection rejects the stage and the instance; stages not reached are skipped', async (t) => {
  const rejected = run(submitted(), by(ada, 'approve'), by(alan, 'reject', { comment: 'not ready' }))
  t.equal(rejected.status, 'rejected')
  t.same(rejected.stages.map((s) => s.status), ['rejected', 'skipped'])
  let quorum = instanceOf(start({ definition: fellowship, entity: 'FellowshipApplication/1', submitter: student, directory, now: t0 }))
  for (const [actor, decision] of [[alan, 'approve'], [{ id: 'Faculty/grace' }, 'approve'], [{ id: 'Faculty/edsger' }, 'reject']] as const) {
    quorum = instanceOf(decide(quorum, fellowship, by(actor, decision)))
  }
  t.equal(quorum.status, 'rejected', 'a rejection vetoes even where a quorum could still be reached')
})

t.test('request revision: the instance waits for the submitter, the entity is returned', async (t) => {
  const returned = run(submitted(), by(ada, 'request_revision', { comment: 'add sources' }))
  t.equal(returned.status, 'revision_requested')
  t.same(returned.stages.map((s) => s.status), ['waiting', 'waiting'])
  t.match(decide(returned, thesis, by(alan, 'approve')), { ok: false, code: 'conflict', reason: 'the instance is revision_requested' })
})

t.test('the same decision twice is a repeat: ok, not applied, the same instance', async (t) => {
  const once = run(submitted(), by(ada, 'approve'))
  t.same(decide(once, thesis, by(ada, 'approve', { comment: 'again' })), { ok: true, instance: once, applied: false })
  const closed = run(submitted(), by(ada, 'approve'), by(alan, 'approve'), by(root, 'approve'))
  t.same(decide(closed, thesis, by(root, 'approve')), { ok: true, instance: closed, applied: false }, 'also the decision that closed the instance')
  t.same(decide(closed, thesis, by(alan, 'approve')), { ok: true, instance: closed, applied: false }, 'and an earlier stage\'s decision')
})

t.test('a different decision after deciding is a conflict', async (t) => {
  const once = run(submitted(), by(ada, 'approve'))
  t.same(decide(once, thesis, by(ada, 'reject')), { ok: false, code: 'conflict', reason: 'already approved in stage advisor of round 1' })
  const rejected = run(submitted(), by(ada, 'reject'))
  t.same(decide(rejected, thesis, by(ada, 'request_revision')), { ok: false, code: 'conflict', reason: 'already rejected in stage advisor of round 1' })
})

t.test('only a pending approver of the active stage decides', async (t) => {
  const instance = submitted()
  t.same(decide(instance, thesis, by({ id: 'Faculty/grace' }, 'approve')), { ok: false, code: 'forbidden', reason: 'not asked to decide in stage advisor' })
  t.same(decide(instance, thesis, by(root, 'approve')), {
    ok: false, code: 'forbidden', reason: 'not asked to decide in stage advisor; an admin may override with a written reason',
  })
  t.same(decide(instance, thesis, by(root, 'approve', { stage: 'department' })), { ok: false, code: 'conflict', reason: 'stage department is waiting' })
  t.same(decide(instance, thesis, by(ada, 'approve', { stage: 'library' })), { ok: false, code: 'not_found', reason: 'the workflow has no stage library', field: 'stage' })
  t.match(decide(instance, thesis, by(ada, 'maybe' as Decision)), { ok: false, code: 'invalid', field: 'decision' })
  t.match(decide(instance, { ...thesis, version: 2 }, by(ada, 'approve')), { ok: false, code: 'invalid', field: 'workflow', reason: /runs Workflow\/thesis version 1/ })
  t.match(decide(instance, thesis, by(ada, 'approve', { comment: 'y'.repeat(10_001) })), { ok: false, code: 'invalid', field: 'comment' })
})

t.test('no one decides on their own submission or a nomination they made, admins included', async (t) => {
  const own = submitted(thesis, 'Faculty/ada')
  t.same(decide(own, thesis, by(ada, 'approve')), { ok: false, code: 'forbidden', reason: 'no one decides on their own submission' })
  const adminOwn = submitted(thesis, 'User/root')
  t.match(decide(adminOwn, thesis, by(root, 'approve', { override: true, comment: 'mine' })), { ok: false, code: 'forbidden' })
  const nomination = submitted(thesis, 'Staff/sue', ['Faculty/alan'])
  t.same(decide(nomination, thesis, by(alan, 'approve')), {
    ok: false, code: 'forbidden', reason: 'conflict of interest: no one decides on an entity about them or on a nomination they made, admins included',
  })
})

t.test('someone excluded after being asked (an instance stored before its domain named them) neither decides, overrides nor delegates', async (t) => {
  const asked = submitted()
  const conflicted = exclude(asked, ['Faculty/ada', student, 'Faculty/ada'])
  t.same(conflicted.excluded, ['Faculty/ada'], 'the submitter is not repeated, nor anyone twice')
  t.equal(exclude(conflicted, ['Faculty/ada']), conflicted, 'nothing new to exclude: the same instance')
  t.same(asked.excluded, [], "the caller's instance is unchanged")
  t.match(decide(conflicted, thesis, by(ada, 'approve')), { ok: false, code: 'forbidden', reason: /^conflict of interest/ })
  t.match(delegate(conflicted, thesis, { actor: ada, to: 'Faculty/grace', now: later(1) }), { ok: false, code: 'forbidden', reason: /^conflict of interest/ })
  const adminSubject = exclude(instanceOf(decide(instanceOf(decide(asked, thesis, by(ada, 'approve'))), thesis, by(alan, 'approve'))), ['User/root'])
  t.match(decide(adminSubject, thesis, by(root, 'approve', { override: true, comment: 'I may' })), { ok: false, code: 'forbidden', reason: /^conflict of interest/ },
    'an admin the entity is about does not override either')
  t.match(decide(adminSubject, thesis, by(chief, 'approve')), { ok: true, applied: true }, 'another admin decides')
})

t.test('an admin overrides the active stage with a written reason, recorded as an override', async (t) => {
  const instance = submitted()
  t.same(decide(instance, thesis, by(root, 'approve', { override: true })), { ok: false, code: 'invalid', reason: 'an override needs a written reason', field: 'comment' })
  t.same(decide(instance, thesis, by(root, 'approve', { override: true, comment: '  ' })), { ok: false, code: 'invalid', reason: 'an override needs a written reason', field: 'comment' })
  t.same(decide(instance, thesis, by({ id: 'Faculty/grace' }, 'approve', { override: true, comment: 'x' })), { ok: false, code: 'forbidden', reason: 'only an admin overrides' })
  const overridden = instanceOf(decide(instance, thesis, by(root, 'approve', { override: true, comment: 'advisor on leave' })))
  t.same(overridden.stages.map((s) => s.status), ['approved', 'active'], 'the override decides the stage')
  t.match(overridden.stages[0]!.approvals.at(-1), { approver: 'User/root', status: 'approved', source: 'override', comment: 'advisor on leave' })
  t.match(overridden.history.at(-1), { actor: 'User/root', action: 'override_approve', stage: 'advisor', comment: 'advisor on leave' })
  t.same(standing(overridden, 'advisor').slice(0, 2), ['Faculty/ada:pending', 'Faculty/alan:pending'], 'the approvers asked keep their record')
  t.same(decide(overridden, thesis, by(ada, 'approve')), { ok: false, code: 'conflict', reason: 'stage advisor is approved' })
  t.same(decide(overridden, thesis, by(root, 'approve', { override: true, comment: 'again' })), { ok: true, instance: overridden, applied: false }, 'a repeated override')
  const rejected = instanceOf(decide(instance, thesis, by(root, 'reject', { override: true, comment: 'plagiarism' })))
  t.equal(rejected.status, 'rejected')
  t.equal(rejected.history.at(-1)!.action, 'override_reject')
})

t.test('a stage that resolves to nobody when it activates refuses the decision that would activate it', async (t) => {
  const once = run(submitted(), by(ada, 'approve'))
  const gone = { roles: { ...directory.roles, department_admin: [] } }
  const refused = decide(once, thesis, { ...by(alan, 'approve'), directory: gone })
  t.same(refused, { ok: false, code: 'conflict', reason: 'stage department has nobody to decide: no department_admin who may decide on this entity' })
  t.same(standing(once, 'advisor'), ['Faculty/ada:approved', 'Faculty/alan:pending'], 'the caller\'s instance is never changed')
})
