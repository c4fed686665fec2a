import type { Actor as RecordActor } from '../actor.js'
import { withdraw } from '../domain/workflows/index.js'
import { PlanUnderReview, ReferenceNotFound, ValidationFailed, WriteContended } from '../errors.js'
import type { RecordService } from '../records/service.js'
import { checkMayWrite, visibleEntity } from './access.js'
import type { WorkflowActions } from './actions.js'
import type { Definitions } from './definitions.js'
import { WorkflowConflictError } from './errors.js'
import type { Caller } from './identity.js'
import type { Instances } from './persistence.js'
import type { PlanReviews } from './plan-reviews.js'
import type { DomainSpec } from './registry.js'
import type { Projector } from './repair.js'
import type { ActionResult, EntityView } from './types.js'

export interface DraftDeps {
  readonly records: RecordService
  readonly instances: Instances
  readonly definitions: Definitions
  readonly projector: Projector
  readonly planReviews: PlanReviews
  readonly actions: WorkflowActions
  readonly now: () => Date
}

/** Fields of an entity only the workflow writes. */
const workflowFields = ['status', 'milestone_status']
const systemFields = ['_id', 'type', '_version', '_created_at', '_updated_at']

function fieldsOf(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(body)) {
    if (workflowFields.includes(field)) throw new ValidationFailed(`${field}: set by the workflow, not by an edit`)
    if (!systemFields.includes(field)) fields[field] = value
  }
  return fields
}

/**
 * An entity before its review (docs/workflows.md): created as a draft, edited while a draft or returned
 * for revision, deleted while a draft. A major plan is the exception, submitted as it is made.
 */
export class WorkflowDrafts {
  constructor(private readonly deps: DraftDeps) {}

  async create(spec: DomainSpec, caller: Caller, actor: RecordActor, body: Readonly<Record<string, unknown>>): Promise<EntityView> {
    if (!spec.crud.submit) return (await this.submitPlan(spec, caller, actor, body)).entity
    const fields = fieldsOf(body)
    if (fields[spec.ownerField] === undefined && caller.personId) fields[spec.ownerField] = caller.personId
    if (fields[spec.ownerField] === undefined) throw new ValidationFailed(`${spec.ownerField}: required (the caller has no Person record to stand for)`)
    await checkMayWrite(spec, caller, fields, this.deps.records)
    fields.status = 'draft'
    if (spec.domain === 'graduate_milestones') fields.milestone_status = 'not_started'
    return await this.deps.records.create(spec.entityClass, fields, { actor })
  }

  /**
   * A major plan is submitted as it is made: POST {plan} names the plan; its student and degree follow
   * from it. One review of a plan at a time; the review is fenced on the plan (plan-reviews.ts), and a
   * plan edited while it was being submitted withdraws the review it started.
   */
  private async submitPlan(spec: DomainSpec, caller: Caller, actor: RecordActor, body: Readonly<Record<string, unknown>>): Promise<ActionResult> {
    const { records, instances, definitions, projector, planReviews } = this.deps
    const planId = body.plan
    if (typeof planId !== 'string' || !planId) throw new ValidationFailed('plan: required, the id of a StudentPlan')
    const plan = planId.startsWith('StudentPlan/') ? await records.get(planId) : null
    if (!plan) throw new ReferenceNotFound(`plan: no StudentPlan ${planId}`)
    const fields = { plan: plan._id, student: plan.student, degree: plan.target_degree }
    await checkMayWrite(spec, caller, fields, records)
    const open = await planReviews.inReview(plan._id)
    if (open) throw new PlanUnderReview(`${plan._id} is already under review in ${open}; one review of a plan at a time`)
    const entity = await records.create(spec.entityClass, { ...fields, status: 'draft' }, { actor })
    try {
      const acted = await this.deps.actions.recordSubmission(spec, caller, entity, undefined)
      if (!(await planReviews.fence(plan, entity._id, actor))) {
        const definition = await definitions.of(acted.instance)
        await instances.act(acted.instance._id, (current) => withdraw(current, definition, {
          actor: { id: current.submitter }, now: this.deps.now(), comment: `${plan._id} changed while it was being submitted`,
        }))
        await projector.project(spec, entity._id, actor)
        throw new WriteContended(`${plan._id} changed while it was being submitted, so ${entity._id} was withdrawn; submit the plan again`)
      }
      return { entity: await projector.project(spec, entity._id, actor), instance: acted.instance }
    } catch (error) {
      // Nothing was submitted: the request leaves no draft behind.
      if (!(await instances.ofEntity(entity._id))) await records.remove(entity._id, { actor })
      throw error
    }
  }

  async update(spec: DomainSpec, caller: Caller, actor: RecordActor, id: string, body: Readonly<Record<string, unknown>>): Promise<EntityView> {
    const { entity, instance } = await visibleEntity(spec, caller, id, this.deps.records, this.deps.instances)
    await checkMayWrite(spec, caller, entity, this.deps.records)
    const fields = fieldsOf(body)
    if (fields[spec.ownerField] !== undefined && fields[spec.ownerField] !== entity[spec.ownerField]) {
      throw new ValidationFailed(`${spec.ownerField}: cannot change; make a new ${spec.entityClass}`)
    }
    const editable = (entity.status === 'draft' && !instance) || (entity.status === 'revision_requested' && instance?.status === 'revision_requested')
    if (!editable) throw new WorkflowConflictError(`${id} is ${entity.status}; only a draft or one returned for revision is edited`, instance, entity)
    if (spec.domain === 'graduate_milestones' && entity.milestone_status === 'not_started') fields.milestone_status = 'in_progress'
    return await this.deps.records.update(id, fields, { actor, expectVersion: entity._version, className: spec.entityClass })
  }

  async remove(spec: DomainSpec, caller: Caller, actor: RecordActor, id: string): Promise<void> {
    const { entity, instance } = await visibleEntity(spec, caller, id, this.deps.records, this.deps.instances)
    await checkMayWrite(spec, caller, entity, this.deps.records)
    if (entity.status !== 'draft' || instance) throw new WorkflowConflictError(`${id} is ${entity.status}; only a draft is deleted`, instance, entity)
    await this.deps.records.remove(id, { actor })
  }
}
