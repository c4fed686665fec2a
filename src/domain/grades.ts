/**
 * Letter grades on the common US 4.0 scale. A+ earns the same points as A but still ranks above it,
 * so a minimum of A+ is stricter than a minimum of A.
 */
export const LETTER_GRADES = ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', 'D+', 'D', 'D-', 'F'] as const
/** Marks that carry no grade points: pass, no pass, incomplete, withdrawn. */
export const NON_GRADED_MARKS = ['P', 'NP', 'I', 'W'] as const
/** Grades a requirement may set as its minimum: any passing letter, or P for "any passing grade". */
export const MINIMUM_GRADES = ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', 'D+', 'D', 'D-', 'P'] as const

export type LetterGrade = (typeof LETTER_GRADES)[number]
export type Grade = LetterGrade | (typeof NON_GRADED_MARKS)[number]
export type MinimumGrade = (typeof MINIMUM_GRADES)[number]

const points: Readonly<Record<LetterGrade, number>> = {
  'A+': 4.0, A: 4.0, 'A-': 3.7, 'B+': 3.3, B: 3.0, 'B-': 2.7,
  'C+': 2.3, C: 2.0, 'C-': 1.7, 'D+': 1.3, D: 1.0, 'D-': 0.7, F: 0,
}

export function isGrade(value: unknown): value is Grade {
  return typeof value === 'string' && ((LETTER_GRADES as readonly string[]).includes(value) || (NON_GRADED_MARKS as readonly string[]).includes(value))
}

export function isLetterGrade(value: unknown): value is LetterGrade {
  return typeof value === 'string' && (LETTER_GRADES as readonly string[]).includes(value)
}

export function isMinimumGrade(value: unknown): value is MinimumGrade {
  return typeof value === 'string' && (MINIMUM_GRADES as readonly string[]).includes(value)
}

/** Grade points per credit; undefined for P, NP, I, W and anything that is not a grade. */
export function gradePoints(grade: string | null | undefined): number | undefined {
  return isLetterGrade(grade) ? points[grade] : undefined
}

/** A passing grade earns credit: any letter above F, or P. */
export function isPassing(grade: string | null | undefined): boolean {
  return grade === 'P' || (isLetterGrade(grade) && grade !== 'F')
}

/**
 * Position of a grade for comparisons, higher is better: A+ highest, then the letters down to D-, then P
 * (passing but meeting no letter minimum), then the non-passing marks.
 */
export function gradeRank(grade: string | null | undefined): number {
  if (isLetterGrade(grade)) return grade === 'F' ? 0 : LETTER_GRADES.length - LETTER_GRADES.indexOf(grade)
  return grade === 'P' ? 0.5 : -1
}

/**
 * Whether a grade satisfies a requirement's minimum. A minimum of P accepts any passing grade; a letter
 * minimum accepts letters at or above it, and never P.
 */
export function meetsMinimum(grade: string | null | undefined, minimum: string): boolean {
  if (!isPassing(grade) || !isMinimumGrade(minimum)) return false
  if (minimum === 'P') return true
  return isLetterGrade(grade) && gradeRank(grade) >= gradeRank(minimum)
}

export interface GradedCredits {
  readonly grade: string | null | undefined
  readonly credits: number
}

/**
 * Grade point average: the sum of points times credits over the credits that carry a letter grade
 * (F included, P/NP/I/W left out). Null when nothing is graded, so "no GPA yet" is not shown as 0.
 */
export function gpa(items: Iterable<GradedCredits>): number | null {
  let weighted = 0
  let credits = 0
  for (const item of items) {
    const value = gradePoints(item.grade)
    if (value === undefined || !(item.credits > 0)) continue
    weighted += value * item.credits
    credits += item.credits
  }
  return credits > 0 ? weighted / credits : null
}
