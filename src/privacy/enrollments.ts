import { gradePoints } from '../domain/grades.js'
import { compareTerms } from '../domain/terms.js'
import { RecordNotFound, ValidationFailed, hasStatus } from '../errors.js'
import type { ApiRecord, CreateOutcome, RecordService, WriteBy } from '../records/service.js'
import type { Course, Enrollment } from '../schema/generated/records.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'

type Fields = Record<string, unknown>

function byTermThenCourse(a: ApiRecord, b: ApiRecord): number {
  return compareTerms(String(a.term), String(b.term)) || String(a.course).localeCompare(String(b.course))
}

/**
 * Enrollments, the protected records of who took what and with which grade. Reads serve the student
 * endpoints and section rosters (their routes decide who may call them); writes go through the record
 * service with two rules of their own: `grade_points` always agree with the grade on the scale (filled in
 * when left out), and a section belongs to the enrollment's course and term.
 */
export class Enrollments {
  private readonly cls: ClassDef<'Enrollment'>
  private readonly courseCls: ClassDef<'Course'>
  private readonly sectionCls: ClassDef

  constructor(private readonly records: RecordService, schema: CompiledSchema) {
    this.cls = schema.class('Enrollment')!
    this.courseCls = schema.class('Course')!
    this.sectionCls = schema.class('Section')!
  }

  async ofStudent(studentId: string): Promise<Enrollment[]> {
    return (await this.records.find(this.cls, { student: studentId })).sort(byTermThenCourse)
  }

  async ofSection(sectionId: string): Promise<ApiRecord[]> {
    return this.records.find(this.cls, { section: sectionId }, { sort: [['student', 1]] })
  }

  /** The courses these enrollments are in, by id. */
  async coursesOf(enrollments: readonly ApiRecord[]): Promise<Map<string, Course>> {
    const ids = [...new Set(enrollments.map((e) => String(e.course)))]
    const courses = await this.records.find(this.courseCls, { _id: { $in: ids } })
    return new Map(courses.map((course) => [course._id, course]))
  }

  async create(input: unknown, by: WriteBy): Promise<ApiRecord> {
    const fields = { ...(input as Fields) }
    await this.checkSection(fields)
    return this.records.create(this.cls.name, withGradePoints(fields, fields, false), by)
  }

  /** Many at once, under the same rules (records.createMany): each refused one gets its 4xx as its outcome. */
  async createMany(inputs: readonly unknown[], by: WriteBy): Promise<CreateOutcome[]> {
    const named = inputs.map((input) => (input as Fields | null)?.section).filter((id): id is string => typeof id === 'string')
    const sections = new Map((await this.records.find(this.sectionCls, { _id: { $in: [...new Set(named)] } })).map((s) => [s._id, s]))
    const outcomes: CreateOutcome[] = new Array(inputs.length)
    const valid: { index: number; input: Fields }[] = []
    inputs.forEach((input, index) => {
      const fields = { ...(input as Fields) }
      try {
        sectionRule(fields, typeof fields.section === 'string' ? sections.get(fields.section) : undefined)
        valid.push({ index, input: withGradePoints(fields, fields, false) })
      } catch (error) {
        if (!hasStatus(error, 400)) throw error
        outcomes[index] = { error }
      }
    })
    const created = await this.records.createMany(this.cls.name, valid.map(({ input }) => ({ input })), by)
    valid.forEach(({ index }, i) => { outcomes[index] = created[i]! })
    return outcomes
  }

  async update(id: string, input: unknown, options: { expectVersion?: number } & WriteBy): Promise<ApiRecord> {
    const current = await this.get(id)
    const patch = { ...(input as Fields) }
    await this.checkSection({ ...current, ...patch })
    return this.records.update(id, withGradePoints(patch, { ...current, ...patch }, true), options)
  }

  async remove(id: string, by: WriteBy): Promise<void> {
    await this.get(id)
    await this.records.remove(id, by)
  }

  private async get(id: string): Promise<ApiRecord> {
    const found = id.startsWith(`${this.cls.name}/`) ? await this.records.get(id) : null
    if (!found) throw new RecordNotFound(`${id} not found`)
    return found
  }

  private async checkSection(fields: Fields): Promise<void> {
    if (typeof fields.section !== 'string') return
    sectionRule(fields, await this.records.get(fields.section))
  }
}

/** A section belongs to the enrollment's course and term. Anything but an existing section is reported by the record service's validation and reference check. */
function sectionRule(fields: Fields, section: ApiRecord | null | undefined): void {
  if (section?.type === 'Section' && (section.course !== fields.course || section.term !== fields.term)) {
    throw new ValidationFailed(`'section' is a section of ${String(section.course)} in ${String(section.term)}, not of this enrollment's course and term`)
  }
}

/**
 * Sets `grade_points` from the grade (removes them for P, NP, I, W or no grade). Points that were sent
 * and disagree with the scale are refused; the message names no grade, since it is kept in the audit log.
 */
function withGradePoints(fields: Fields, merged: Fields, isUpdate: boolean): Fields {
  if (isUpdate && !('grade' in fields) && !('grade_points' in fields)) return fields
  const expected = gradePoints(typeof merged.grade === 'string' ? merged.grade : undefined)
  const given = fields.grade_points
  if (given !== undefined && given !== null && given !== expected) {
    throw new ValidationFailed(expected === undefined
      ? "'grade_points' must be left out: the grade carries no grade points"
      : "'grade_points' disagrees with the grade scale; leave it out and it is filled in from the grade")
  }
  if (expected !== undefined) return { ...fields, grade_points: expected }
  const { grade_points: _dropped, ...rest } = fields
  return isUpdate ? { ...rest, grade_points: null } : rest
}
