import { compareTerms } from '../terms.js'

/** One course of a plan, in the plan's order. */
export interface PlannedEntry {
  readonly course: string
  readonly term: string
}

export interface PlanCourse {
  readonly course_code: string
  readonly credits?: number | null | undefined
  /** Course ids to complete before this one. */
  readonly prerequisites?: readonly string[] | undefined
}

/** What the student has already taken: a passed course counts whenever it was; one in progress, from its term on. */
export interface TakenCourse {
  readonly course: string
  readonly term: string
  readonly passed: boolean
  readonly inProgress: boolean
}

export interface PlanWarning {
  readonly kind: 'prerequisite' | 'duplicate' | 'credit_load'
  readonly course?: string
  readonly term: string
  readonly credits?: number
  readonly message: string
}

/**
 * What a plan gets wrong, as warnings rather than refusals (a student may plan against advice): a course
 * planned before its prerequisites are passed, in progress earlier, or planned for an earlier term; a
 * course planned more than once; a term whose planned credits exceed `maxCredits`.
 */
export function planWarnings(
  planned: readonly PlannedEntry[],
  courses: ReadonlyMap<string, PlanCourse>,
  taken: readonly TakenCourse[],
  maxCredits: number,
): PlanWarning[] {
  const code = (id: string) => courses.get(id)?.course_code ?? id
  const before = (a: string, b: string) => compareTerms(a, b) < 0
  const warnings: PlanWarning[] = []
  const seen = new Map<string, string[]>()

  planned.forEach((entry) => {
    const earlierTerms = seen.get(entry.course)
    if (earlierTerms) {
      warnings.push({
        kind: 'duplicate', course: entry.course, term: entry.term,
        message: `${code(entry.course)} is planned more than once (${[...earlierTerms, entry.term].join(', ')}).`,
      })
    }
    seen.set(entry.course, [...(earlierTerms ?? []), entry.term])

    const missing = (courses.get(entry.course)?.prerequisites ?? []).filter((pre) =>
      !taken.some((t) => t.course === pre && (t.passed || (t.inProgress && before(t.term, entry.term)))) &&
      !planned.some((p) => p.course === pre && before(p.term, entry.term)))
    if (missing.length) {
      const names = missing.map(code)
      const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`
      warnings.push({
        kind: 'prerequisite', course: entry.course, term: entry.term,
        message: `${code(entry.course)} is planned for ${entry.term} before its ${missing.length === 1 ? 'prerequisite' : 'prerequisites'} ${list}: ${missing.length === 1 ? 'it is' : 'they are'} neither passed nor planned for an earlier term.`,
      })
    }
  })

  const loads = new Map<string, number>()
  for (const entry of planned) {
    // Hundredths, so 1.5-credit courses add up exactly.
    loads.set(entry.term, (loads.get(entry.term) ?? 0) + Math.round((courses.get(entry.course)?.credits ?? 0) * 100))
  }
  for (const term of [...loads.keys()].sort(compareTerms)) {
    const credits = loads.get(term)! / 100
    if (credits > maxCredits) {
      warnings.push({ kind: 'credit_load', term, credits, message: `${term} plans ${credits} credits, above the load of ${maxCredits} credits a term.` })
    }
  }
  return warnings
}
