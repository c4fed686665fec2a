import t from 'tap'
import { decide, resubmit, start, withdraw, type Actor, type WorkflowInstance } from '../../../src/domain/workflows/index.js'
import { directory, instanceOf, later, standing, student, t0, thesis } from './fixtures.js'

const ada: Actor = { id: 'Faculty/ada' }
const alan: Actor = { id: 'Faculty/alan' }
const submitter: Actor = { id: student }

function returned(): WorkflowInstance {
  let instance = instanceOf(start({ definition: thesis, entity: 'ThesisRequest/1', submitter: student, directory, now: t0 }))
  instance = instanceOf(decide(instance, thesis, { actor: ada, decision: 'approve', directory, now: later(1) }))
  return instanceOf(decide(instance, thesis, { actor: alan, decision: 'request_revision', comment: 'shorter abstract', directory, now: later(2) }))
}

t.test('resubmitting starts the next round from the first stage; earlier approvals stay, marked with their round', async (t) => {
  const before = returned()
  const round2 = instanceOf(resubmit(before, thesis, { actor: submitter, directory, now: later(5), comment: 'shortened' }))
  t.match(round2, { status: 'in_review', round: 2, current_stage: 'advisor' })
  t.same(round2.stages.map((s) => s.status), ['active', 'waiting'])
  t.same(standing(round2, 'advisor', 1), ['Faculty/ada:approved', 'Faculty/alan:revision_requested'], 'round 1 kept as it was')
  t.same(standing(round2, 'advisor', 2), ['Faculty/ada:pending', 'Faculty/alan:pending'], 'everyone is asked again')
  t.equal(round2.stages[0]!.activated_at, later(5).toISOString())
  t.equal(round2.stages[0]!.due_at, later(12).toISOString())
  t.match(round2.history.at(-1), { actor: student, action: 'resubmit', round: 2, comment: 'shortened' })
  t.same(round2.history.map((h) => `${h.action}@${h.round}`), ['submit@1', 'approve@1', 'request_revision@1', 'resubmit@2'])
  const ada2 = instanceOf(decide(round2, thesis, { actor: ada, decision: 'reject', directory, now: later(6) }))
  t.equal(ada2.status, 'rejected', 'an approver decides afresh in the new round')
})

t.test('resubmitting is the submitter\'s, and only after a revision request', async (t) => {
  const before = returned()
  t.same(resubmit(before, thesis, { actor: ada, directory, now: later(5) }), { ok: false, code: 'forbidden', reason: 'only the submitter resubmits' })
  const round2 = instanceOf(resubmit(before, thesis, { actor: submitter, directory, now: later(5) }))
  t.same(resubmit(round2, thesis, { actor: submitter, directory, now: later(5) }), { ok: true, instance: round2, applied: false }, 'a repeated resubmission')
  const moved = instanceOf(decide(round2, thesis, { actor: ada, decision: 'approve', directory, now: later(6) }))
  t.same(resubmit(moved, thesis, { actor: submitter, directory, now: later(7) }), {
    ok: false, code: 'conflict', reason: 'the instance is in_review; only an instance returned for revision is resubmitted',
  })
  t.match(resubmit(before, thesis, { actor: submitter, directory: { roles: { advisor: ['Faculty/ada'] } }, now: later(5) }), {
    ok: false, code: 'conflict', reason: /stage department has nobody to decide/,
  }, 'every stage must still find its approvers')
})

t.test('withdrawing: the submitter, until the instance is final', async (t) => {
  const inReview = instanceOf(start({ definition: thesis, entity: 'ThesisRequest/1', submitter: student, directory, now: t0 }))
  t.same(withdraw(inReview, thesis, { actor: ada, now: later(1) }), { ok: false, code: 'forbidden', reason: 'only the submitter withdraws' })
  const withdrawn = instanceOf(withdraw(inReview, thesis, { actor: submitter, now: later(1), comment: 'changed topic' }))
  t.equal(withdrawn.status, 'withdrawn')
  t.same(withdrawn.stages.map((s) => s.status), ['skipped', 'skipped'])
  t.match(withdrawn.history.at(-1), { actor: student, action: 'withdraw', round: 1, comment: 'changed topic' })
  t.same(withdraw(withdrawn, thesis, { actor: submitter, now: later(2) }), { ok: true, instance: withdrawn, applied: false }, 'a repeated withdrawal')
  t.match(decide(withdrawn, thesis, { actor: ada, decision: 'approve', directory, now: later(2) }), { ok: false, code: 'conflict', reason: 'the instance is withdrawn' })
  t.match(resubmit(withdrawn, thesis, { actor: submitter, directory, now: later(2) }), { ok: false, code: 'conflict' })

  t.equal(instanceOf(withdraw(returned(), thesis, { actor: submitter, now: later(3) })).status, 'withdrawn', 'also while returned for revision')
  const rejected = instanceOf(decide(inReview, thesis, { actor: ada, decision: 'reject', directory, now: later(1) }))
  t.same(withdraw(rejected, thesis, { actor: submitter, now: later(2) }), { ok: false, code: 'conflict', reason: 'the instance is rejected' })
})
