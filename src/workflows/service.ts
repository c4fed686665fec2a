import type { Actor as RecordActor } from '../actor.js'
import type { Principal } from '../auth/principal.js'
import type { People } from '../privacy/relations.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import type { Store } from '../store/port.js'
import { WorkflowActions } from './actions.js'
import { Approvers } from './approvers.js'
import { WorkflowCatalog } from './catalog.js'
import { Definitions } from './definitions.js'
import { WorkflowDrafts } from './drafts.js'
import { callerOf, type Caller } from './identity.js'
import { OverdueSweep } from './overdue.js'
import { Instances, type Acted } from './persistence.js'
import { PlanReviews } from './plan-reviews.js'
import { WorkflowReads } from './reads.js'
import { domainSpec, type DomainSpec, type WorkflowDomainKey } from './registry.js'
import { Projector } from './repair.js'
import type {
  ActionResult, DecideBody, DelegateBody, EntityView, HistoryItem, InstanceSummary, ListQuery, Page,
  PendingItem, PendingQuery, WithdrawBody,
} from './types.js'

export interface WorkflowServiceDeps {
  readonly store: Store
  readonly records: RecordService
  readonly schema: CompiledSchema
  readonly people: People
  readonly now?: () => Date
}

/**
 * The workflow service (docs/workflows.md): the domains' entities and their instances. The engine of
 * src/domain/workflows decides every action; this layer finds who holds each role (approvers.ts),
 * writes instances by compare-and-set (persistence.ts) and keeps each entity's status a projection of
 * its instance (repair.ts). What it does is split by kind: drafts before review (drafts.ts), the
 * engine's actions (actions.ts) and the reads (reads.ts); this class wires them. API keys never reach it.
 */
export class WorkflowService {
  private readonly people: People
  readonly instancesStore: Instances
  readonly definitionsStore: Definitions
  private readonly approvers: Approvers
  private readonly projector: Projector
  private readonly actions: WorkflowActions
  private readonly drafts: WorkflowDrafts
  private readonly reads: WorkflowReads
  /** /api/workflows: the definitions and the instances across domains. */
  readonly catalog: WorkflowCatalog
  /** The maintenance job's sweep of approvals past their due time. */
  readonly overdue: OverdueSweep
  /** What a plan's major-plan reviews allow its writers (StudentPlans). */
  readonly planReviews: PlanReviews

  constructor(deps: WorkflowServiceDeps) {
    const { records, schema } = deps
    const now = deps.now ?? (() => new Date())
    this.people = deps.people
    this.instancesStore = new Instances(deps.store, now)
    this.definitionsStore = new Definitions(records, schema)
    this.approvers = new Approvers(deps.store, records, schema)
    this.projector = new Projector(records, schema, this.instancesStore, (spec, entity, actor) => this.onApproved(spec, entity, actor))
    this.overdue = new OverdueSweep(this.instancesStore, this.definitionsStore, this.approvers)
    this.planReviews = new PlanReviews(records, schema, this.instancesStore, this.definitionsStore, deps.people, now)
    this.catalog = new WorkflowCatalog({ records, people: deps.people, definitions: this.definitionsStore, instances: this.instancesStore, approvers: this.approvers })
    const engine = { records, instances: this.instancesStore, definitions: this.definitionsStore, projector: this.projector, now }
    this.actions = new WorkflowActions({ ...engine, schema, approvers: this.approvers })
    this.drafts = new WorkflowDrafts({ ...engine, planReviews: this.planReviews, actions: this.actions })
    this.reads = new WorkflowReads(records, schema, deps.people, this.instancesStore, now)
  }

  private caller(principal: Principal): Promise<Caller> {
    return callerOf(principal, this.people)
  }

  // ---- entities before review (drafts.ts) ------------------------------------------------------

  async create(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, body: Readonly<Record<string, unknown>>): Promise<EntityView> {
    return this.drafts.create(domainSpec(domain), await this.caller(principal), actor, body)
  }

  async update(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, id: string, body: Readonly<Record<string, unknown>>): Promise<EntityView> {
    return this.drafts.update(domainSpec(domain), await this.caller(principal), actor, id, body)
  }

  async remove(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, id: string): Promise<void> {
    return this.drafts.remove(domainSpec(domain), await this.caller(principal), actor, id)
  }

  // ---- reads (reads.ts) ------------------------------------------------------------------------

  get(domain: WorkflowDomainKey, principal: Principal, id: string): Promise<EntityView & { instance?: InstanceSummary }> {
    return this.reads.get(domain, principal, id)
  }

  list(domain: WorkflowDomainKey, principal: Principal, query: ListQuery): Promise<Page<EntityView>> {
    return this.reads.list(domain, principal, query)
  }

  history(domain: WorkflowDomainKey, principal: Principal, id: string): Promise<{ items: HistoryItem[] }> {
    return this.reads.history(domain, principal, id)
  }

  pending(domain: WorkflowDomainKey, principal: Principal, query: PendingQuery): Promise<Page<PendingItem>> {
    return this.reads.pending(domain, principal, query)
  }

  // ---- actions (actions.ts) --------------------------------------------------------------------

  async submit(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, id: string, body: WithdrawBody = {}): Promise<ActionResult> {
    return this.actions.submit(domainSpec(domain), await this.caller(principal), actor, id, body)
  }

  /** The instance's write of a submission, without the entity's (repair.ts tests the crash between them). */
  recordSubmission(spec: DomainSpec, caller: Caller, entity: EntityView, comment: string | undefined): Promise<Acted> {
    return this.actions.recordSubmission(spec, caller, entity, comment)
  }

  async decide(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, id: string, body: DecideBody): Promise<ActionResult> {
    return this.actions.decide(domainSpec(domain), await this.caller(principal), actor, id, body)
  }

  async delegate(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, id: string, body: DelegateBody): Promise<ActionResult> {
    return this.actions.delegate(domainSpec(domain), await this.caller(principal), actor, id, body)
  }

  async withdraw(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, id: string, body: WithdrawBody = {}): Promise<ActionResult> {
    return this.actions.withdraw(domainSpec(domain), await this.caller(principal), actor, id, body)
  }

  // ---- maintenance -----------------------------------------------------------------------------

  /** Start-up and maintenance: repairs entities and instances a crash left out of step (repair.ts). */
  repair(actor: RecordActor): Promise<{ repaired: number }> {
    return this.projector.sweep(actor)
  }

  /** Seeds the six definitions when missing; running it again changes nothing. */
  seed(actor: RecordActor): Promise<void> {
    return this.definitionsStore.seed(actor)
  }

  /** An approved major plan marks its plan approved, once, unless the plan changed since (plan-reviews.ts). */
  private async onApproved(spec: DomainSpec, entity: EntityView, actor: RecordActor): Promise<void> {
    if (spec.domain === 'major_plans') await this.planReviews.markApproved(entity, actor)
  }
}

