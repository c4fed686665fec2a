import { isPassing } from '../domain/grades.js'
import { planWarnings, type PlanCourse, type PlanWarning } from '../domain/degrees/plan-warnings.js'
import type { Principal } from '../auth/principal.js'
import { ValidationFailed, VersionConflict, withHeaders } from '../errors.js'
import type { Enrollments } from '../privacy/enrollments.js'
import type { ApiRecord, RecordService, WriteBy } from '../records/service.js'
import type { StudentPlan } from '../schema/generated/records.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'

/**
 * Most credits a term may plan before the plan is warned: a heavy undergraduate term, and a full-time
 * graduate load. Other student types get the undergraduate figure.
 */
export const creditLoads: Readonly<Record<string, number>> = { UndergraduateStudent: 18, GraduateStudent: 12 }
const defaultLoad = 18

export type PlanWithWarnings = ApiRecord & { readonly warnings: readonly PlanWarning[] }

/** Set only by a major-plan approval (src/workflows), never by a plan's own writer. */
const approvalFields = ['approved_at', 'approval', 'review']

/** What an edit of an approved plan clears: it no longer carries the approval, nor names the review. */
const voidedFields = { approved_at: null, approval: null, review: null }

/**
 * What the plan's major-plan reviews allow (src/workflows/plan-reviews.ts, docs/degree-audit.md): no change
 * while a review is in progress; a change to an approved plan voids the approval.
 */
export interface PlanReviewGate {
  /** Refuses (409 naming the review) while the plan is under review; else the approval a change voids, if any. */
  voidedBy(plan: ApiRecord): Promise<string | undefined>
  /** Records in that approval's history that a change by `by` voided it. */
  recordVoid(approval: string, plan: ApiRecord, by: Principal | undefined): Promise<void>
  /** Refuses (409) to delete a plan under review, or one that has been reviewed. */
  checkRemovable(plan: ApiRecord): Promise<void>
}

function refuseApprovalFields(input: Record<string, unknown>): void {
  const field = approvalFields.find((f) => input[f] !== undefined)
  if (field) throw new ValidationFailed(`'${field}' is set by a major-plan approval, not by editing the plan`)
}

/**
 * Students' academic plans (docs/degree-audit.md). Plans are written through the record service (validation
 * and reference checks) and every answer carries the plan's warnings, computed from the catalog and the
 * student's enrollments at the time of the answer. Who may call is the routes' business.
 */
export class StudentPlans {
  readonly cls: ClassDef<'StudentPlan'>
  private readonly course: ClassDef<'Course'>

  constructor(
    private readonly records: RecordService, schema: CompiledSchema, private readonly enrollments: Enrollments, private readonly reviews: PlanReviewGate,
  ) {
    this.cls = schema.class('StudentPlan')!
    this.course = schema.class('Course')!
  }

  async get(id: string): Promise<StudentPlan | null> {
    return this.records.get(id, this.cls.name)
  }

  async ofStudent(student: ApiRecord): Promise<PlanWithWarnings[]> {
    const plans = await this.records.find(this.cls, { student: student._id }, { sort: [['_created_at', 1], ['_id', 1]] })
    return this.withWarnings(student, plans)
  }

  async create(student: ApiRecord, input: Record<string, unknown>, { actor }: WriteBy): Promise<PlanWithWarnings> {
    refuseApprovalFields(input)
    const [plan] = await this.withWarnings(student, [await this.records.create(this.cls.name, input, { actor })])
    return plan!
  }

  /**
   * A plan stays with its student: a `student` other than the plan's own is refused, never applied. The
   * write is a compare-and-set on the version the reviews were checked against, so a review that
   * started or an approval that landed in between makes it a 409 to read again.
   */
  async update(student: ApiRecord, plan: ApiRecord, patch: Record<string, unknown>, options: { expectVersion?: number; by?: Principal } & WriteBy): Promise<PlanWithWarnings> {
    refuseApprovalFields(patch)
    if (patch.student !== undefined && patch.student !== plan.student) {
      throw new ValidationFailed(`'student' cannot change: a plan stays with ${String(plan.student)}; create a new plan for another student`)
    }
    if (options.expectVersion !== undefined && options.expectVersion !== plan._version) {
      throw withHeaders(new VersionConflict(`${plan._id} is at version ${plan._version}, not ${options.expectVersion}; read it again`), { etag: `"${plan._version}"` })
    }
    const voids = await this.reviews.voidedBy(plan)
    const written = await this.records.update(plan._id, voids ? { ...patch, ...voidedFields } : patch, { actor: options.actor, expectVersion: plan._version, className: this.cls.name })
    if (voids) await this.reviews.recordVoid(voids, plan, options.by)
    const [updated] = await this.withWarnings(student, [written])
    return updated!
  }

  async remove(plan: ApiRecord, { actor }: WriteBy): Promise<void> {
    await this.reviews.checkRemovable(plan)
    await this.records.remove(plan._id, { actor })
  }

  private async withWarnings(student: ApiRecord, plans: readonly StudentPlan[]): Promise<PlanWithWarnings[]> {
    if (!plans.length) return []
    const enrollments = await this.enrollments.ofStudent(student._id)
    // Prerequisites are looked up too, so a warning can name them by code.
    const planned = new Set(plans.flatMap((plan) => plan.planned_courses.map((e) => e.course)))
    const found = await this.records.find(this.course, { _id: { $in: [...planned] } })
    const prerequisites = new Set(found.flatMap((c) => c.prerequisites).filter((id) => !planned.has(id)))
    const more = prerequisites.size ? await this.records.find(this.course, { _id: { $in: [...prerequisites] } }) : []
    const courses = new Map<string, PlanCourse>([...found, ...more].map((c) => [c._id, {
      course_code: c.course_code,
      credits: c.credits ?? null,
      prerequisites: c.prerequisites,
    }]))
    const taken = enrollments.map((e) => ({
      course: e.course,
      term: e.term,
      passed: e.status === 'completed' && isPassing(e.grade ?? null),
      inProgress: e.status === 'enrolled',
    }))
    const load = creditLoads[student.type] ?? defaultLoad
    return plans.map((plan) => ({ ...plan, warnings: planWarnings(plan.planned_courses, courses, taken, load) }))
  }
}
