import type { Actor as RecordActor } from '../actor.js'
import type { Principal } from '../auth/principal.js'
import {
  activeStage, barred, decide, delegate, exclude, resubmit, start, withdraw,
  type Actor, type Outcome, type WorkflowDefinition,
} from '../domain/workflows/index.js'
import { PermissionDenied, PlanUnderReview, RecordNotFound, ReferenceNotFound, ValidationFailed, WriteContended } from '../errors.js'
import type { People } from '../privacy/relations.js'
import type { RecordService } from '../records/service.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'
import { DuplicateKeyError, where, type Filter, type Store } from '../store/port.js'
import { canSee, checkMayWrite, visibleFilter } from './access.js'
import { Approvers } from './approvers.js'
import { WorkflowCatalog } from './catalog.js'
import { OverdueSweep } from './overdue.js'
import { PlanReviews } from './plan-reviews.js'
import { Definitions } from './definitions.js'
import { WorkflowConflictError } from './errors.js'
import { callerOf, workflowIdsOfUsers, type Caller } from './identity.js'
import { Instances, refusalError, type Acted } from './persistence.js'
import { conflictsOf, domainSpec, type DomainSpec, type WorkflowDomainKey } from './registry.js'
import { Projector } from './repair.js'
import type {
  ActionResult, DecideBody, DelegateBody, EntityView, HistoryItem, InstanceSummary, ListQuery, Page,
  PendingItem, PendingQuery, StoredInstance, WithdrawBody,
} from './types.js'

export interface WorkflowServiceDeps {
  readonly store: Store
  readonly records: RecordService
  readonly schema: CompiledSchema
  readonly people: People
  readonly now?: () => Date
}

const dayMs = 86_400_000
/** Fields of an entity only the workflow writes. */
const workflowFields = ['status', 'milestone_status']
const systemFields = ['_id', 'type', '_version', '_created_at', '_updated_at']

function summaryOf(instance: StoredInstance): InstanceSummary {
  const { _id, status, round, current_stage, workflow, workflow_version, submitter } = instance
  return { _id, status, round, current_stage, workflow, workflow_version, submitter }
}

function fieldsOf(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(body)) {
    if (workflowFields.includes(field)) throw new ValidationFailed(`${field}: set by the workflow, not by an edit`)
    if (!systemFields.includes(field)) fields[field] = value
  }
  return fields
}

/**
 * The workflow service (docs/workflows.md): the domains' entities and their instances. The engine of
 * src/domain/workflows decides every action; this layer finds who holds each role (approvers.ts),
 * writes instances by compare-and-set (persistence.ts) and keeps each entity's status a projection of
 * its instance (repair.ts). API keys never reach it.
 */
export class WorkflowService {
  private readonly records: RecordService
  private readonly schema: CompiledSchema
  private readonly people: People
  private readonly now: () => Date
  readonly instancesStore: Instances
  readonly definitionsStore: Definitions
  private readonly approvers: Approvers
  private readonly projector: Projector
  /** /api/workflows: the definitions and the instances across domains. */
  readonly catalog: WorkflowCatalog
  /** The maintenance job's sweep of approvals past their due time. */
  readonly overdue: OverdueSweep
  /** What a plan's major-plan reviews allow its writers (StudentPlans). */
  readonly planReviews: PlanReviews

  constructor(deps: WorkflowServiceDeps) {
    this.records = deps.records
    this.schema = deps.schema
    this.people = deps.people
    this.now = deps.now ?? (() => new Date())
    this.instancesStore = new Instances(deps.store, this.now)
    this.definitionsStore = new Definitions(deps.records, deps.schema)
    this.approvers = new Approvers(deps.store, deps.records, deps.schema)
    this.projector = new Projector(deps.records, deps.schema, this.instancesStore, (spec, entity, actor) => this.onApproved(spec, entity, actor))
    this.overdue = new OverdueSweep(this.instancesStore, this.definitionsStore, this.approvers)
    this.planReviews = new PlanReviews(deps.records, deps.schema, this.instancesStore, this.definitionsStore, deps.people, this.now)
    this.catalog = new WorkflowCatalog({ records: deps.records, people: deps.people, definitions: this.definitionsStore, instances: this.instancesStore, approvers: this.approvers })
  }

  private cls(spec: DomainSpec): ClassDef<DomainSpec['entityClass']> {
    return this.schema.class(spec.entityClass)!
  }

  private caller(principal: Principal): Promise<Caller> {
    return callerOf(principal, this.people)
  }

  /** The entity of the domain, with its instance; 404 when missing or not the caller's to see. */
  private async visibleEntity(spec: DomainSpec, caller: Caller, id: string): Promise<{ entity: EntityView; instance: StoredInstance | null }> {
    const entity = await this.records.get(id, spec.entityClass)
    const instance = entity ? await this.instancesStore.ofEntity(id) : null
    if (!entity || !(await canSee(spec, caller, entity, instance, this.records))) throw new RecordNotFound(`${id} not found`)
    return { entity, instance }
  }

  /**
   * Which of the caller's ids acts on the instance: one the engine must refuse (the submitter, whom the
   * entity is about, a nominator), else one asked in the current round (pending first), else the caller's own id.
   */
  private actorFor(caller: Caller, instance: StoredInstance): Actor {
    const admin = caller.admin
    const barredPeople = barred(instance)
    const barredId = [...caller.ids].find((id) => barredPeople.has(id))
    if (barredId) return { id: barredId, admin }
    const approvals = instance.stages.flatMap((s) => s.approvals.filter((a) => a.round === instance.round && caller.ids.has(a.approver)))
    const asked = approvals.find((a) => a.status === 'pending') ?? approvals[0]
    return { id: asked?.approver ?? caller.id, admin }
  }

  private submitterId(caller: Caller, instance: StoredInstance | null): string {
    return instance && caller.ids.has(instance.submitter) ? instance.submitter : caller.id
  }

  // ---- entities --------------------------------------------------------------------------------

  async create(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, body: Readonly<Record<string, unknown>>): Promise<EntityView> {
    const spec = domainSpec(domain)
    const caller = await this.caller(principal)
    if (!spec.crud.submit) return (await this.submitPlan(spec, caller, actor, body)).entity
    const fields = fieldsOf(body)
    if (fields[spec.ownerField] === undefined && caller.personId) fields[spec.ownerField] = caller.personId
    if (fields[spec.ownerField] === undefined) throw new ValidationFailed(`${spec.ownerField}: required (the caller has no Person record to stand for)`)
    await checkMayWrite(spec, caller, fields, this.records)
    fields.status = 'draft'
    if (domain === 'graduate_milestones') fields.milestone_status = 'not_started'
    return await this.records.create(spec.entityClass, fields, { actor })
  }

  /**
   * A major plan is submitted as it is made: POST {plan} names the plan; its student and degree follow
   * from it. One review of a plan at a time; the review is fenced on the plan (plan-reviews.ts), and a
   * plan edited while it was being submitted withdraws the review it started.
   */
  private async submitPlan(spec: DomainSpec, caller: Caller, actor: RecordActor, body: Readonly<Record<string, unknown>>): Promise<ActionResult> {
    const planId = body.plan
    if (typeof planId !== 'string' || !planId) throw new ValidationFailed('plan: required, the id of a StudentPlan')
    const plan = planId.startsWith('StudentPlan/') ? await this.records.get(planId) : null
    if (!plan) throw new ReferenceNotFound(`plan: no StudentPlan ${planId}`)
    const fields = { plan: plan._id, student: plan.student, degree: plan.target_degree }
    await checkMayWrite(spec, caller, fields, this.records)
    const open = await this.planReviews.inReview(plan._id)
    if (open) throw new PlanUnderReview(`${plan._id} is already under review in ${open}; one review of a plan at a time`)
    const entity = await this.records.create(spec.entityClass, { ...fields, status: 'draft' }, { actor })
    try {
      const acted = await this.recordSubmission(spec, caller, entity, undefined)
      if (!(await this.planReviews.fence(plan, entity._id, actor))) {
        const definition = await this.definitionsStore.of(acted.instance)
        await this.instancesStore.act(acted.instance._id, (current) => withdraw(current, definition, {
          actor: { id: current.submitter }, now: this.now(), comment: `${plan._id} changed while it was being submitted`,
        }))
        await this.projector.project(spec, entity._id, actor)
        throw new WriteContended(`${plan._id} changed while it was being submitted, so ${entity._id} was withdrawn; submit the plan again`)
      }
      return { entity: await this.projector.project(spec, entity._id, actor), instance: acted.instance }
    } catch (error) {
      // Nothing was submitted: the request leaves no draft behind.
      if (!(await this.instancesStore.ofEntity(entity._id))) await this.records.remove(entity._id, { actor })
      throw error
    }
  }

  async update(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, id: string, body: Readonly<Record<string, unknown>>): Promise<EntityView> {
    const spec = domainSpec(domain)
    const caller = await this.caller(principal)
    const { entity, instance } = await this.visibleEntity(spec, caller, id)
    await checkMayWrite(spec, caller, entity, this.records)
    const fields = fieldsOf(body)
    if (fields[spec.ownerField] !== undefined && fields[spec.ownerField] !== entity[spec.ownerField]) {
      throw new ValidationFailed(`${spec.ownerField}: cannot change; make a new ${spec.entityClass}`)
    }
    const editable = (entity.status === 'draft' && !instance) || (entity.status === 'revision_requested' && instance?.status === 'revision_requested')
    if (!editable) throw new WorkflowConflictError(`${id} is ${entity.status}; only a draft or one returned for revision is edited`, instance, entity)
    if (domain === 'graduate_milestones' && entity.milestone_status === 'not_started') fields.milestone_status = 'in_progress'
    return await this.records.update(id, fields, { actor, expectVersion: entity._version, className: spec.entityClass })
  }

  async remove(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, id: string): Promise<void> {
    const spec = domainSpec(domain)
    const caller = await this.caller(principal)
    const { entity, instance } = await this.visibleEntity(spec, caller, id)
    await checkMayWrite(spec, caller, entity, this.records)
    if (entity.status !== 'draft' || instance) throw new WorkflowConflictError(`${id} is ${entity.status}; only a draft is deleted`, instance, entity)
    await this.records.remove(id, { actor })
  }

  async get(domain: WorkflowDomainKey, principal: Principal, id: string): Promise<EntityView & { instance?: InstanceSummary }> {
    const spec = domainSpec(domain)
    const { entity, instance } = await this.visibleEntity(spec, await this.caller(principal), id)
    return { ...entity, ...(instance ? { instance: summaryOf(instance) } : {}) }
  }

  async list(domain: WorkflowDomainKey, principal: Principal, query: ListQuery): Promise<Page<EntityView>> {
    const spec = domainSpec(domain)
    const caller = await this.caller(principal)
    const clauses: Filter[] = []
    if (query.status !== undefined) clauses.push({ status: query.status })
    for (const [name, value] of Object.entries(query.filters ?? {})) {
      const field = spec.listFilters[name]
      if (!field) throw new ValidationFailed(`${name}: not a filter of ${spec.entityClass} lists`)
      clauses.push(where(field, value))
    }
    if (!caller.admin) {
      const mine = await this.instancesStore.collection.find({ participants: { $in: [...caller.ids] }, domain })
      clauses.push(await visibleFilter(spec, caller, mine.map((i) => i.entity), async () =>
        (await this.records.find(this.schema.class('Person')!, { advisors: caller.personId! })).map((s) => s._id)))
    }
    const filter: Filter = clauses.length ? { $and: clauses } : {}
    const collection = this.records.collectionOf(this.cls(spec))
    const [items, total] = await Promise.all([
      this.records.find(this.cls(spec), filter, { sort: [['_created_at', 1], ['_id', 1]], skip: query.offset, limit: query.limit }),
      collection.count(filter),
    ])
    return { items, total, limit: query.limit, offset: query.offset }
  }

  // ---- actions ---------------------------------------------------------------------------------

  async submit(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, id: string, body: WithdrawBody = {}): Promise<ActionResult> {
    const spec = domainSpec(domain)
    const caller = await this.caller(principal)
    const { entity } = await this.visibleEntity(spec, caller, id)
    return this.submitEntity(spec, caller, actor, entity, body.comment)
  }

  private async submitEntity(spec: DomainSpec, caller: Caller, actor: RecordActor, entity: EntityView, comment: string | undefined): Promise<ActionResult> {
    await checkMayWrite(spec, caller, entity, this.records)
    const acted = await this.recordSubmission(spec, caller, entity, comment)
    return { entity: await this.projector.project(spec, entity._id, actor), instance: acted.instance }
  }

  /**
   * The first of a submission's two writes: the instance (started, or resubmitted for the next round).
   * The second, the entity's status, follows from it (Projector.project); see repair.ts for the order.
   */
  async recordSubmission(spec: DomainSpec, caller: Caller, entity: EntityView, comment: string | undefined): Promise<Acted> {
    const existing = await this.instancesStore.ofEntity(entity._id)
    const now = this.now()
    if (!existing) {
      if (entity.status !== 'draft') throw new WorkflowConflictError(`${entity._id} is ${entity.status}; only a draft is submitted`, null, entity)
      const definition = await this.definitionsStore.current(spec.domain)
      const directory = await this.approvers.directory(spec, entity, definition)
      const outcome = start({
        definition, entity: entity._id, submitter: caller.id, excluded: conflictsOf(spec, entity), directory, now,
        ...(comment !== undefined ? { comment } : {}),
      })
      if (!outcome.ok) throw refusalError(outcome, null)
      try {
        const owner = entity[spec.ownerField]
        return { instance: await this.instancesStore.insert(outcome.instance, typeof owner === 'string' ? [owner] : []), applied: true }
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error
        // A concurrent submit of the same entity won: answer as a repeat of it, or its conflict.
      }
    }
    const instance = existing ?? await this.instancesStore.ofEntity(entity._id)
    if (!instance) throw new WorkflowConflictError(`${entity._id} could not be submitted; try again`, null)
    const actor: Actor = { id: this.submitterId(caller, instance), admin: caller.admin }
    if (instance.round === 1 && instance.status === 'in_review' && instance.history.length === 1 && actor.id === instance.submitter) {
      return { instance, applied: false }
    }
    const definition = await this.definitionsStore.of(instance)
    const directory = await this.approvers.directory(spec, entity, definition)
    const conflicts = conflictsOf(spec, entity)
    return this.instancesStore.act(instance._id, (current) =>
      resubmit(exclude(current, conflicts), definition, { actor, directory, now, ...(comment !== undefined ? { comment } : {}) }))
  }

  /**
   * Runs an engine action on the entity's instance, then brings the entity in step with it. The action
   * sees everyone the entity names in its conflict fields now among the excluded (registry.ts).
   */
  private async act(
    spec: DomainSpec, caller: Caller, actor: RecordActor, id: string,
    run: (current: StoredInstance, definition: WorkflowDefinition, entity: EntityView) => Promise<(current: StoredInstance) => Outcome<StoredInstance>>,
  ): Promise<ActionResult> {
    const { entity, instance } = await this.visibleEntity(spec, caller, id)
    if (!instance) throw new WorkflowConflictError(`${id} is ${entity.status}; it has not been submitted`, null, entity)
    const definition = await this.definitionsStore.of(instance)
    const action = await run(instance, definition, entity)
    const conflicts = conflictsOf(spec, entity)
    const acted = await this.instancesStore.act(instance._id, (current) => action(exclude(current, conflicts)))
    return { entity: await this.projector.project(spec, id, actor), instance: acted.instance }
  }

  async decide(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, id: string, body: DecideBody): Promise<ActionResult> {
    const spec = domainSpec(domain)
    const caller = await this.caller(principal)
    return this.act(spec, caller, actor, id, async (_instance, definition, entity) => {
      // Resolved before the write: the decision may activate the next stage, which asks who holds its role now.
      const directory = await this.approvers.directory(spec, entity, definition)
      return (current) => decide(current, definition, {
        actor: this.actorFor(caller, current), decision: body.decision, directory, now: this.now(),
        ...(body.comment !== undefined ? { comment: body.comment } : {}),
        ...(body.stage !== undefined ? { stage: body.stage } : {}),
        ...(body.override !== undefined ? { override: body.override } : {}),
      })
    })
  }

  async delegate(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, id: string, body: DelegateBody): Promise<ActionResult> {
    const spec = domainSpec(domain)
    const caller = await this.caller(principal)
    return this.act(spec, caller, actor, id, async (_instance, definition) => {
      const to = await this.delegateId(body.to)
      return (current) => delegate(current, definition, {
        actor: this.actorFor(caller, current), to, now: this.now(),
        ...(body.comment !== undefined ? { comment: body.comment } : {}),
        ...(body.stage !== undefined ? { stage: body.stage } : {}),
      })
    })
  }

  /**
   * The workflow id of the person named as delegate: a Person id, or a User id (mapped to its Person).
   * A student never decides, whichever id names them.
   */
  private async delegateId(to: unknown): Promise<string> {
    if (typeof to !== 'string' || !to) throw new ValidationFailed('to: name the person to delegate to')
    const found = await this.records.get(to)
    let id: string | undefined
    if (found && this.schema.class(found.type)?.ancestors.includes('Person')) id = found._id
    else if (found?.type === 'User') id = (await workflowIdsOfUsers([found as never], this.records, this.schema))[0]!
    if (!id) throw new ReferenceNotFound(`to: no person or user ${to}`)
    const person = id === found?._id ? found : await this.records.get(id)
    const student = person ? this.schema.class(person.type)?.ancestors.includes('Student') : found?.role === 'student'
    if (student || found?.role === 'student') throw new ValidationFailed('to: a student cannot be delegated a decision')
    return id
  }

  async withdraw(domain: WorkflowDomainKey, principal: Principal, actor: RecordActor, id: string, body: WithdrawBody = {}): Promise<ActionResult> {
    const spec = domainSpec(domain)
    const caller = await this.caller(principal)
    return this.act(spec, caller, actor, id, async (_instance, definition) => (current) => withdraw(current, definition, {
      actor: { id: this.submitterId(caller, current), admin: caller.admin }, now: this.now(),
      ...(body.comment !== undefined ? { comment: body.comment } : {}),
    }))
  }

  async history(domain: WorkflowDomainKey, principal: Principal, id: string): Promise<{ items: HistoryItem[] }> {
    const spec = domainSpec(domain)
    const { instance } = await this.visibleEntity(spec, await this.caller(principal), id)
    const legacy = await this.records.find(this.schema.class('LegacyApproval')!, { entity: id })
    const items: HistoryItem[] = [
      ...legacy.map((row): HistoryItem => ({
        at: row.decided_at as string, actor: row.approver as string, action: legacyActions[row.decision as string] ?? String(row.decision), legacy: true,
        ...(row.stage !== undefined ? { stage: row.stage as string } : {}),
        ...(row.comment !== undefined ? { comment: row.comment as string } : {}),
        ...(row.source !== undefined ? { source: row.source as string } : {}),
      })),
      ...(instance?.history ?? []),
    ]
    // Stable: entries of one instant keep the order they were written in.
    return { items: items.map((item, i) => [item, i] as const).sort(([a, i], [b, j]) => a.at.localeCompare(b.at) || i - j).map(([item]) => item) }
  }

  async pending(domain: WorkflowDomainKey, principal: Principal, query: PendingQuery): Promise<Page<PendingItem>> {
    const spec = domainSpec(domain)
    const caller = await this.caller(principal)
    if (query.approver !== undefined && !caller.admin && !caller.ids.has(query.approver)) throw new PermissionDenied("only admins see another approver's queue")
    const ids = query.approver !== undefined ? [query.approver] : [...caller.ids]
    // pending_approvers first: the embedded store narrows by the first indexed field of a filter.
    const filter: Filter = { pending_approvers: { $in: ids }, domain }
    const collection = this.instancesStore.collection
    const [page, total] = await Promise.all([
      collection.view(filter, { sort: [['submitted_at', 1], ['_id', 1]], skip: query.offset, limit: query.limit }),
      collection.count(filter),
    ])
    const now = this.now().getTime()
    const items = await Promise.all(page.map(async (instance): Promise<PendingItem> => {
      const stage = activeStage(instance as StoredInstance)
      const approval = stage?.approvals.find((a) => a.round === instance.round && a.status === 'pending' && ids.includes(a.approver))
      const [entity, submitter] = await Promise.all([this.records.view(instance.entity), this.records.view(instance.submitter)])
      return {
        id: instance.entity, instance: instance._id, title: entity ? spec.title(entity) : '', stage: instance.current_stage,
        ...(stage?.due_at !== undefined ? { due_at: stage.due_at } : {}),
        overdue: approval?.overdue === true || (stage?.due_at !== undefined && now > Date.parse(stage.due_at)),
        age_days: Math.floor((now - Date.parse(instance.submitted_at)) / dayMs),
        ...(approval?.on_behalf_of !== undefined ? { on_behalf_of: approval.on_behalf_of } : {}),
        submitted_at: instance.submitted_at,
        submitter: instance.submitter,
        submitter_name: typeof submitter?.first_name === 'string' ? `${submitter.first_name} ${String(submitter.last_name)}` : null,
      }
    }))
    return { items, total, limit: query.limit, offset: query.offset }
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

const legacyActions: Record<string, string> = { approved: 'approve', rejected: 'reject', revision_requested: 'request_revision', delegated: 'delegate' }
