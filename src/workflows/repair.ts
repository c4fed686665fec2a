import type { Actor } from '../actor.js'
import { entityStatusOf, milestoneStatusOf, type WorkflowInstance } from '../domain/workflows/index.js'
import { WorkflowConflict, WriteContended, hasStatus } from '../errors.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import { instanceIdOf, type Instances } from './persistence.js'
import { registry, type DomainSpec } from './registry.js'
import type { EntityView, StoredInstance } from './types.js'

const projectAttempts = 5

/**
 * Ids per query of the sweep: a start-up after thousands of requests reads their entities and
 * instances in a few queries instead of one round trip each (on FerretDB, where only a lone `_id` is
 * indexed, each of those read a whole collection: the start took minutes).
 */
const sweepChunk = 1000

/** The documents with these ids, by id, read `sweepChunk` ids per query. */
async function byIds<T extends { readonly _id: string }>(ids: readonly string[], find: (chunk: string[]) => Promise<T[]>): Promise<Map<string, T>> {
  const found = new Map<string, T>()
  for (let at = 0; at < ids.length; at += sweepChunk) {
    for (const doc of await find(ids.slice(at, at + sweepChunk))) found.set(doc._id, doc)
  }
  return found
}

/**
 * The entity's fields that follow from its instance: `status` (submitted while in review), a
 * milestone's `milestone_status`. Null when the entity already shows them.
 */
export function projection(spec: DomainSpec, entity: Readonly<Record<string, unknown>>, instance: WorkflowInstance | null): Record<string, unknown> | null {
  const wanted: Record<string, unknown> = { status: entityStatusOf(instance) }
  if (spec.domain === 'graduate_milestones') {
    wanted.milestone_status = instance ? milestoneStatusOf(instance, true) : entity.milestone_status
  }
  return Object.entries(wanted).some(([field, value]) => entity[field] !== value) ? wanted : null
}

/** What else an approval changes (a major-plan approval marks its plan approved); run again by a repeat, so idempotent. */
export type OnApproved = (spec: DomainSpec, entity: EntityView, actor: Actor) => Promise<void>

/**
 * Submitting writes twice, the instance first and then the entity's status; every later action does
 * the same. So the instance is the truth and the entity's status a projection of it, written by a
 * compare-and-set on the entity's `_version` from the instance read after the entity: whichever
 * projection writes last wrote from the newest instance. A process that dies between the two writes
 * leaves an instance whose entity lags; `sweep` (at start-up and as a maintenance job) finds and
 * projects it. The reverse, an entity `submitted` with no instance, cannot arise from this order; the
 * sweep still returns such an entity to draft.
 */
export class Projector {
  constructor(
    private readonly records: RecordService,
    private readonly schema: CompiledSchema,
    private readonly instances: Instances,
    private readonly onApproved: OnApproved,
  ) {}

  /**
   * Brings the entity in step with its instance as it is now; the entity as it then stands. `read`: the
   * entity as an action read it and the instance that action then wrote, used for the first attempt
   * instead of reading both again. The instance was still read (written) after the entity, and the
   * write is conditional on the entity's version, so the order above holds; a lost race reads afresh.
   */
  async project(spec: DomainSpec, entityId: string, actor: Actor, read?: { entity: EntityView; instance: StoredInstance }): Promise<EntityView> {
    for (let attempt = 0; attempt < projectAttempts; attempt++) {
      const entity = attempt === 0 && read ? read.entity : await this.records.get(entityId, spec.entityClass)
      if (!entity) throw new WorkflowConflict(`${entityId} no longer exists`)
      const instance = attempt === 0 && read ? read.instance : await this.instances.ofEntity(entityId)
      const patch = projection(spec, entity, instance)
      if (!patch) return entity
      try {
        // Before the entity's write, so a crash between the two leaves the entity for the sweep to finish.
        if (patch.status === 'approved') await this.onApproved(spec, entity, actor)
        return await this.records.update(entityId, patch, { actor, expectVersion: entity._version, className: spec.entityClass })
      } catch (error) {
        if (!hasStatus(error, 409)) throw error
      }
    }
    throw new WriteContended(`${entityId} is being changed by others too often; try again`)
  }

  /**
   * Repairs what a crash between the two writes left: instances in review whose entity is not
   * `submitted`, and entities `submitted` whose instance is not in review (or missing). Both sets are
   * open work, so the sweep reads no closed history.
   */
  async sweep(actor: Actor): Promise<{ repaired: number }> {
    let repaired = 0
    const inReview = await this.instances.collection.find({ status: 'in_review' })
    for (const spec of registry.values()) {
      const cls = this.schema.class(spec.entityClass)!
      const mine = inReview.filter((instance) => instance.domain === spec.domain)
      const entities = await byIds(mine.map((instance) => instance.entity), (chunk) => this.records.find(cls, { _id: { $in: chunk } }))
      for (const instance of mine) {
        const entity = entities.get(instance.entity)
        if (entity && projection(spec, entity, instance)) {
          await this.project(spec, entity._id, actor)
          repaired++
        }
      }
      // After the first half, so that an entity it just submitted is read with its instance in review.
      const submitted = await this.records.find(cls, { status: 'submitted' })
      const instances = await byIds(submitted.map((entity) => instanceIdOf(entity._id)), (chunk) => this.instances.collection.find({ _id: { $in: chunk } }))
      for (const entity of submitted) {
        if (instances.get(instanceIdOf(entity._id))?.status === 'in_review') continue
        await this.project(spec, entity._id, actor)
        repaired++
      }
    }
    return { repaired }
  }
}
