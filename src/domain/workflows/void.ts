import { checkRuns } from './definition.js'
import { applied, checkComment, draftOf, refuse, unchanged } from './result.js'
import type { Actor, Outcome, WorkflowDefinition, WorkflowInstance } from './types.js'

export interface VoidInput {
  readonly actor: Actor
  /** Why the approval no longer holds. */
  readonly comment: string
  readonly now: Date
}

/**
 * An approval that no longer holds because what it approved has changed since (a major plan edited
 * after its approval): recorded as `voided` in history, once. The instance stays `approved`, the record
 * of what was approved then; what it approved stops carrying it, and a new review is a new submission.
 */
export function voidApproval<I extends WorkflowInstance>(instance: I, definition: WorkflowDefinition, input: VoidInput): Outcome<I> {
  const invalid = checkRuns(instance, definition) ?? checkComment(input.comment)
  if (invalid) return invalid
  if (instance.status !== 'approved') return refuse('conflict', `the instance is ${instance.status}; only an approval is voided`)
  if (instance.history.some((entry) => entry.action === 'voided')) return unchanged(instance)
  const draft = draftOf(instance)
  draft.history.push({ at: input.now.toISOString(), actor: input.actor.id, action: 'voided', round: draft.round, comment: input.comment })
  return applied(instance, draft)
}
