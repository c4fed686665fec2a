import { checkRuns } from './definition.js'
import { applied, checkComment, draftOf, refuse, unchanged } from './result.js'
import { isFinal } from './status.js'
import type { Actor, Outcome, WorkflowDefinition, WorkflowInstance } from './types.js'

export interface WithdrawInput {
  readonly actor: Actor
  readonly comment?: string
  readonly now: Date
}

/** The submitter recalls the entity while the instance is not final; stages not reached are skipped. */
export function withdraw<I extends WorkflowInstance>(instance: I, definition: WorkflowDefinition, input: WithdrawInput): Outcome<I> {
  const invalid = checkRuns(instance, definition) ?? checkComment(input.comment)
  if (invalid) return invalid
  if (input.actor.id !== instance.submitter) return refuse('forbidden', 'only the submitter withdraws')
  if (instance.status === 'withdrawn') return unchanged(instance)
  if (isFinal(instance)) return refuse('conflict', `the instance is ${instance.status}`)
  const draft = draftOf(instance)
  draft.status = 'withdrawn'
  for (const stage of draft.stages) if (stage.status === 'active' || stage.status === 'waiting') stage.status = 'skipped'
  draft.history.push({
    at: input.now.toISOString(), actor: input.actor.id, action: 'withdraw', round: draft.round,
    ...(input.comment !== undefined ? { comment: input.comment } : {}),
  })
  return applied(instance, draft)
}
