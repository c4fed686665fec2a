import type { Principal } from '../auth/plugin.js'
import type { People } from '../privacy/relations.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import type { Store } from '../store/port.js'
import type { WorkflowDomainKey } from './registry.js'
import type {
  ActionResult, DecideBody, DefinitionInput, DelegateBody, EntityView, HistoryItem, InstanceDetail, InstanceQuery,
  InstanceSummary, ListQuery, OverdueReport, Page, PendingItem, PendingQuery, StageInstanceView, StoredDefinition,
  StoredInstance, WithdrawBody,
} from './types.js'

export interface WorkflowServiceDeps {
  readonly store: Store
  readonly records: RecordService
  readonly schema: CompiledSchema
  readonly people: People
  readonly now?: () => Date
}

const todo = (): never => { throw new Error('not implemented') }

/**
 * The workflow service (DESIGN 6.3): the domains' entities and their instances, persisted by
 * conditional writes, with the engine of src/domain/workflow deciding every action.
 */
export class WorkflowService {
  constructor(private readonly deps: WorkflowServiceDeps) {}

  async create(_domain: WorkflowDomainKey, _principal: Principal, _body: Readonly<Record<string, unknown>>): Promise<EntityView> { return todo() }
  async update(_domain: WorkflowDomainKey, _principal: Principal, _id: string, _body: Readonly<Record<string, unknown>>): Promise<EntityView> { return todo() }
  async remove(_domain: WorkflowDomainKey, _principal: Principal, _id: string): Promise<void> { return todo() }
  async get(_domain: WorkflowDomainKey, _principal: Principal, _id: string): Promise<EntityView & { instance?: InstanceSummary }> { return todo() }
  async list(_domain: WorkflowDomainKey, _principal: Principal, _query: ListQuery): Promise<Page<EntityView>> { return todo() }
  async submit(_domain: WorkflowDomainKey, _principal: Principal, _id: string, _body: WithdrawBody = {}): Promise<ActionResult> { return todo() }
  async decide(_domain: WorkflowDomainKey, _principal: Principal, _id: string, _body: DecideBody): Promise<ActionResult> { return todo() }
  async delegate(_domain: WorkflowDomainKey, _principal: Principal, _id: string, _body: DelegateBody): Promise<ActionResult> { return todo() }
  async withdraw(_domain: WorkflowDomainKey, _principal: Principal, _id: string, _body: WithdrawBody = {}): Promise<ActionResult> { return todo() }
  async history(_domain: WorkflowDomainKey, _principal: Principal, _id: string): Promise<{ items: HistoryItem[] }> { return todo() }
  async pending(_domain: WorkflowDomainKey, _principal: Principal, _query: PendingQuery): Promise<Page<PendingItem>> { return todo() }

  async definitions(_principal: Principal): Promise<{ items: StoredDefinition[] }> { return todo() }
  async definition(_principal: Principal, _id: string): Promise<StoredDefinition> { return todo() }
  async createDefinition(_principal: Principal, _body: DefinitionInput): Promise<StoredDefinition> { return todo() }
  /** Makes a new version of the definition's domain; instances keep the version they started with. */
  async updateDefinition(_principal: Principal, _id: string, _body: DefinitionInput): Promise<StoredDefinition> { return todo() }

  async instances(_principal: Principal, _query: InstanceQuery): Promise<Page<StoredInstance>> { return todo() }
  async instance(_principal: Principal, _id: string): Promise<InstanceDetail> { return todo() }
  async stages(_principal: Principal, _id: string): Promise<{ items: StageInstanceView[] }> { return todo() }

  /** The maintenance job: marks overdue approvals, escalates stages past twice their due time. */
  async sweepOverdue(_now: Date): Promise<OverdueReport> { return todo() }
  /** Start-up and maintenance: repairs entities and instances a crash left out of step (repair.ts). */
  async repair(): Promise<{ repaired: number }> { return todo() }
  /** Seeds the six definitions and the committee groups when missing; running it again changes nothing. */
  async seed(): Promise<void> { return todo() }
}
