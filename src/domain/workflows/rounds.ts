import { approversOf, barred, checkDefinition, checkResolvable, checkRuns } from './definition.js'
import { applied, checkComment, draftOf, refuse, started, unchanged, type Draft } from './result.js'
import type { Actor, ApproverDirectory, Outcome, Refusal, WorkflowDefinition, WorkflowInstance } from './types.js'

const dayMs = 86_400_000

/** When a stage activated at `activatedAt` is due: `days` whole days later. */
export function dueAt(activatedAt: string, days: number): string {
  return new Date(Date.parse(activatedAt) + days * dayMs).toISOString()
}

/** Every stage must find enough approvers now, so no instance is left waiting on nobody. */
function checkAllStages(definition: WorkflowDefinition, directory: ApproverDirectory, barredPeople: ReadonlySet<string>): Refusal | undefined {
  for (const stage of definition.stages) {
    const refusal = checkResolvable(stage, approversOf(stage, directory, barredPeople))
    if (refusal) return refusal
  }
  return undefined
}

/**
 * Makes stage `index` the active one of the current round, asking the people who hold its role now.
 * Refused when they are too few: the action that would activate it is then not applied.
 */
export function activate(draft: Draft<WorkflowInstance>, definition: WorkflowDefinition, index: number, directory: ApproverDirectory, now: Date): Refusal | undefined {
  const def = definition.stages[index]!
  const approvers = approversOf(def, directory, barred(draft))
  const refusal = checkResolvable(def, approvers)
  if (refusal) return refusal
  const stage = draft.stages[index]!
  const at = now.toISOString()
  stage.status = 'active'
  stage.activated_at = at
  if (def.due_in_days !== undefined) stage.due_at = dueAt(at, def.due_in_days)
  else delete stage.due_at
  delete stage.escalated_at
  for (const approver of approvers) stage.approvals.push({ approver, status: 'pending', source: 'role', round: draft.round })
  draft.current_stage = def.key
  return undefined
}

export interface StartInput {
  readonly definition: WorkflowDefinition
  /** Id of the entity submitted. */
  readonly entity: string
  readonly submitter: string
  /** People who may not decide besides the submitter: whom the entity is about, a nomination's nominator. */
  readonly excluded?: readonly string[]
  readonly directory: ApproverDirectory
  readonly now: Date
  readonly comment?: string
}

/** Submitting an entity: round 1, the first stage active. */
export function start(input: StartInput): Outcome {
  const { definition, directory, now } = input
  const invalid = checkDefinition(definition) ?? checkComment(input.comment)
  if (invalid) return invalid
  const excluded = [...new Set(input.excluded ?? [])].filter((person) => person !== input.submitter)
  const unresolvable = checkAllStages(definition, directory, barred({ submitter: input.submitter, excluded }))
  if (unresolvable) return unresolvable
  const draft: Draft<WorkflowInstance> = {
    workflow: definition._id,
    workflow_version: definition.version,
    domain: definition.domain,
    entity: input.entity,
    submitter: input.submitter,
    excluded,
    status: 'in_review',
    round: 1,
    current_stage: definition.stages[0]!.key,
    stages: definition.stages.map((stage) => ({ key: stage.key, status: 'waiting', approvals: [] })),
    history: [{ at: now.toISOString(), actor: input.submitter, action: 'submit', round: 1, ...(input.comment !== undefined ? { comment: input.comment } : {}) }],
  }
  const refusal = activate(draft, definition, 0, directory, now)
  return refusal ?? started(draft)
}

export interface ResubmitInput {
  readonly actor: Actor
  readonly directory: ApproverDirectory
  readonly now: Date
  readonly comment?: string
}

/**
 * The submitter sends the revised entity back: round n+1 from the first stage. Approvals of earlier
 * rounds stay in their stages, marked with their round.
 */
export function resubmit<I extends WorkflowInstance>(instance: I, definition: WorkflowDefinition, input: ResubmitInput): Outcome<I> {
  const invalid = checkRuns(instance, definition) ?? checkComment(input.comment)
  if (invalid) return invalid
  if (input.actor.id !== instance.submitter) return refuse('forbidden', 'only the submitter resubmits')
  if (instance.status !== 'revision_requested') {
    const last = instance.history.at(-1)
    const replay = instance.status === 'in_review' && last?.action === 'resubmit' && last.actor === input.actor.id && last.round === instance.round
    return replay ? unchanged(instance) : refuse('conflict', `the instance is ${instance.status}; only an instance returned for revision is resubmitted`)
  }
  const unresolvable = checkAllStages(definition, input.directory, barred(instance))
  if (unresolvable) return unresolvable
  const draft = draftOf(instance)
  draft.round += 1
  draft.status = 'in_review'
  for (const stage of draft.stages) {
    stage.status = 'waiting'
    delete stage.activated_at
    delete stage.due_at
    delete stage.escalated_at
  }
  draft.history.push({
    at: input.now.toISOString(), actor: input.actor.id, action: 'resubmit', round: draft.round,
    ...(input.comment !== undefined ? { comment: input.comment } : {}),
  })
  const refusal = activate(draft, definition, 0, input.directory, input.now)
  return refusal ?? applied(instance, draft)
}
