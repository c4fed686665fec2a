import { auditDegree, type AuditEnrollment, type AuditGroup, type AuditResult } from '../domain/degrees/index.js'
import { DegreeNotChosen, RecordNotFound, ReferenceNotFound } from '../errors.js'
import type { Enrollments } from '../privacy/enrollments.js'
import type { ApiRecord, RecordService } from '../records/service.js'
import type { Course, Enrollment, StudentPlan } from '../schema/generated/records.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'
import type { DegreeRequirements } from './requirements.js'

/** Where the audited degree came from. */
export type DegreeSource = 'declared_major' | 'program' | 'requested'

export interface ProgressQuery {
  /** A what-if audit against this degree instead of the student's own. */
  readonly degree?: string
  /** A plan of the student whose courses are projected as completed. */
  readonly plan?: string
}

export interface ProgressAnswer extends AuditResult {
  readonly student: { _id: string; type: string; first_name: unknown; last_name: unknown }
  readonly degree: { _id: string; name: unknown; degree_type: unknown }
  readonly degree_source: DegreeSource
  readonly projected_progress?: number
  /** The audit with the plan's courses counted as completed. */
  readonly projection?: { readonly plan: { _id: string; plan_name: unknown } } & AuditResult
}

/**
 * A planned course is projected as passed with a grade that meets any rule's minimum: the projection
 * shows what the plan would complete, not a forecast of grades.
 */
const projectedGrade = 'A+'

const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [])

/**
 * A student's progress through a degree (docs/degree-audit.md): reads the degree's requirements and the
 * student's enrollments and hands them to the audit engine. The caller has already been allowed to see the
 * student.
 */
export class DegreeProgress {
  private readonly course: ClassDef<'Course'>

  constructor(
    private readonly records: RecordService,
    private readonly schema: CompiledSchema,
    private readonly enrollments: Enrollments,
    private readonly requirements: DegreeRequirements,
  ) {
    this.course = schema.class('Course')!
  }

  async of(student: ApiRecord, query: ProgressQuery): Promise<ProgressAnswer> {
    const { degree, source } = await this.degreeFor(student, query.degree)
    const plan = query.plan === undefined ? null : await this.planOf(student, query.plan)
    const [groups, enrollments] = await Promise.all([this.requirements.groupsOf(degree._id), this.enrollments.ofStudent(student._id)])
    const planned = plan ? plan.planned_courses : []
    const ruleCourses = groups.flatMap((g) => g.rules.flatMap((r) => r.courses))
    const ids = [...new Set([...enrollments.map((e) => e.course), ...planned.map((p) => p.course), ...ruleCourses])]
    const courses = new Map((await this.records.find(this.course, { _id: { $in: ids } })).map((c) => [c._id, c]))
    const course_codes = Object.fromEntries([...courses].map(([id, c]) => [id, c.course_code]))
    const auditGroups: AuditGroup[] = groups.map((g) => ({ _id: g._id, name: g.name, rules: g.rules }))
    const taken = enrollments.map((e) => auditEnrollment(e, courses.get(e.course)))
    const result = auditDegree({ groups: auditGroups, enrollments: taken, course_codes })

    const answer: ProgressAnswer = {
      student: { _id: student._id, type: student.type, first_name: student.first_name, last_name: student.last_name },
      degree: { _id: degree._id, name: degree.name, degree_type: degree.degree_type },
      degree_source: source,
      ...result,
    }
    if (!plan) return answer
    const projectedCourses = planned.map((p, i): AuditEnrollment => ({
      _id: `${plan._id}#${i}`,
      course: p.course,
      course_code: course_codes[p.course] ?? p.course,
      credits: creditsOf(courses.get(p.course)),
      grade: projectedGrade,
      term: p.term,
      status: 'completed',
    }))
    const projected = auditDegree({ groups: auditGroups, enrollments: [...taken, ...projectedCourses], course_codes })
    return {
      ...answer,
      projected_progress: projected.overall_progress,
      projection: { plan: { _id: plan._id, plan_name: plan.plan_name }, ...projected },
    }
  }

  /** The degree named in the request, else the student's own: the first declared major, or the program's degree. */
  private async degreeFor(student: ApiRecord, requested: string | undefined): Promise<{ degree: ApiRecord; source: DegreeSource }> {
    if (requested !== undefined) {
      const degree = await this.records.get(requested)
      if (degree?.type !== 'Degree') throw new ReferenceNotFound(`'degree' refers to ${requested}, which does not exist`)
      return { degree, source: 'requested' }
    }
    const byMajor = this.schema.class(student.type)?.properties.some((p) => p.name === 'declared_majors') ?? false
    const source: DegreeSource = byMajor ? 'declared_major' : 'program'
    let id: string | undefined
    if (byMajor) id = list(student.declared_majors)[0]
    else if (typeof student.program === 'string') {
      const program = await this.records.get(student.program)
      id = typeof program?.degree === 'string' ? program.degree : undefined
    }
    const degree = id === undefined ? null : await this.records.get(id)
    if (!degree) {
      const why = byMajor ? 'no declared major' : 'no program leading to a degree'
      throw new DegreeNotChosen(`${student._id} has no degree to audit (${why}); name one with degree=<Degree id>`)
    }
    return { degree, source }
  }

  /** One of the student's plans; a plan of anyone else is reported as not found, like a missing one. */
  private async planOf(student: ApiRecord, id: string): Promise<StudentPlan> {
    const plan = await this.records.get(id, 'StudentPlan')
    if (!plan || plan.student !== student._id) throw new RecordNotFound(`${id} is not a plan of ${student._id}`)
    return plan
  }
}

function creditsOf(course: Course | undefined): number {
  return course?.credits ?? 0
}

function auditEnrollment(enrollment: Enrollment, course: Course | undefined): AuditEnrollment {
  return {
    _id: enrollment._id,
    course: enrollment.course,
    course_code: course?.course_code ?? enrollment.course,
    credits: enrollment.credits ?? creditsOf(course),
    grade: enrollment.grade ?? null,
    term: enrollment.term,
    status: enrollment.status,
    allocation_overrides: enrollment.allocation_overrides,
  }
}
