import { barred, checkRuns } from './definition.js'
import { applied, checkComment, draftOf, refuse, unchanged } from './result.js'
import { approvalsOfRound } from './status.js'
import type { Actor, Outcome, WorkflowDefinition, WorkflowInstance } from './types.js'

export interface DelegateInput {
  readonly actor: Actor
  /** Id of the person the decision is handed to. */
  readonly to: string
  readonly comment?: string
  /** Key of the stage, as the caller last saw the instance; the active stage when absent. */
  readonly stage?: string
  readonly now: Date
}

/**
 * An approver asked by the stage's role hands their decision to someone else, one level only: the
 * approval becomes `delegated`, and the delegate gets a pending approval on behalf of the approver.
 * Never to oneself, to the submitter or someone excluded (whom the entity is about, a nominator), or to someone already asked in the stage
 * (which rules out handing it back to a delegator); a delegate cannot delegate again.
 */
export function delegate<I extends WorkflowInstance>(instance: I, definition: WorkflowDefinition, input: DelegateInput): Outcome<I> {
  const invalid = checkRuns(instance, definition) ?? checkComment(input.comment)
  if (invalid) return invalid
  const { actor, to } = input
  if (!to) return refuse('invalid', 'name the person to delegate to', 'to')
  if (to === actor.id) return refuse('invalid', 'no one delegates to themselves', 'to')
  if (barred(instance).has(actor.id)) return refuse('forbidden', 'conflict of interest: someone barred from deciding on this entity does not hand the decision on either')
  const key = input.stage ?? instance.current_stage
  const stage = instance.stages.find((s) => s.key === key)
  if (!stage) return refuse('not_found', `the workflow has no stage ${key}`, 'stage')
  const approvals = approvalsOfRound(stage, instance.round)
  const mine = approvals.find((a) => a.approver === actor.id)
  if (mine?.status === 'delegated') {
    const current = approvals.find((a) => a.on_behalf_of === actor.id)?.approver
    return current === to ? unchanged(instance) : refuse('conflict', `the approval is already delegated to ${current}`)
  }
  if (instance.status !== 'in_review') return refuse('conflict', `the instance is ${instance.status}`)
  if (!mine) return refuse('forbidden', `not asked to decide in stage ${stage.key}`)
  if (mine.source === 'delegation') return refuse('forbidden', 'a delegate cannot delegate further')
  if (mine.source !== 'role') return refuse('forbidden', `an approver added by ${mine.source} cannot delegate`)
  if (mine.status !== 'pending') return refuse('conflict', `already ${mine.status.replace('_', ' ')} in stage ${stage.key} of round ${instance.round}`)
  if (stage.status !== 'active') return refuse('conflict', `stage ${stage.key} is ${stage.status}`)
  if (barred(instance).has(to)) {
    return refuse('forbidden', 'conflict of interest: no one delegates to the submitter, to whom the entity is about or to a nomination\'s nominator', 'to')
  }
  if (approvals.some((a) => a.approver === to)) return refuse('conflict', `${to} is already asked in stage ${stage.key}`, 'to')

  const draft = draftOf(instance)
  const target = draft.stages[instance.stages.indexOf(stage)]!
  const at = input.now.toISOString()
  const comment = input.comment !== undefined ? { comment: input.comment } : {}
  const approval = target.approvals.find((a) => a.round === draft.round && a.approver === actor.id)!
  Object.assign(approval, { status: 'delegated', decided_at: at, ...comment })
  delete approval.overdue
  target.approvals.push({ approver: to, status: 'pending', source: 'delegation', round: draft.round, on_behalf_of: actor.id })
  draft.history.push({ at, actor: actor.id, action: 'delegate', stage: stage.key, round: draft.round, delegate_to: to, ...comment })
  return applied(instance, draft)
}
