import t from 'tap'
import { decide, delegate, escalate, start, type Actor, type WorkflowInstance } from '../../../src/domain/workflows/index.js'
import { directory, instanceOf, later, standing, student, t0, thesis } from './fixtures.js'

const ada: Actor = { id: 'Faculty/ada' }
const alan: Actor = { id: 'Faculty/alan' }
const grace: Actor = { id: 'Faculty/grace' }

function submitted(excluded: string[] = []): WorkflowInstance {
  return instanceOf(start({ definition: thesis, entity: 'ThesisRequest/1', submitter: student, excluded, directory, now: t0 }))
}

const handOff = (instance: WorkflowInstance, actor: Actor, to: string, comment?: string) =>
  delegate(instance, thesis, { actor, to, now: later(1), ...(comment !== undefined ? { comment } : {}) })

t.test('delegating hands the decision on: the delegate decides on behalf of the approver', async (t) => {
  const delegated = instanceOf(handOff(submitted(), ada, 'Faculty/grace', 'on sabbatical'))
  t.same(standing(delegated, 'advisor'), ['Faculty/ada:delegated', 'Faculty/alan:pending', 'Faculty/grace:pending'])
  t.match(delegated.stages[0]!.approvals[2], { approver: 'Faculty/grace', status: 'pending', source: 'delegation', on_behalf_of: 'Faculty/ada', round: 1 })
  t.match(delegated.history.at(-1), { actor: 'Faculty/ada', action: 'delegate', stage: 'advisor', round: 1, delegate_to: 'Faculty/grace', comment: 'on sabbatical' })

  t.same(decide(delegated, thesis, { actor: ada, decision: 'approve', directory, now: later(2) }), {
    ok: false, code: 'forbidden', reason: 'the approval was delegated to Faculty/grace, who decides now',
  }, 'the delegator can no longer decide')
  const decided = instanceOf(decide(delegated, thesis, { actor: grace, decision: 'approve', directory, now: later(2) }))
  t.match(decided.history.at(-1), { actor: 'Faculty/grace', on_behalf_of: 'Faculty/ada', action: 'approve' })
  t.equal(decided.stages[0]!.status, 'active', 'the delegate stands for ada; alan is still to decide')
  const complete = instanceOf(decide(decided, thesis, { actor: alan, decision: 'approve', directory, now: later(2) }))
  t.same(complete.stages.map((s) => s.status), ['approved', 'active'], 'policy all counts the delegate in place of the delegator')
})

t.test('the same delegation twice is a repeat; another one is a conflict', async (t) => {
  const delegated = instanceOf(handOff(submitted(), ada, 'Faculty/grace'))
  t.same(handOff(delegated, ada, 'Faculty/grace'), { ok: true, instance: delegated, applied: false })
  t.same(handOff(delegated, ada, 'Faculty/edsger'), { ok: false, code: 'conflict', reason: 'the approval is already delegated to Faculty/grace' })
})

t.test('delegations that would loop or bypass the four eyes are refused, leaving the approval unchanged', async (t) => {
  const instance = submitted(['Faculty/barbara'])
  const delegated = instanceOf(handOff(instance, ada, 'Faculty/grace'))
  const cases: [string, WorkflowInstance, Actor, string, object][] = [
    ['to oneself', instance, ada, 'Faculty/ada', { code: 'invalid', field: 'to', reason: 'no one delegates to themselves' }],
    ['to nobody', instance, ada, '', { code: 'invalid', field: 'to' }],
    ['to the submitter', instance, ada, student, { code: 'forbidden', field: 'to' }],
    ['to someone excluded', instance, ada, 'Faculty/barbara', { code: 'forbidden', field: 'to' }],
    ['to someone already asked in the stage', instance, ada, 'Faculty/alan', { code: 'conflict', field: 'to', reason: 'Faculty/alan is already asked in stage advisor' }],
    ['by a delegate, further on', delegated, grace, 'Faculty/edsger', { code: 'forbidden', reason: 'a delegate cannot delegate further' }],
    ['by a delegate, back to the delegator', delegated, grace, 'Faculty/ada', { code: 'forbidden', reason: 'a delegate cannot delegate further' }],
    ['by someone not asked', instance, { id: 'Faculty/edsger' }, 'Faculty/grace', { code: 'forbidden', reason: 'not asked to decide in stage advisor' }],
  ]
  for (const [label, before, actor, to, refusal] of cases) {
    t.match(handOff(before, actor, to), { ok: false, ...refusal }, label)
  }
  const decided = instanceOf(decide(instance, thesis, { actor: ada, decision: 'approve', directory, now: later(1) }))
  t.match(handOff(decided, ada, 'Faculty/grace'), { ok: false, code: 'conflict', reason: 'already approved in stage advisor of round 1' })
  const closed = instanceOf(decide(instance, thesis, { actor: ada, decision: 'reject', directory, now: later(1) }))
  t.match(handOff(closed, alan, 'Faculty/grace'), { ok: false, code: 'conflict', reason: 'the instance is rejected' })
  t.match(delegate(instance, thesis, { actor: ada, to: 'Faculty/grace', stage: 'nowhere', now: later(1) }), { ok: false, code: 'not_found', field: 'stage' })
  t.match(handOff(instance, ada, 'Faculty/grace', 'z'.repeat(10_001)), { ok: false, code: 'invalid', field: 'comment' })
})

t.test('approvers added by an escalation do not delegate', async (t) => {
  const escalated = instanceOf(escalate(submitted(), thesis, directory, later(14)))
  t.same(handOff(escalated, { id: 'User/root', admin: true }, 'Faculty/grace'), {
    ok: false, code: 'forbidden', reason: 'an approver added by escalation cannot delegate',
  })
})
