import type { Decision, StageInstance, WorkflowDefinition, WorkflowInstance, WorkflowStage } from '../domain/workflows/index.js'
import type { ApiRecord } from '../records/service.js'
import type { EntityStatus } from '../schema/generated/records.js'
import type { WorkflowDomainKey } from './registry.js'

/**
 * A workflow entity as stored and answered: any entity class's record (each has a status), read by
 * field name where the registry names the field (`ownerField`, conflict fields).
 */
export interface EntityView extends ApiRecord {
  readonly status: EntityStatus
}

/** A stored instance: the engine's fields, the system fields, and the fields kept for queries. */
export interface StoredInstance extends WorkflowInstance {
  readonly _id: string
  readonly type: 'WorkflowInstance'
  readonly _version: number
  readonly _created_at: string
  readonly _updated_at: string
  /** When the entity was first submitted: the pending queue's order. */
  readonly submitted_at: string
  /** Ids with a pending approval in the active stage, kept on every write for the pending queue's index. */
  readonly pending_approvers: readonly string[]
  /** Everyone who submitted, was asked or acted, in any round: who may see the instance. */
  readonly participants: readonly string[]
  /** The outbox (persistence.ts): history entries from this index on are not yet relayed as events. */
  readonly events_relayed?: number
  readonly events_pending?: boolean
}

/** What an entity's answer says of its instance. */
export interface InstanceSummary {
  readonly _id: string
  readonly status: WorkflowInstance['status']
  readonly round: number
  readonly current_stage: string
  readonly workflow: string
  readonly workflow_version: number
  readonly submitter: string
}

export interface Page<T> {
  readonly items: readonly T[]
  readonly total: number
  readonly limit: number
  readonly offset: number
}

export interface ListQuery {
  readonly status?: string
  /** Filters of the domain's registry row (`student`, `applicant`, ...) to the value asked. */
  readonly filters?: Readonly<Record<string, string>>
  readonly limit: number
  readonly offset: number
}

export interface DecideBody {
  readonly decision: Decision
  readonly comment?: string
  readonly stage?: string
  readonly override?: boolean
}

export interface DelegateBody {
  readonly to: string
  readonly comment?: string
  readonly stage?: string
}

export interface WithdrawBody {
  readonly comment?: string
}

/** An entity with its instance after an action. */
export interface ActionResult {
  readonly entity: EntityView
  readonly instance: StoredInstance
}

export interface HistoryItem {
  readonly at: string
  readonly actor: string
  readonly on_behalf_of?: string
  readonly action: string
  readonly stage?: string
  readonly round?: number
  readonly comment?: string
  readonly delegate_to?: string
  /** Set on rows of the read-only legacy_approvals collection. */
  readonly legacy?: true
  readonly source?: string
}

export interface PendingItem {
  /** The entity's id. */
  readonly id: string
  readonly instance: string
  readonly title: string
  readonly stage: string
  readonly due_at?: string
  readonly overdue: boolean
  readonly age_days: number
  /** For a delegated approval: who delegated it. */
  readonly on_behalf_of?: string
  readonly submitted_at: string
  /** Who submitted: their Person id (a User id for a caller linked to no Person). */
  readonly submitter: string
  /** The submitter's name, when they are a Person. */
  readonly submitter_name: string | null
}

export interface PendingQuery {
  /** Admins only: whose queue to show. */
  readonly approver?: string
  readonly limit: number
  readonly offset: number
}

export interface InstanceQuery {
  readonly domain?: WorkflowDomainKey
  readonly status?: string
  readonly entity?: string
  readonly submitter?: string
  readonly limit: number
  readonly offset: number
}

/** A stage still to come, with the people it would ask if it activated now. */
export interface StagePreview {
  readonly key: string
  readonly name: string
  readonly approver_role: WorkflowStage['approver_role']
  readonly policy: WorkflowStage['policy']
  readonly status: string
  readonly approvers: readonly string[]
}

export interface InstanceDetail extends StoredInstance {
  readonly preview: readonly StagePreview[]
}

/** A stored definition. */
export interface StoredDefinition extends WorkflowDefinition {
  readonly type: 'Workflow'
  readonly domain: WorkflowDomainKey
  readonly description?: string
  readonly _version: number
  readonly _created_at: string
  readonly _updated_at: string
}

export interface DefinitionInput {
  readonly domain: WorkflowDomainKey
  readonly name: string
  readonly description?: string
  readonly stages: readonly WorkflowStage[]
}

export interface OverdueReport {
  readonly marked: number
  readonly escalated: number
  /** Stages whose pending approvers were reminded that they are due within a day. */
  readonly due_soon: number
}

/** A stage of an instance as `stages` answers it: the stored stage with its definition's name and rule. */
export interface StageInstanceView extends StageInstance {
  readonly name: string
  readonly approver_role: WorkflowStage['approver_role']
  readonly policy: WorkflowStage['policy']
  readonly quorum?: number
}
