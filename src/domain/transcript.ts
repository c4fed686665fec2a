import { gpa, gradePoints, gradeRank, isGrade, isPassing } from './grades.js'
import { compareTerms } from './terms.js'

export interface TranscriptEnrollment {
  readonly _id: string
  readonly course: string
  readonly term: string
  readonly status: string
  readonly section?: string
  readonly credits?: number
  readonly grade?: string
}

export interface CourseInfo {
  readonly course_code?: string
  readonly title?: string
  readonly credits?: number
}

export interface TranscriptCourse {
  readonly enrollment: string
  readonly course: string
  readonly course_code: string | null
  readonly title: string | null
  readonly section: string | null
  readonly status: string
  readonly credits: number
  readonly grade: string | null
  readonly grade_points: number | null
  /** Left out of credits and GPA because another attempt at the same course counts instead. */
  readonly repeated: boolean
}

export interface TranscriptTerm {
  readonly term: string
  readonly courses: TranscriptCourse[]
  /** Credits attempted in the term (counted attempts with a final grade). */
  readonly credits: number
  readonly credits_earned: number
  readonly gpa: number | null
}

export interface Transcript {
  readonly terms: TranscriptTerm[]
  readonly cumulative: { readonly credits_attempted: number; readonly credits_earned: number; readonly gpa: number | null }
}

interface Row {
  readonly enrollment: TranscriptEnrollment
  readonly course: CourseInfo | undefined
  readonly grade: string | null
  readonly credits: number
  /** A completed enrollment with a final grade: a letter (F included), P or NP. */
  readonly final: boolean
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places
const sum = (values: number[]) => round(values.reduce((a, b) => a + b, 0), 2)
const gpaOf = (rows: readonly Row[]) => {
  const value = gpa(rows)
  return value === null ? null : round(value, 2)
}

function rowOf(enrollment: TranscriptEnrollment, course: CourseInfo | undefined): Row {
  // A withdrawal shows as W whatever was recorded; only completed enrollments carry a final grade.
  const recorded = isGrade(enrollment.grade) ? enrollment.grade : null
  const grade = enrollment.status === 'withdrawn' ? 'W' : recorded
  const final = enrollment.status === 'completed' && grade !== null && grade !== 'I' && grade !== 'W'
  return { enrollment, course, grade, credits: enrollment.credits ?? course?.credits ?? 0, final }
}

/** Of two final attempts at a course, the one that counts: the better grade, then more credits, then the later term. */
function better(a: Row, b: Row): boolean {
  const byGrade = gradeRank(a.grade) - gradeRank(b.grade)
  if (byGrade !== 0) return byGrade > 0
  if (a.credits !== b.credits) return a.credits > b.credits
  return compareTerms(a.enrollment.term, b.enrollment.term) > 0
}

/** Final attempts that another attempt at the same course replaces. */
function repeatedRows(rows: readonly Row[]): Set<Row> {
  const best = new Map<string, Row>()
  for (const row of rows) {
    if (!row.final) continue
    const current = best.get(row.enrollment.course)
    if (!current || better(row, current)) best.set(row.enrollment.course, row)
  }
  return new Set(rows.filter((row) => row.final && best.get(row.enrollment.course) !== row))
}

/**
 * A student's transcript: terms in chronological order with their courses, attempted and earned credits
 * and GPA, and the cumulative figures. Dropped enrollments are left out; in-progress (I, or no grade yet)
 * and withdrawn (W) ones are listed but count for nothing. F counts as attempted with 0 points; P earns
 * credit and NP does not, neither affecting the GPA. When a course was taken more than once, only the
 * attempt that counts (best grade, then most credits, then latest term) enters credits and GPA; the others
 * are listed with `repeated: true`. GPAs and credits are rounded to two decimals.
 */
export function transcript(enrollments: readonly TranscriptEnrollment[], courses: ReadonlyMap<string, CourseInfo>): Transcript {
  const rows = enrollments.filter((e) => e.status !== 'dropped').map((e) => rowOf(e, courses.get(e.course)))
  const repeated = repeatedRows(rows)
  const isCounted = (row: Row) => row.final && !repeated.has(row)
  const counted = rows.filter(isCounted)
  const earned = (list: readonly Row[]) => sum(list.filter((row) => isPassing(row.grade)).map((row) => row.credits))

  const byTerm = new Map<string, Row[]>()
  for (const row of rows) byTerm.set(row.enrollment.term, [...(byTerm.get(row.enrollment.term) ?? []), row])
  const terms = [...byTerm.keys()].sort(compareTerms).map((term): TranscriptTerm => {
    const termRows = byTerm.get(term)!.sort((a, b) => (a.course?.course_code ?? a.enrollment.course).localeCompare(b.course?.course_code ?? b.enrollment.course))
    const termCounted = termRows.filter(isCounted)
    return {
      term,
      courses: termRows.map((row) => ({
        enrollment: row.enrollment._id,
        course: row.enrollment.course,
        course_code: row.course?.course_code ?? null,
        title: row.course?.title ?? null,
        section: row.enrollment.section ?? null,
        status: row.enrollment.status,
        credits: row.credits,
        grade: row.grade,
        grade_points: gradePoints(row.grade) ?? null,
        repeated: repeated.has(row),
      })),
      credits: sum(termCounted.map((row) => row.credits)),
      credits_earned: earned(termCounted),
      gpa: gpaOf(termCounted),
    }
  })
  return {
    terms,
    cumulative: { credits_attempted: sum(counted.map((row) => row.credits)), credits_earned: earned(counted), gpa: gpaOf(counted) },
  }
}
