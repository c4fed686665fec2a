import t from 'tap'
import { decide, start, voidApproval, type Actor } from '../../../src/domain/workflows/index.js'
import { directory, instanceOf, later, student, t0, thesis } from './fixtures.js'

const ada: Actor = { id: 'Faculty/ada' }
const alan: Actor = { id: 'Faculty/alan' }
const root: Actor = { id: 'User/root', admin: true }

const submitted = () => instanceOf(start({ definition: thesis, entity: 'MajorPlanApproval/1', submitter: student, directory, now: t0 }))

t.test('an approval is voided once, in history, and stays approved', async (t) => {
  const approved = [ada, alan, root].reduce((current, actor, i) =>
    instanceOf(decide(current, thesis, { actor, decision: 'approve', directory, now: later(i + 1) })), submitted())
  t.equal(approved.status, 'approved')
  const input = { actor: { id: student }, comment: 'StudentPlan/p changed after this approval', now: later(5) }
  const voided = instanceOf(voidApproval(approved, thesis, input))
  t.equal(voided.status, 'approved', 'the record of what was approved then')
  t.same(voided.history.at(-1), { at: later(5).toISOString(), actor: student, action: 'voided', round: 1, comment: input.comment })
  t.same(voidApproval(voided, thesis, { ...input, now: later(6) }), { ok: true, instance: voided, applied: false }, 'a second void changes nothing')
  t.equal(approved.history.length, voided.history.length - 1, "the caller's instance is unchanged")
})

t.test('only an approval is voided', async (t) => {
  t.match(voidApproval(submitted(), thesis, { actor: { id: student }, comment: 'changed', now: later(1) }), {
    ok: false, code: 'conflict', reason: 'the instance is in_review; only an approval is voided',
  })
})
