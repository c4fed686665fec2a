import { approversOf, barred, checkRuns } from './definition.js'
import { applied, draftOf, refuse, unchanged } from './result.js'
import { activeStage, approvalsOfRound } from './status.js'
import type { ApproverDirectory, Outcome, WorkflowDefinition, WorkflowInstance } from './types.js'

/** Who the maintenance job acts as in history. */
export const systemActor = 'system'

/** Marks the active stage's pending approvals overdue once its due_at has passed; a repeat changes nothing. */
export function markOverdue<I extends WorkflowInstance>(instance: I, now: Date): Outcome<I> {
  const stage = activeStage(instance)
  if (!stage?.due_at || now.getTime() < Date.parse(stage.due_at)) return unchanged(instance)
  const draft = draftOf(instance)
  const target = draft.stages[instance.stages.indexOf(stage)]!
  const late = target.approvals.filter((a) => a.round === draft.round && a.status === 'pending' && !a.overdue)
  if (!late.length) return unchanged(instance)
  for (const approval of late) approval.overdue = true
  draft.history.push({
    at: now.toISOString(), actor: systemActor, action: 'overdue', stage: stage.key, round: draft.round,
    comment: `overdue since ${stage.due_at}: ${late.map((a) => a.approver).join(', ')}`,
  })
  return applied(instance, draft)
}

/**
 * Once per stage and round, within `windowMs` of its due_at, records that the active stage is due soon
 * (its pending approvers hear of it); a repeat, or a stage already overdue, changes nothing.
 */
export function markDueSoon<I extends WorkflowInstance>(instance: I, now: Date, windowMs: number): Outcome<I> {
  const stage = activeStage(instance)
  if (!stage?.due_at) return unchanged(instance)
  const due = Date.parse(stage.due_at)
  if (now.getTime() >= due || now.getTime() < due - windowMs) return unchanged(instance)
  const told = instance.history.some((e) => e.action === 'due_soon' && e.stage === stage.key && e.round === instance.round && (stage.activated_at === undefined || e.at >= stage.activated_at))
  if (told || !approvalsOfRound(stage, instance.round).some((a) => a.status === 'pending')) return unchanged(instance)
  const draft = draftOf(instance)
  draft.history.push({ at: now.toISOString(), actor: systemActor, action: 'due_soon', stage: stage.key, round: draft.round, comment: `due at ${stage.due_at}` })
  return applied(instance, draft)
}

/** When an active stage escalates: twice its due time after it activated. */
export function escalatesAt(stage: { readonly activated_at?: string }, dueInDays: number): string | undefined {
  return stage.activated_at === undefined ? undefined : new Date(Date.parse(stage.activated_at) + 2 * dueInDays * 86_400_000).toISOString()
}

/**
 * Past twice its due time, the active stage gains the department admins as approvers: any one of them
 * may then decide for the stage. Done once per activation.
 */
export function escalate<I extends WorkflowInstance>(instance: I, definition: WorkflowDefinition, directory: ApproverDirectory, now: Date): Outcome<I> {
  const invalid = checkRuns(instance, definition)
  if (invalid) return invalid
  const stage = activeStage(instance)
  if (!stage) return refuse('conflict', `the instance is ${instance.status} with no active stage`)
  if (stage.escalated_at !== undefined) return unchanged(instance)
  const def = definition.stages[instance.stages.indexOf(stage)]!
  const at = def.due_in_days === undefined ? undefined : escalatesAt(stage, def.due_in_days)
  if (at === undefined) return refuse('conflict', `stage ${stage.key} has no due time`)
  if (now.getTime() < Date.parse(at)) return refuse('conflict', `stage ${stage.key} escalates at ${at}`)
  const asked = new Set(approvalsOfRound(stage, instance.round).map((a) => a.approver))
  const admins = approversOf({ ...def, approver_role: 'department_admin', group: undefined }, directory, barred(instance))
    .filter((person) => !asked.has(person))
  if (!admins.length) return refuse('conflict', `stage ${stage.key} is overdue but no department admin who may decide is left to add`)
  const draft = draftOf(instance)
  const target = draft.stages[instance.stages.indexOf(stage)]!
  target.escalated_at = now.toISOString()
  for (const approver of admins) target.approvals.push({ approver, status: 'pending', source: 'escalation', round: draft.round })
  draft.history.push({
    at: now.toISOString(), actor: systemActor, action: 'escalate', stage: stage.key, round: draft.round,
    comment: `department admins added: ${admins.join(', ')}`,
  })
  return applied(instance, draft)
}
