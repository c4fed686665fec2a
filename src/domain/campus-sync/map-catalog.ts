import { courseCodeKey } from '../course-code.js'
import type { OneRosterClass, OneRosterCourse } from './model.js'
import { defined, mapRows } from './rows.js'
import type { SyncTerm } from './terms.js'
import type { Mapped, SourceRef } from './types.js'

// The patterns of schema/academics.json, checked here so a bad row is reported rather than refused by the
// store; a course code is checked in its normal form, since feeds space it as they like.
const courseCodeKeyPattern = /^[A-Z]{2,6}[0-9]{2,4}[A-Z]?$/
const sectionNumberPattern = /^[A-Za-z0-9]{1,6}$/

/**
 * courses → Course: `courseCode` → course_code (inner spacing collapsed to one space, "CS  101" → "CS 101";
 * a course already on record keeps its own code, see the planner's `keptFields`), `title` → title.
 */
export function mapCourses(rows: readonly OneRosterCourse[], system: string): Mapped {
  return mapRows(rows, (row, fail) => {
    if (!row.courseCode) return fail('courseCode is missing')
    if (!courseCodeKeyPattern.test(courseCodeKey(row.courseCode))) return fail(`courseCode "${row.courseCode}" is not subject letters and a number, like CS 101`)
    if (!row.title) return fail('title is missing')
    return { kind: 'course', row: row.row, status: row.status, source: { system, sourced_id: row.sourcedId }, values: { course_code: row.courseCode.replace(/\s+/g, ' '), title: row.title }, refs: {} }
  })
}

export interface SectionContext {
  /** Courses a class may name: the sourcedIds of this run's courses and of those already synced. */
  readonly knownCourses: ReadonlySet<string>
  readonly terms: readonly SyncTerm[]
  /**
   * Teachers per class (from teacher enrollments), already narrowed to people known as synced. Absent
   * when this run has no enrollments, so instructors are left as they are.
   */
  readonly instructors?: ReadonlyMap<string, readonly string[]>
}

/** classes → Section: course, first term, `classCode` → section_number, location, teachers → instructors. */
export function mapSections(rows: readonly OneRosterClass[], system: string, context: SectionContext): Mapped {
  const termCodes = new Map(context.terms.map((term) => [term.sourced_id, term.code]))
  return mapRows(rows, (row, fail) => {
    if (!row.courseSourcedId) return fail('course is missing')
    if (!context.knownCourses.has(row.courseSourcedId)) return fail(`unknown course ${row.courseSourcedId}`)
    const term = row.termSourcedIds.map((id) => termCodes.get(id)).find((code) => code !== undefined)
    if (term === undefined) return fail(row.termSourcedIds.length === 0 ? 'terms are missing' : `none of its terms (${row.termSourcedIds.join(', ')}) is a known term`)
    const sectionNumber = sectionNumberOf(row.classCode)
    if (sectionNumber === undefined) return fail(row.classCode ? `classCode "${row.classCode}" holds no section number` : 'classCode is missing')
    const refs: Record<string, SourceRef | SourceRef[]> = { course: { kind: 'course', sourced_id: row.courseSourcedId } }
    const teachers = context.instructors?.get(row.sourcedId)
    if (context.instructors) refs.instructors = (teachers ?? []).map((id) => ({ kind: 'person' as const, sourced_id: id }))
    return { kind: 'section', row: row.row, status: row.status, source: { system, sourced_id: row.sourcedId }, values: defined({ term, section_number: sectionNumber, location: row.location }), refs }
  })
}

/** "01" stays "01"; "CS201-01" or "CS 201.02" give their last part, the way many systems spell a class code. */
function sectionNumberOf(classCode: string | undefined): string | undefined {
  if (!classCode) return undefined
  if (sectionNumberPattern.test(classCode)) return classCode
  const last = classCode.split(/[^A-Za-z0-9]+/).filter(Boolean).pop()
  return last !== undefined && sectionNumberPattern.test(last) ? last : undefined
}
