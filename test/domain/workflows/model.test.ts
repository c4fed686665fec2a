import fc from 'fast-check'
import t from 'tap'
import {
  decide, delegate, entityStatusOf, escalate, isFinal, pendingApprovals, resubmit, stageOutcome, start, withdraw,
  type Actor, type ApproverDirectory, type Decision, type EntityStatus, type Outcome, type WorkflowDefinition, type WorkflowInstance,
} from '../../../src/domain/workflows/index.js'
import { t0 } from './fixtures.js'

/**
 * Random sequences of submit, decide, delegate, resubmit, withdraw and escalate by random people
 * (often someone the instance is waiting for) against a three-stage workflow, checked after every
 * step against a model of the entity's status and against invariants no sequence may break.
 */

const definition: WorkflowDefinition = {
  _id: 'Workflow/model', domain: 'award_nominations', name: 'Model', version: 1,
  stages: [
    { key: 'advisor', name: 'Advisor', approver_role: 'advisor', policy: 'all', due_in_days: 2 },
    { key: 'committee', name: 'Committee', approver_role: 'committee_member', group: 'Group/c', policy: 'quorum', quorum: 2, due_in_days: 3 },
    { key: 'department', name: 'Department', approver_role: 'department_admin', policy: 'any' },
  ],
}
const submitter = 'S'
const nominator = 'N'
// A1 advises and sits on the committee; N, the nominator, sits on it too but may never decide.
const directory: ApproverDirectory = {
  roles: { advisor: ['A1', 'A2'], department_admin: ['D1', 'D2'] },
  groups: { 'Group/c': ['C1', 'C2', 'C3', 'A1', nominator] },
}
const people = ['S', 'A1', 'A2', 'C1', 'C2', 'C3', 'D1', 'D2', 'N', 'X'] as const
const admins = new Set(['D1', 'D2'])
const barred = new Set([submitter, nominator])
const decisionActions = new Set(['approve', 'reject', 'request_revision', 'override_approve', 'override_reject', 'override_request_revision'])

/** What an action may do to the entity's status (docs/workflows.md); a repeat or a refusal leaves it as it is. */
const moves: Record<string, Partial<Record<EntityStatus, readonly EntityStatus[]>>> = {
  submit: { draft: ['submitted'] },
  approve: { submitted: ['submitted', 'approved'] },
  reject: { submitted: ['rejected'] },
  request_revision: { submitted: ['revision_requested'] },
  delegate: { submitted: ['submitted'] },
  escalate: { submitted: ['submitted'] },
  resubmit: { revision_requested: ['submitted'] },
  withdraw: { submitted: ['withdrawn'], revision_requested: ['withdrawn'] },
}

interface Model {
  entity: EntityStatus
  day: number
}

interface Real {
  instance: WorkflowInstance | null
}

/** Someone the instance waits for (`pending`, by position) or anyone at all. */
type Who = { readonly pending: number } | { readonly person: (typeof people)[number] }

const who: fc.Arbitrary<Who> = fc.oneof(
  fc.record({ pending: fc.nat(5) }),
  fc.record({ person: fc.constantFrom(...people) }),
)

function actorOf(instance: WorkflowInstance | null, choice: Who): Actor {
  let id: string
  if ('person' in choice) id = choice.person
  else {
    const waiting = instance ? pendingApprovals(instance) : []
    id = waiting.length ? waiting[choice.pending % waiting.length]!.approver : people[choice.pending % people.length]!
  }
  return { id, ...(admins.has(id) ? { admin: true } : {}) }
}

function whoText(choice: Who): string {
  return 'person' in choice ? choice.person : `pending#${choice.pending}`
}

const seen = { approved: 0, rejected: 0, withdrawn: 0, revision_requested: 0, resubmitted: 0, delegated: 0, escalated: 0, overridden: 0 }

function fail(message: string): never {
  throw new Error(message)
}

/** Checks that hold between any instance and the next, whatever the action. */
function checkStep(before: WorkflowInstance, after: WorkflowInstance): void {
  if (isFinal(before) && JSON.stringify(before) !== JSON.stringify(after)) fail('a final instance changed')
  if (after.history.length < before.history.length || JSON.stringify(after.history.slice(0, before.history.length)) !== JSON.stringify(before.history)) {
    fail('history was rewritten')
  }
  if (after.round < before.round) fail('the round went back')
  before.stages.forEach((stage, i) => {
    const next = after.stages[i]!
    stage.approvals.forEach((approval, j) => {
      const later = next.approvals[j]
      if (!later || later.approver !== approval.approver || later.round !== approval.round) fail(`stage ${stage.key} lost an approval`)
      if (approval.status !== 'pending' && JSON.stringify(later) !== JSON.stringify(approval)) fail(`a decided approval in ${stage.key} changed`)
    })
    if (stage.status === 'approved' && after.round === before.round && JSON.stringify(next.approvals) !== JSON.stringify(stage.approvals)) {
      fail(`approved stage ${stage.key} changed its approvals`)
    }
  })
}

/** Checks that hold of every instance reached. */
function checkInstance(instance: WorkflowInstance): void {
  const current = instance.stages.findIndex((s) => s.key === instance.current_stage)
  if (current < 0) fail('current_stage names no stage')
  instance.stages.forEach((stage, i) => {
    const approvals = stage.approvals.filter((a) => a.round === instance.round)
    const approvers = approvals.map((a) => a.approver)
    if (new Set(approvers).size !== approvers.length) fail(`someone is asked twice in ${stage.key}, round ${instance.round}`)
    if (stage.approvals.some((a) => barred.has(a.approver))) fail(`a barred person is asked in ${stage.key}`)
    const outcome = stageOutcome(definition.stages[i]!, approvals)
    if (stage.status === 'approved' && outcome !== 'approved') fail(`${stage.key} is approved but its approvals say ${outcome}`)
    if (stage.status === 'rejected' && outcome !== 'rejected') fail(`${stage.key} is rejected but its approvals say ${outcome}`)
    if (stage.status === 'active' && outcome !== 'open') fail(`${stage.key} is active but its approvals say ${outcome}`)
    const expected = instance.status === 'in_review' ? (i < current ? 'approved' : i === current ? 'active' : 'waiting') : undefined
    if (expected && stage.status !== expected) fail(`in review, ${stage.key} is ${stage.status}, not ${expected}`)
  })
  if ((instance.status === 'approved') !== instance.stages.every((s) => s.status === 'approved')) fail('approved instance and approved stages disagree')
  // Nobody decides twice on one stage in one round, and the barred never decide.
  const decided = new Set<string>()
  for (const entry of instance.history.filter((h) => decisionActions.has(h.action))) {
    if (barred.has(entry.actor)) fail(`${entry.actor} decided on a submission they may not decide on`)
    const key = `${entry.stage}/${entry.round}/${entry.actor}`
    if (decided.has(key)) fail(`${entry.actor} decided twice in ${entry.stage}, round ${entry.round}`)
    decided.add(key)
  }
  const resubmits = instance.history.filter((h) => h.action === 'resubmit').length
  if (instance.round !== 1 + resubmits) fail('the round does not count the resubmissions')
}

/** Runs an action, then holds the result to the model and the invariants. */
function step(model: Model, real: Real, action: string, act: (instance: WorkflowInstance) => Outcome): void {
  const before = real.instance!
  const frozen = structuredClone(before)
  const outcome = act(before)
  if (JSON.stringify(before) !== JSON.stringify(frozen)) fail(`${action} changed the caller's instance`)
  model.day += 1
  if (!outcome.ok) {
    if (!outcome.reason) fail('a refusal without a reason')
    return
  }
  if (!outcome.applied) {
    if (outcome.instance !== before) fail(`a repeated ${action} did not answer the same instance`)
    return
  }
  const after = outcome.instance
  checkStep(before, after)
  checkInstance(after)
  const next = entityStatusOf(after)
  if (!moves[action]![model.entity]?.includes(next)) fail(`${action} moved the entity from ${model.entity} to ${next}`)
  model.entity = next
  real.instance = after
  if (isFinal(after) || after.status === 'revision_requested') seen[after.status as keyof typeof seen] += 1
}

const now = (model: Model) => new Date(t0.getTime() + model.day * 86_400_000)

class Submit implements fc.Command<Model, Real> {
  check(model: Readonly<Model>): boolean {
    return model.entity === 'draft'
  }

  run(model: Model, real: Real): void {
    const outcome = start({ definition, entity: 'AwardNomination/1', submitter, excluded: [nominator], directory, now: now(model) })
    if (!outcome.ok) fail(`submit refused: ${outcome.reason}`)
    checkInstance(outcome.instance)
    if (entityStatusOf(outcome.instance) !== 'submitted') fail('a submitted entity is not submitted')
    model.entity = 'submitted'
    real.instance = outcome.instance
  }

  toString(): string {
    return 'submit'
  }
}

/** Every command but Submit acts on a submitted entity. */
abstract class OnInstance implements fc.Command<Model, Real> {
  check(model: Readonly<Model>): boolean {
    return model.entity !== 'draft'
  }

  abstract run(model: Model, real: Real): void
  abstract toString(): string
}

class Decide extends OnInstance {
  constructor(readonly by: Who, readonly decision: Decision, readonly override: boolean) {
    super()
  }

  run(model: Model, real: Real): void {
    step(model, real, this.decision, (instance) => {
      const actor = actorOf(instance, this.by)
      const outcome = decide(instance, definition, {
        actor, decision: this.decision, directory, now: now(model),
        ...(this.override ? { override: true, comment: 'written reason' } : {}),
      })
      if (outcome.ok && outcome.applied && outcome.instance.history.at(-1)!.action.startsWith('override')) seen.overridden += 1
      if (outcome.ok && outcome.applied && barred.has(actor.id)) fail(`${actor.id} decided on their own submission`)
      return outcome
    })
  }

  toString(): string {
    return `decide(${whoText(this.by)}, ${this.decision}${this.override ? ', override' : ''})`
  }
}

class Delegate extends OnInstance {
  constructor(readonly by: Who, readonly to: (typeof people)[number]) {
    super()
  }

  run(model: Model, real: Real): void {
    step(model, real, 'delegate', (instance) => {
      const outcome = delegate(instance, definition, { actor: actorOf(instance, this.by), to: this.to, now: now(model) })
      if (outcome.ok && outcome.applied) seen.delegated += 1
      return outcome
    })
  }

  toString(): string {
    return `delegate(${whoText(this.by)} → ${this.to})`
  }
}

class Resubmit extends OnInstance {
  constructor(readonly by: Who) {
    super()
  }

  run(model: Model, real: Real): void {
    step(model, real, 'resubmit', (instance) => {
      const outcome = resubmit(instance, definition, { actor: actorOf(instance, this.by), directory, now: now(model) })
      if (outcome.ok && outcome.applied) seen.resubmitted += 1
      return outcome
    })
  }

  toString(): string {
    return `resubmit(${whoText(this.by)})`
  }
}

class Withdraw extends OnInstance {
  constructor(readonly by: Who) {
    super()
  }

  run(model: Model, real: Real): void {
    step(model, real, 'withdraw', (instance) => withdraw(instance, definition, { actor: actorOf(instance, this.by), now: now(model) }))
  }

  toString(): string {
    return `withdraw(${whoText(this.by)})`
  }
}

/** Time passes (a week) and the maintenance job escalates the stage if it is overdue enough. */
class Escalate extends OnInstance {
  run(model: Model, real: Real): void {
    model.day += 6
    step(model, real, 'escalate', (instance) => {
      const outcome = escalate(instance, definition, directory, now(model))
      if (outcome.ok && outcome.applied) seen.escalated += 1
      return outcome
    })
  }

  toString(): string {
    return 'escalate'
  }
}

const submitterMostly: fc.Arbitrary<Who> = fc.oneof({ weight: 4, arbitrary: fc.constant({ person: submitter } as Who) }, { weight: 1, arbitrary: who })
const pendingMostly: fc.Arbitrary<Who> = fc.oneof({ weight: 3, arbitrary: fc.record({ pending: fc.nat(5) }) as fc.Arbitrary<Who> }, { weight: 1, arbitrary: who })
const decision = fc.constantFrom<Decision>('approve', 'approve', 'approve', 'approve', 'approve', 'approve', 'reject', 'request_revision')

// Weighted so that runs reach every outcome: approval needs five approvals in a row without a veto.
// Submit only runs on a draft, so its weight only shortens the wait for the first one.
const command = fc.oneof(
  { weight: 6, arbitrary: fc.constant(new Submit()) },
  { weight: 12, arbitrary: fc.tuple(pendingMostly, decision, fc.boolean()).map(([by, d, override]) => new Decide(by, d, override)) },
  { weight: 2, arbitrary: fc.tuple(pendingMostly, fc.constantFrom(...people)).map(([by, to]) => new Delegate(by, to)) },
  { weight: 2, arbitrary: submitterMostly.map((by) => new Resubmit(by)) },
  { weight: 1, arbitrary: submitterMostly.map((by) => new Withdraw(by)) },
  { weight: 1, arbitrary: fc.constant(new Escalate()) },
)

t.test('random sequences of actions by random people never reach an impossible state', async (t) => {
  fc.assert(
    fc.property(fc.commands([command], { maxCommands: 40, size: 'medium' }), (cmds) => {
      fc.modelRun(() => ({ model: { entity: 'draft' as EntityStatus, day: 0 }, real: { instance: null } }), cmds)
    }),
    { numRuns: 300 },
  )
  // The sequences must actually reach every outcome, or the invariants above were checked on too little.
  for (const [what, count] of Object.entries(seen)) t.ok(count > 0, `runs reached ${what} (${count} times)`)
})
