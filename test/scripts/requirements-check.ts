import { parseCourseCode } from '../../src/domain/course-code.js'
import type { SampleCatalog } from '../../scripts/sample/index.js'

const letterOrder = ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', 'D+', 'D', 'D-', 'F']

export interface Taken {
  readonly course: string
  readonly credits: number
  /** Letter grade or P; undefined while in progress, which counts as passing for a projection. */
  readonly grade?: string
}

interface Rule {
  readonly rule_type: string
  readonly courses: readonly string[]
  readonly course_pattern?: { subject: string; min_level?: number; max_level?: number }
  readonly count?: number
  readonly min_credits?: number
  readonly min_grade?: string
  readonly allow_shared?: boolean
}

function meetsGrade(grade: string | undefined, min: string | undefined): boolean {
  if (grade === 'F') return false
  if (!min || grade === undefined) return true
  if (grade === 'P') return false
  return letterOrder.indexOf(grade) <= letterOrder.indexOf(min)
}

/** The degree's rules in group order. */
export function degreeRules(catalog: SampleCatalog, degreeId: string): Rule[] {
  const rules = new Map(catalog.requirementRules.map((r) => [r.id, r.body as unknown as Rule]))
  return catalog.requirementGroups
    .filter((g) => g.body.degree === degreeId)
    .sort((a, b) => (a.body.order as number) - (b.body.order as number))
    .flatMap((g) => (g.body.rules as string[]).map((id) => rules.get(id)!))
}

/**
 * A first-fit allocation of the courses to the rules, in order: each course serves one rule unless the
 * rule allows sharing. When it satisfies every rule, the course list meets the degree.
 */
export function satisfiesAll(rules: readonly Rule[], taken: readonly Taken[], codeOf: (id: string) => string): boolean {
  const used = new Set<string>()
  return rules.every((rule) => {
    const matching = taken.filter((t) => {
      if (!meetsGrade(t.grade, rule.min_grade) || (!rule.allow_shared && used.has(t.course))) return false
      if (rule.courses.includes(t.course)) return true
      const code = parseCourseCode(codeOf(t.course))!
      const p = rule.course_pattern
      return !!p && p.subject === code.subject && code.level >= (p.min_level ?? 0) && code.level <= (p.max_level ?? Infinity)
    })
    let chosen: Taken[]
    if (rule.rule_type === 'all_of') {
      chosen = matching.filter((t) => rule.courses.includes(t.course))
      if (new Set(chosen.map((t) => t.course)).size < rule.courses.length) return false
    } else if (rule.rule_type === 'n_of') {
      chosen = matching.slice(0, rule.count)
      if (chosen.length < (rule.count ?? 1)) return false
    } else {
      chosen = []
      let credits = 0
      for (const t of matching) {
        if (credits >= (rule.min_credits ?? 0)) break
        chosen.push(t)
        credits += t.credits
      }
      if (credits < (rule.min_credits ?? 0)) return false
    }
    if (!rule.allow_shared) chosen.forEach((t) => used.add(t.course))
    return true
  })
}
