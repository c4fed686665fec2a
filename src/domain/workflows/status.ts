import { approvalsNeeded } from './definition.js'
import type {
  EntityStatus, InstanceStatus, MilestoneStatus, StageApproval, StageInstance, WorkflowInstance, WorkflowStage,
} from './types.js'

export type StageOutcome = 'open' | 'approved' | 'rejected' | 'revision_requested'

const finalStatuses: ReadonlySet<InstanceStatus> = new Set(['approved', 'rejected', 'withdrawn'])

export function isFinal(instance: Pick<WorkflowInstance, 'status'>): boolean {
  return finalStatuses.has(instance.status)
}

export function approvalsOfRound(stage: StageInstance, round: number): StageApproval[] {
  return stage.approvals.filter((a) => a.round === round)
}

/**
 * A stage's outcome in a round, from its approvals alone. Any rejection rejects (the veto) and any
 * revision request returns the entity; an admin's override or an escalated admin decides for the
 * stage; otherwise the policy counts the approvals of the people the role asked (or their delegates),
 * and a stage that can no longer reach its count is rejected.
 */
export function stageOutcome(stage: WorkflowStage, approvals: readonly StageApproval[]): StageOutcome {
  const standing = approvals.filter((a) => a.status !== 'delegated')
  if (standing.some((a) => a.status === 'rejected')) return 'rejected'
  if (standing.some((a) => a.status === 'revision_requested')) return 'revision_requested'
  if (standing.some((a) => a.status === 'approved' && (a.source === 'override' || a.source === 'escalation'))) return 'approved'
  const asked = standing.filter((a) => a.source === 'role' || a.source === 'delegation')
  const needed = approvalsNeeded(stage, asked.length)
  const approvedBy = new Set(asked.filter((a) => a.status === 'approved').map((a) => a.approver))
  const pendingBy = new Set(asked.filter((a) => a.status === 'pending').map((a) => a.approver))
  if (approvedBy.size >= needed) return 'approved'
  return approvedBy.size + pendingBy.size < needed ? 'rejected' : 'open'
}

/** The entity's status while the instance exists; `draft` before it is submitted. */
export function entityStatusOf(instance: Pick<WorkflowInstance, 'status'> | null): EntityStatus {
  if (!instance) return 'draft'
  return instance.status === 'in_review' ? 'submitted' : instance.status
}

/**
 * A graduate milestone's MilestoneStatus: not_started until first edited, in_progress while edited or
 * returned (rejected, revision requested, withdrawn), submitted in review, approved at the end.
 */
export function milestoneStatusOf(instance: Pick<WorkflowInstance, 'status'> | null, edited: boolean): MilestoneStatus {
  if (!instance) return edited ? 'in_progress' : 'not_started'
  switch (instance.status) {
    case 'in_review': return 'submitted'
    case 'approved': return 'approved'
    default: return 'in_progress'
  }
}

export function activeStage(instance: WorkflowInstance): StageInstance | undefined {
  return instance.status === 'in_review' ? instance.stages.find((s) => s.key === instance.current_stage && s.status === 'active') : undefined
}

/** The approvals waiting for a decision now: pending in the active stage of an instance in review. */
export function pendingApprovals(instance: WorkflowInstance): StageApproval[] {
  const stage = activeStage(instance)
  return stage ? approvalsOfRound(stage, instance.round).filter((a) => a.status === 'pending') : []
}
