import type { Actor } from '../actor.js'
import type { Principal } from '../auth/principal.js'
import type { PlanReviewGate } from '../degrees/plans.js'
import { systemActor, voidApproval } from '../domain/workflows/index.js'
import { hasStatus, PlanUnderReview, type AppError } from '../errors.js'
import type { People } from '../privacy/relations.js'
import type { ApiRecord, RecordService } from '../records/service.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'
import type { Definitions } from './definitions.js'
import { instanceIdOf, type Instances } from './persistence.js'
import type { StoredInstance } from './types.js'

interface Review {
  readonly entity: ApiRecord
  readonly instance: StoredInstance | null
}

const voided = (instance: StoredInstance | null) => instance?.history.some((entry) => entry.action === 'voided') === true

/**
 * What a plan's major-plan reviews allow (docs/workflows.md, "Major plans: a plan under review, an approved plan"): a plan under review does not change; a change to
 * an approved plan voids the approval. The instances are the truth of where each review stands; the
 * plan's `review` field, written by a compare-and-set when a review starts (`fence`), makes a plan edit
 * that raced the start fail on the plan's `_version`, whichever of the two wrote first:
 * - the edit read the plan after the fence: it also reads the review's instance, in review, and is refused;
 * - the edit wrote before the fence: the fence fails and the submission withdraws its review (service.ts).
 * A plan is marked approved only while `review` still names the approval, so an edit that voided it
 * (clearing `review`) wins over a late projection of the approval.
 */
export class PlanReviews implements PlanReviewGate {
  /** Absent from a schema without the workflow classes, whose plans have no reviews. */
  private readonly cls: ClassDef | undefined

  constructor(
    private readonly records: RecordService,
    schema: CompiledSchema,
    private readonly instances: Instances,
    private readonly definitions: Definitions,
    private readonly people: People,
    private readonly now: () => Date,
  ) {
    this.cls = schema.class('MajorPlanApproval')
  }

  /** The plan's reviews, oldest first, each with its instance. */
  private async reviewsOf(planId: string): Promise<Review[]> {
    if (!this.cls) return []
    const entities = await this.records.find(this.cls, { plan: planId }, { sort: [['_created_at', 1], ['_id', 1]] })
    if (!entities.length) return []
    const instances = await this.instances.collection.find({ _id: { $in: entities.map((e) => instanceIdOf(e._id)) } })
    return entities.map((entity) => ({ entity, instance: instances.find((i) => i.entity === entity._id) ?? null }))
  }

  /** The review of the plan in progress, if any. */
  async inReview(planId: string): Promise<string | undefined> {
    return (await this.reviewsOf(planId)).find((r) => r.instance?.status === 'in_review')?.entity._id
  }

  private underReview(plan: ApiRecord, review: string): AppError {
    return new PlanUnderReview(`${plan._id} is under review in ${review}: a plan does not change while its major-plan approval is in review; withdraw it first`)
  }

  async voidedBy(plan: ApiRecord): Promise<string | undefined> {
    const reviews = await this.reviewsOf(plan._id)
    const open = reviews.find((r) => r.instance?.status === 'in_review')
    if (open) throw this.underReview(plan, open.entity._id)
    // The approval the plan carries, or one it is about to carry (approved, its projection not yet written).
    return reviews.find((r) => r.instance?.status === 'approved' && !voided(r.instance)
      && (r.entity._id === plan.approval || r.entity._id === plan.review))?.entity._id
  }

  async checkRemovable(plan: ApiRecord): Promise<void> {
    const reviews = await this.reviewsOf(plan._id)
    const open = reviews.find((r) => r.instance?.status === 'in_review')
    if (open) throw this.underReview(plan, open.entity._id)
    if (reviews.length) {
      throw new PlanUnderReview(`${plan._id} has major-plan approvals (${reviews.map((r) => r.entity._id).join(', ')}): a reviewed plan stays with its reviews; change it instead`)
    }
  }

  async recordVoid(review: string, plan: ApiRecord, by: Principal | undefined): Promise<void> {
    const instance = await this.instances.ofEntity(review)
    if (!instance) return
    const definition = await this.definitions.of(instance)
    const actor = { id: await this.actorOf(by) }
    const comment = `${plan._id} changed after this approval, which therefore no longer holds; the plan needs a new review`
    await this.instances.act(instance._id, (current) => voidApproval(current, definition, { actor, comment, now: this.now() }))
  }

  /**
   * Marks the review as the plan's, by a compare-and-set on the version the submission read; false when
   * the plan changed since (the review would not be of the plan as it stands).
   */
  async fence(plan: ApiRecord, review: string, actor: Actor): Promise<boolean> {
    try {
      await this.records.update(plan._id, { review }, { actor, expectVersion: plan._version })
      return true
    } catch (error) {
      if (hasStatus(error, 409)) return false
      throw error
    }
  }

  /**
   * An approved review marks its plan approved, once, and only while the plan is still the one it
   * reviewed (`review` names it). A lost race with an edit throws VersionConflict: the projection reads again.
   */
  async markApproved(entity: ApiRecord, actor: Actor): Promise<void> {
    if (typeof entity.plan !== 'string') return
    const plan = await this.records.get(entity.plan)
    if (!plan || plan.review !== entity._id || plan.approval === entity._id) return
    await this.records.update(plan._id, { approved_at: this.now().toISOString(), approval: entity._id }, { actor, expectVersion: plan._version })
  }

  /** Who history names for a change: the signed-in person's workflow id, else the API key. */
  private async actorOf(by: Principal | undefined): Promise<string> {
    if (!by) return systemActor
    if (by.kind !== 'user') return by.apiKey?.id ?? by.userId
    return (await this.people.personOf(by))?._id ?? by.userId
  }
}
