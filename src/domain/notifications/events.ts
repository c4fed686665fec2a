/**
 * What a workflow instance's history means to the people around it (docs/notifications.md): entry N of an
 * instance stands for one or more events, each with the people who hear of it. Pure: the caller reads
 * the instance and the entity and passes who the student and the department admins are.
 */
import { approvalsOfRound } from '../workflows/status.js'
import type { HistoryEntry, WorkflowInstance } from '../workflows/types.js'

export const workflowEventTypes = [
  'workflow.submitted', 'workflow.stage_activated', 'workflow.decided', 'workflow.revision_requested', 'workflow.approved',
  'workflow.rejected', 'workflow.withdrawn', 'workflow.delegated', 'workflow.due_soon', 'workflow.overdue',
] as const
export const outcomeEventTypes = ['job.failed', 'sync.refused', 'sync.completed', 'publications.imported', 'record.restored', 'sync.reverted',
  'backup.completed', 'backup.failed'] as const
export const eventTypes = [...workflowEventTypes, ...outcomeEventTypes] as const
export type WorkflowEventType = (typeof workflowEventTypes)[number]
export type EventType = (typeof eventTypes)[number]

export function isEventType(value: string): value is EventType {
  return (eventTypes as readonly string[]).includes(value)
}

/** Who, besides the instance, an event's recipients are resolved from. */
export interface EventPeople {
  /** The student the entity is about (thesis, research, plan, milestone; a fellowship's applicant); none for a nomination. */
  readonly student?: string
  /** The department admins, by workflow id. */
  readonly admins: readonly string[]
}

export interface WorkflowEvent {
  readonly type: WorkflowEventType
  /** The stage the event concerns, where it concerns one. */
  readonly stage?: string
  /** Everyone who hears of it, the one who acted left out. */
  readonly recipients: readonly string[]
}

const approving = new Set<HistoryEntry['action']>(['approve', 'override_approve'])

/** The event id of one type of history entry `index`: `<instance>#<N>/<type>`, N counted from 1. */
export function workflowEventId(instanceId: string, index: number, type: EventType): string {
  return `${instanceId}#${index + 1}/${type}`
}

/** Whether a later entry approved in the same stage and round: then entry `index` did not complete it. */
function laterApproval(instance: WorkflowInstance, index: number, entry: HistoryEntry): boolean {
  return instance.history.slice(index + 1).some((e) => approving.has(e.action) && e.stage === entry.stage && e.round === entry.round)
}

/** The stage an entry started in its round: the first stage asked in that round (submit), or the one after the stage it completed. */
function activatedBy(instance: WorkflowInstance, index: number, entry: HistoryEntry): number | undefined {
  const asked = (at: number) => at < instance.stages.length && approvalsOfRound(instance.stages[at]!, entry.round).length > 0
  if (entry.action === 'submit' || entry.action === 'resubmit') {
    const first = instance.stages.findIndex((_, at) => asked(at))
    return first < 0 ? undefined : first
  }
  if (!approving.has(entry.action) || laterApproval(instance, index, entry)) return undefined
  const completed = instance.stages.findIndex((s) => s.key === entry.stage)
  return completed >= 0 && asked(completed + 1) ? completed + 1 : undefined
}

/** Whether entry `index` was the approval that made the instance approved. */
function approvedBy(instance: WorkflowInstance, index: number, entry: HistoryEntry): boolean {
  return approving.has(entry.action) && instance.status === 'approved' && entry.round === instance.round &&
    instance.stages.at(-1)?.key === entry.stage && !laterApproval(instance, index, entry)
}

/** The people a stage asked when it activated in a round (delegates and escalated admins come later, by their own events). */
function stageApprovers(instance: WorkflowInstance, stageIndex: number, round: number): string[] {
  return approvalsOfRound(instance.stages[stageIndex]!, round).filter((a) => a.source === 'role').map((a) => a.approver)
}

/** The pending approvers of a stage in a round. */
function pendingIn(instance: WorkflowInstance, stageKey: string | undefined, round: number): string[] {
  const stage = instance.stages.find((s) => s.key === stageKey)
  return stage ? approvalsOfRound(stage, round).filter((a) => a.status === 'pending').map((a) => a.approver) : []
}

/** The events history entry `index` of the instance stands for, each with its recipients; none for an entry out of range. */
export function eventsOfEntry(instance: WorkflowInstance, index: number, people: EventPeople): WorkflowEvent[] {
  const entry = instance.history[index]
  if (!entry) return []
  const actor = entry.actor
  const owners = [instance.submitter, ...(people.student ? [people.student] : [])]
  const events: { type: WorkflowEventType; stage?: string; to: readonly string[] }[] = []
  const stage = entry.stage !== undefined ? { stage: entry.stage } : {}
  switch (entry.action) {
    case 'submit': case 'resubmit':
      // Webhooks always hear of a submission; a person only when someone else submitted for them.
      events.push({ type: 'workflow.submitted', to: people.student && people.student !== instance.submitter ? [people.student] : [] })
      break
    case 'approve': case 'override_approve':
      events.push(approvedBy(instance, index, entry) ? { type: 'workflow.approved', ...stage, to: owners } : { type: 'workflow.decided', ...stage, to: owners })
      break
    case 'reject': case 'override_reject':
      events.push({ type: 'workflow.rejected', ...stage, to: owners })
      break
    case 'request_revision': case 'override_request_revision':
      events.push({ type: 'workflow.revision_requested', ...stage, to: owners })
      break
    case 'withdraw':
      events.push({ type: 'workflow.withdrawn', to: owners })
      break
    case 'delegate':
      events.push({ type: 'workflow.delegated', ...stage, to: entry.delegate_to !== undefined ? [entry.delegate_to] : [] })
      break
    case 'due_soon':
      events.push({ type: 'workflow.due_soon', ...stage, to: pendingIn(instance, entry.stage, entry.round) })
      break
    case 'overdue':
      events.push({ type: 'workflow.overdue', ...stage, to: [...pendingIn(instance, entry.stage, entry.round), ...people.admins] })
      break
    case 'escalate': case 'voided':
      break
  }
  const activated = activatedBy(instance, index, entry)
  if (activated !== undefined) {
    events.push({ type: 'workflow.stage_activated', stage: instance.stages[activated]!.key, to: stageApprovers(instance, activated, entry.round) })
  }
  return events.map(({ type, stage: key, to }) => ({
    type, ...(key !== undefined ? { stage: key } : {}),
    recipients: [...new Set(to)].filter((id) => id !== actor),
  }))
}
