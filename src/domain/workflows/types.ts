/**
 * The shapes the workflow engine works on: the fields of the classes in schema/workflows.json, without
 * the system fields (`_id`, `_version`, ...), which the engine carries through untouched.
 */

export const approvalRoles = ['advisor', 'committee_member', 'department_admin'] as const
export type ApprovalRole = (typeof approvalRoles)[number]

export const approvalPolicies = ['all', 'any', 'quorum'] as const
export type ApprovalPolicy = (typeof approvalPolicies)[number]

export const stageStatuses = ['waiting', 'active', 'approved', 'rejected', 'skipped'] as const
export type StageStatus = (typeof stageStatuses)[number]

export const approvalStatuses = ['pending', 'approved', 'rejected', 'revision_requested', 'delegated'] as const
export type ApprovalStatus = (typeof approvalStatuses)[number]

export const approvalSources = ['role', 'delegation', 'escalation', 'override'] as const
export type ApprovalSource = (typeof approvalSources)[number]

export const entityStatuses = ['draft', 'submitted', 'revision_requested', 'approved', 'rejected', 'withdrawn'] as const
export type EntityStatus = (typeof entityStatuses)[number]

export const instanceStatuses = ['in_review', 'approved', 'rejected', 'revision_requested', 'withdrawn'] as const
export type InstanceStatus = (typeof instanceStatuses)[number]

export const milestoneStatuses = ['not_started', 'in_progress', 'submitted', 'approved'] as const
export type MilestoneStatus = (typeof milestoneStatuses)[number]

export const workflowActions = [
  'submit', 'resubmit', 'approve', 'reject', 'request_revision', 'delegate', 'withdraw',
  'override_approve', 'override_reject', 'override_request_revision', 'due_soon', 'overdue', 'escalate', 'voided',
] as const
export type WorkflowAction = (typeof workflowActions)[number]

export const decisions = ['approve', 'reject', 'request_revision'] as const
export type Decision = (typeof decisions)[number]

export interface WorkflowStage {
  readonly key: string
  readonly name: string
  readonly approver_role: ApprovalRole
  readonly group?: string
  readonly policy: ApprovalPolicy
  readonly quorum?: number
  readonly due_in_days?: number
}

export interface WorkflowDefinition {
  /** The definition's record id, which instances name in `workflow`. */
  readonly _id: string
  readonly domain: string
  readonly name: string
  readonly version: number
  readonly stages: readonly WorkflowStage[]
}

export interface StageApproval {
  readonly approver: string
  readonly status: ApprovalStatus
  readonly source: ApprovalSource
  readonly round: number
  readonly on_behalf_of?: string
  readonly decided_at?: string
  readonly comment?: string
  readonly overdue?: boolean
}

export interface StageInstance {
  readonly key: string
  readonly status: StageStatus
  readonly approvals: readonly StageApproval[]
  readonly activated_at?: string
  readonly due_at?: string
  readonly escalated_at?: string
}

export interface HistoryEntry {
  readonly at: string
  readonly actor: string
  readonly on_behalf_of?: string
  readonly action: WorkflowAction
  readonly stage?: string
  readonly round: number
  readonly comment?: string
  readonly delegate_to?: string
}

export interface WorkflowInstance {
  readonly workflow: string
  readonly workflow_version: number
  readonly domain: string
  readonly entity: string
  readonly submitter: string
  /** People who may not decide besides the submitter: whom the entity is about, a nomination's nominator. */
  readonly excluded: readonly string[]
  readonly status: InstanceStatus
  readonly round: number
  /** Key of the stage under way, or where the instance stopped. */
  readonly current_stage: string
  readonly stages: readonly StageInstance[]
  readonly history: readonly HistoryEntry[]
}

/**
 * Who holds each approver role for one entity, resolved by the caller before calling the engine: the
 * entity's advisors, the student's committee, the department admins, and the members of the groups
 * that committee stages name.
 */
export interface ApproverDirectory {
  readonly roles: Readonly<Partial<Record<ApprovalRole, readonly string[]>>>
  readonly groups?: Readonly<Record<string, readonly string[]>>
}

/** Who is acting: a person's or user's id, and whether they hold the admin role. */
export interface Actor {
  readonly id: string
  readonly admin?: boolean
}

export type RefusalCode = 'forbidden' | 'conflict' | 'invalid' | 'not_found'

export interface Refusal {
  readonly ok: false
  readonly code: RefusalCode
  readonly reason: string
  /** The input field at fault, for `invalid`. */
  readonly field?: string
}

/** An action's result: the next instance (the same one when the action was a repeat), or why not. */
export type Outcome<I extends WorkflowInstance = WorkflowInstance> =
  | { readonly ok: true; readonly instance: I; readonly applied: boolean }
  | Refusal
