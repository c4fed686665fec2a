import { activeStage } from '../domain/workflows/index.js'
import { PermissionDenied, ValidationFailed } from '../errors.js'
import type { People } from '../privacy/relations.js'
import type { RecordService } from '../records/service.js'
import type { ApprovalStatus, WorkflowAction } from '../schema/generated/records.js'
import type { CompiledSchema } from '../schema/index.js'
import { where, type Filter } from '../store/port.js'
import { visibleEntity, visibleFilter } from './access.js'
import { callerOf } from './identity.js'
import type { Instances } from './persistence.js'
import { domainSpec, type WorkflowDomainKey } from './registry.js'
import { entityTitles, readerOf } from './titles.js'
import type { EntityView, HistoryItem, InstanceSummary, ListQuery, Page, PendingItem, PendingQuery, StoredInstance } from './types.js'
import type { Principal } from '../auth/principal.js'

const dayMs = 86_400_000

function summaryOf(instance: StoredInstance): InstanceSummary {
  const { _id, status, round, current_stage, workflow, workflow_version, submitter } = instance
  return { _id, status, round, current_stage, workflow, workflow_version, submitter }
}

const legacyActions: Partial<Record<ApprovalStatus, WorkflowAction>> = { approved: 'approve', rejected: 'reject', revision_requested: 'request_revision', delegated: 'delegate' }

/** What the workflow routes read (docs/workflows.md): one entity, a domain's list, its history, a pending queue. */
export class WorkflowReads {
  constructor(
    private readonly records: RecordService,
    private readonly schema: CompiledSchema,
    private readonly people: People,
    private readonly instances: Instances,
    private readonly now: () => Date,
  ) {}

  async get(domain: WorkflowDomainKey, principal: Principal, id: string): Promise<EntityView & { instance?: InstanceSummary }> {
    const spec = domainSpec(domain)
    const { entity, instance } = await visibleEntity(spec, await callerOf(principal, this.people), id, this.records, this.instances)
    return { ...entity, ...(instance ? { instance: summaryOf(instance) } : {}) }
  }

  async list(domain: WorkflowDomainKey, principal: Principal, query: ListQuery): Promise<Page<EntityView>> {
    const spec = domainSpec(domain)
    const caller = await callerOf(principal, this.people)
    const cls = this.schema.class(spec.entityClass)!
    const clauses: Filter[] = []
    if (query.status !== undefined) clauses.push({ status: query.status })
    for (const [name, value] of Object.entries(query.filters ?? {})) {
      const field = spec.listFilters[name]
      if (!field) throw new ValidationFailed(`${name}: not a filter of ${spec.entityClass} lists`)
      clauses.push(where(field, value))
    }
    if (!caller.admin) {
      const mine = await this.instances.collection.find({ participants: { $in: [...caller.ids] }, domain })
      clauses.push(await visibleFilter(spec, caller, mine.map((i) => i.entity), async () =>
        (await this.records.find(this.schema.class('Person')!, { advisors: caller.personId! })).map((s) => s._id)))
    }
    const filter: Filter = clauses.length ? { $and: clauses } : {}
    const [items, total] = await Promise.all([
      this.records.find(cls, filter, { sort: [['_created_at', 1], ['_id', 1]], skip: query.offset, limit: query.limit }),
      this.records.collectionOf(cls).count(filter),
    ])
    return { items, total, limit: query.limit, offset: query.offset }
  }

  async history(domain: WorkflowDomainKey, principal: Principal, id: string): Promise<{ items: HistoryItem[] }> {
    const spec = domainSpec(domain)
    const { instance } = await visibleEntity(spec, await callerOf(principal, this.people), id, this.records, this.instances)
    const legacy = await this.records.find(this.schema.class('LegacyApproval')!, { entity: id })
    const items: HistoryItem[] = [
      ...legacy.map((row): HistoryItem => ({
        at: row.decided_at, actor: row.approver, action: legacyActions[row.decision] ?? row.decision, legacy: true,
        ...(row.stage !== undefined ? { stage: row.stage } : {}),
        ...(row.comment !== undefined ? { comment: row.comment } : {}),
        ...(row.source !== undefined ? { source: row.source } : {}),
      })),
      ...(instance?.history ?? []),
    ]
    // Stable: entries of one instant keep the order they were written in.
    return { items: items.map((item, i) => [item, i] as const).sort(([a, i], [b, j]) => a.at.localeCompare(b.at) || i - j).map(([item]) => item) }
  }

  async pending(domain: WorkflowDomainKey, principal: Principal, query: PendingQuery): Promise<Page<PendingItem>> {
    const caller = await callerOf(principal, this.people)
    if (query.approver !== undefined && !caller.admin && !caller.ids.has(query.approver)) throw new PermissionDenied("only admins see another approver's queue")
    const ids = query.approver !== undefined ? [query.approver] : [...caller.ids]
    // pending_approvers first: the embedded store narrows by the first indexed field of a filter.
    const filter: Filter = { pending_approvers: { $in: ids }, domain }
    const collection = this.instances.collection
    const [page, total] = await Promise.all([
      collection.view(filter, { sort: [['submitted_at', 1], ['_id', 1]], skip: query.offset, limit: query.limit }),
      collection.count(filter),
    ])
    // The page's entities, submitters and (major plans) plans and students: a few queries per page, not reads per row.
    const read = readerOf(this.records, this.schema)
    const [entities, submitters] = await Promise.all([read(page.map((instance) => instance.entity)), read(page.map((instance) => instance.submitter))])
    const titles = await entityTitles([...entities.values()], read)
    const now = this.now().getTime()
    const items = page.map((instance): PendingItem => {
      const stage = activeStage(instance as StoredInstance)
      const approval = stage?.approvals.find((a) => a.round === instance.round && a.status === 'pending' && ids.includes(a.approver))
      const submitter = submitters.get(instance.submitter)
      return {
        id: instance.entity, instance: instance._id, title: titles.get(instance.entity) ?? '', stage: instance.current_stage,
        ...(stage?.due_at !== undefined ? { due_at: stage.due_at } : {}),
        overdue: approval?.overdue === true || (stage?.due_at !== undefined && now > Date.parse(stage.due_at)),
        age_days: Math.floor((now - Date.parse(instance.submitted_at)) / dayMs),
        ...(approval?.on_behalf_of !== undefined ? { on_behalf_of: approval.on_behalf_of } : {}),
        submitted_at: instance.submitted_at,
        submitter: instance.submitter,
        submitter_name: typeof submitter?.first_name === 'string' ? `${submitter.first_name} ${String(submitter.last_name)}` : null,
      }
    })
    return { items, total, limit: query.limit, offset: query.offset }
  }
}
