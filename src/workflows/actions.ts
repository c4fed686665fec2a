import type { Actor as RecordActor } from '../actor.js'
import {
  barred, decide, delegate, exclude, resubmit, start, withdraw,
  type Actor, type Outcome, type WorkflowDefinition,
} from '../domain/workflows/index.js'
import { ReferenceNotFound, ValidationFailed } from '../errors.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import { DuplicateKeyError } from '../store/port.js'
import { checkMayWrite, visibleEntity } from './access.js'
import type { Approvers } from './approvers.js'
import type { Definitions } from './definitions.js'
import { WorkflowConflictError } from './errors.js'
import { workflowIdsOfUsers, type Caller } from './identity.js'
import { refusalError, type Acted, type Instances } from './persistence.js'
import { conflictsOf, type DomainSpec } from './registry.js'
import type { Projector } from './repair.js'
import type { ActionResult, DecideBody, DelegateBody, EntityView, StoredInstance, WithdrawBody } from './types.js'

export interface ActionDeps {
  readonly records: RecordService
  readonly schema: CompiledSchema
  readonly instances: Instances
  readonly definitions: Definitions
  readonly approvers: Approvers
  readonly projector: Projector
  readonly now: () => Date
}

/**
 * The engine's actions on an entity's instance (docs/workflows.md): submit, decide, delegate, withdraw.
 * Each reads the entity and its instance once (visibleEntity), writes the instance by compare-and-set
 * from what it read, and projects the entity's status from the instance it wrote (repair.ts); only a
 * lost race reads again.
 */
export class WorkflowActions {
  constructor(private readonly deps: ActionDeps) {}

  async submit(spec: DomainSpec, caller: Caller, actor: RecordActor, id: string, body: WithdrawBody): Promise<ActionResult> {
    const { records, instances, projector } = this.deps
    const { entity, instance } = await visibleEntity(spec, caller, id, records, instances)
    await checkMayWrite(spec, caller, entity, records)
    const acted = await this.recordSubmission(spec, caller, entity, body.comment, { instance })
    return { entity: await projector.project(spec, entity._id, actor, { entity, instance: acted.instance }), instance: acted.instance }
  }

  /**
   * The first of a submission's two writes: the instance (started, or resubmitted for the next round).
   * The second, the entity's status, follows from it (Projector.project); see repair.ts for the order.
   * `read`: the entity's instance as the caller read it after the entity; read here when not given.
   */
  async recordSubmission(spec: DomainSpec, caller: Caller, entity: EntityView, comment: string | undefined, read?: { instance: StoredInstance | null }): Promise<Acted> {
    const { instances, definitions, approvers } = this.deps
    const existing = read ? read.instance : await instances.ofEntity(entity._id)
    const now = this.deps.now()
    if (!existing) {
      if (entity.status !== 'draft') throw new WorkflowConflictError(`${entity._id} is ${entity.status}; only a draft is submitted`, null, entity)
      const definition = await definitions.current(spec.domain)
      const directory = await approvers.directory(spec, entity, definition)
      const outcome = start({
        definition, entity: entity._id, submitter: caller.id, excluded: conflictsOf(spec, entity), directory, now,
        ...(comment !== undefined ? { comment } : {}),
      })
      if (!outcome.ok) throw refusalError(outcome, null)
      try {
        const owner = entity[spec.ownerField]
        return { instance: await instances.insert(outcome.instance, typeof owner === 'string' ? [owner] : []), applied: true }
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error
        // A concurrent submit of the same entity won: answer as a repeat of it, or its conflict.
      }
    }
    const instance = existing ?? await instances.ofEntity(entity._id)
    if (!instance) throw new WorkflowConflictError(`${entity._id} could not be submitted; try again`, null)
    const actor: Actor = { id: submitterId(caller, instance), admin: caller.admin }
    if (instance.round === 1 && instance.status === 'in_review' && instance.history.length === 1 && actor.id === instance.submitter) {
      return { instance, applied: false }
    }
    const definition = await definitions.of(instance)
    const directory = await approvers.directory(spec, entity, definition)
    const conflicts = conflictsOf(spec, entity)
    return instances.act(instance._id, (current) =>
      resubmit(exclude(current, conflicts), definition, { actor, directory, now, ...(comment !== undefined ? { comment } : {}) }), instance)
  }

  async decide(spec: DomainSpec, caller: Caller, actor: RecordActor, id: string, body: DecideBody): Promise<ActionResult> {
    return this.act(spec, caller, actor, id, async (definition, entity) => {
      // Resolved before the write: the decision may activate the next stage, which asks who holds its role now.
      const directory = await this.deps.approvers.directory(spec, entity, definition)
      return (current) => decide(current, definition, {
        actor: actorFor(caller, current), decision: body.decision, directory, now: this.deps.now(),
        ...(body.comment !== undefined ? { comment: body.comment } : {}),
        ...(body.stage !== undefined ? { stage: body.stage } : {}),
        ...(body.override !== undefined ? { override: body.override } : {}),
      })
    })
  }

  async delegate(spec: DomainSpec, caller: Caller, actor: RecordActor, id: string, body: DelegateBody): Promise<ActionResult> {
    return this.act(spec, caller, actor, id, async (definition) => {
      const to = await this.delegateId(body.to)
      return (current) => delegate(current, definition, {
        actor: actorFor(caller, current), to, now: this.deps.now(),
        ...(body.comment !== undefined ? { comment: body.comment } : {}),
        ...(body.stage !== undefined ? { stage: body.stage } : {}),
      })
    })
  }

  async withdraw(spec: DomainSpec, caller: Caller, actor: RecordActor, id: string, body: WithdrawBody): Promise<ActionResult> {
    return this.act(spec, caller, actor, id, async (definition) => (current) => withdraw(current, definition, {
      actor: { id: submitterId(caller, current), admin: caller.admin }, now: this.deps.now(),
      ...(body.comment !== undefined ? { comment: body.comment } : {}),
    }))
  }

  /**
   * Runs an engine action on the entity's instance, then brings the entity in step with it. The action
   * sees everyone the entity names in its conflict fields now among the excluded (registry.ts).
   */
  private async act(
    spec: DomainSpec, caller: Caller, actor: RecordActor, id: string,
    run: (definition: WorkflowDefinition, entity: EntityView) => Promise<(current: StoredInstance) => Outcome<StoredInstance>>,
  ): Promise<ActionResult> {
    const { records, instances, definitions, projector } = this.deps
    const { entity, instance } = await visibleEntity(spec, caller, id, records, instances)
    if (!instance) throw new WorkflowConflictError(`${id} is ${entity.status}; it has not been submitted`, null, entity)
    const definition = await definitions.of(instance)
    const action = await run(definition, entity)
    const conflicts = conflictsOf(spec, entity)
    const acted = await instances.act(instance._id, (current) => action(exclude(current, conflicts)), instance)
    return { entity: await projector.project(spec, id, actor, { entity, instance: acted.instance }), instance: acted.instance }
  }

  /**
   * The workflow id of the person named as delegate: a Person id, or a User id (mapped to its Person).
   * The body's schema admits only such ids; whether one names a student is known only from the record.
   */
  private async delegateId(to: string): Promise<string> {
    const { records, schema } = this.deps
    const found = await records.get(to)
    let id: string | undefined
    if (found && schema.class(found.type)?.ancestors.includes('Person')) id = found._id
    else if (found?.type === 'User') id = (await workflowIdsOfUsers([found as never], records, schema))[0]!
    if (!id) throw new ReferenceNotFound(`to: no person or user ${to}`)
    const person = id === found?._id ? found : await records.get(id)
    const student = person ? schema.class(person.type)?.ancestors.includes('Student') : found?.role === 'student'
    if (student || found?.role === 'student') throw new ValidationFailed('to: a student cannot be delegated a decision')
    return id
  }
}

/**
 * Which of the caller's ids acts on the instance: one the engine must refuse (the submitter, whom the
 * entity is about, a nominator), else one asked in the current round (pending first), else the caller's own id.
 */
function actorFor(caller: Caller, instance: StoredInstance): Actor {
  const admin = caller.admin
  const barredPeople = barred(instance)
  const barredId = [...caller.ids].find((id) => barredPeople.has(id))
  if (barredId) return { id: barredId, admin }
  const approvals = instance.stages.flatMap((s) => s.approvals.filter((a) => a.round === instance.round && caller.ids.has(a.approver)))
  const asked = approvals.find((a) => a.status === 'pending') ?? approvals[0]
  return { id: asked?.approver ?? caller.id, admin }
}

function submitterId(caller: Caller, instance: StoredInstance | null): string {
  return instance && caller.ids.has(instance.submitter) ? instance.submitter : caller.id
}
