import { parseCourseCode } from '../course-code.js'
import { isMinimumGrade } from '../grades.js'
import { matchesPattern } from './prepare.js'
import { describePattern } from './remaining.js'
import type { CoursePattern } from './types.js'

/** A course the department offers, as the checker needs it. */
export interface CatalogCourse {
  readonly _id: string
  readonly course_code: string
  readonly credits?: number | null | undefined
}

/** A rule as a caller sent it: every field is checked, none is trusted. */
export interface RuleDraft {
  readonly _id?: unknown
  readonly name?: unknown
  readonly rule_type?: unknown
  readonly courses?: unknown
  readonly course_pattern?: unknown
  readonly count?: unknown
  readonly min_credits?: unknown
  readonly min_grade?: unknown
}

export interface GroupDraft {
  readonly _id?: unknown
  readonly name?: unknown
  readonly rules?: readonly RuleDraft[] | undefined
}

const ruleTypes = ['all_of', 'n_of', 'credits']

/**
 * Problems that would make a rule unmeetable or misread, each a sentence naming the rule and the field,
 * ready to be a 400 message. An empty list means the rule is sound against this catalog.
 */
export function checkRule(rule: RuleDraft, catalog: readonly CatalogCourse[]): string[] {
  const label = ruleLabel(rule)
  const problems: string[] = []
  const say = (field: string, text: string): void => { problems.push(`${label}: ${field} ${text}.`) }
  if (typeof rule.name !== 'string' || !rule.name.trim()) say('name', 'is required')
  if (typeof rule.rule_type !== 'string' || !ruleTypes.includes(rule.rule_type)) {
    say('rule_type', `must be all_of, n_of or credits; got ${shown(rule.rule_type)}`)
  }
  const byId = new Map(catalog.map((course) => [course._id, course]))
  const listed = listedCourses(rule.courses, byId, say)
  const pattern = rule.course_pattern === undefined || rule.course_pattern === null ? undefined : checkPattern(rule.course_pattern, say)
  if (rule.min_grade !== undefined && rule.min_grade !== null && !isMinimumGrade(rule.min_grade)) {
    say('min_grade', `must be a letter grade from A+ to D-, or P for any passing grade; got ${shown(rule.min_grade)}`)
  }

  const matching = pattern ? catalog.filter((course) => matchesPattern(parseCourseCode(course.course_code), pattern)) : []
  if (pattern && !matching.length) say('course_pattern', `(${describePattern(pattern)}) matches no course in the catalog`)
  const possible = new Map([...listed, ...matching].map((course) => [course._id, course]))
  // Capacity is judged only when everything that could count is known.
  const knowable = (rule.course_pattern == null || pattern !== undefined) && listed.length === listedCount(rule.courses)
  const empty = !listedCount(rule.courses)

  if (rule.rule_type === 'all_of') {
    if (empty) say('courses', 'is empty; an all_of rule needs the courses it requires')
    if (pattern) say('course_pattern', 'has no effect on an all_of rule, which counts listed courses only; use n_of or credits to count courses by pattern')
  }
  if ((rule.rule_type === 'n_of' || rule.rule_type === 'credits') && empty && rule.course_pattern == null) {
    say('courses', 'is empty and there is no course_pattern, so no course can count')
  }
  if (rule.rule_type === 'n_of') {
    if (rule.count === undefined || rule.count === null) say('count', 'is required for an n_of rule')
    else if (!Number.isInteger(rule.count) || (rule.count as number) < 1) say('count', `must be a whole number of at least 1; got ${shown(rule.count)}`)
    else if (knowable && possible.size && (rule.count as number) > possible.size) {
      say('count', `is ${rule.count as number}, but only ${possible.size} ${possible.size === 1 ? 'course' : 'courses'} could ever count toward it`)
    }
  }
  if (rule.rule_type === 'credits') {
    if (rule.min_credits === undefined || rule.min_credits === null) say('min_credits', 'is required for a credits rule')
    else if (typeof rule.min_credits !== 'number' || !(rule.min_credits > 0)) say('min_credits', `must be a positive number; got ${shown(rule.min_credits)}`)
    else if (knowable && possible.size) {
      const credits = [...possible.values()].map((course) => course.credits)
      const total = credits.reduce<number>((sum, c) => sum + (c ?? 0), 0)
      if (credits.every((c) => typeof c === 'number') && rule.min_credits > total) {
        say('min_credits', `is ${rule.min_credits}, but the courses that could count carry only ${total} credits`)
      }
    }
  }
  return problems
}

/** Problems of a degree's groups and all their rules. */
export function checkGroups(groups: readonly GroupDraft[], catalog: readonly CatalogCourse[]): string[] {
  return groups.flatMap((group, g) => {
    const label = typeof group.name === 'string' && group.name.trim() ? `Group "${group.name}"` : `Group ${g + 1}`
    const rules = group.rules ?? []
    return [...(rules.length ? [] : [`${label} has no rules, so it can never be completed.`]), ...rules.flatMap((rule) => checkRule(rule, catalog))]
  })
}

function listedCount(courses: unknown): number {
  return Array.isArray(courses) ? new Set(courses).size : 0
}

function ruleLabel(rule: RuleDraft): string {
  if (typeof rule.name === 'string' && rule.name.trim()) return `Rule "${rule.name}"`
  return typeof rule._id === 'string' ? `Rule ${rule._id}` : 'The rule'
}

function listedCourses(courses: unknown, byId: ReadonlyMap<string, CatalogCourse>, say: (field: string, text: string) => void): CatalogCourse[] {
  if (courses === undefined || courses === null) return []
  if (!Array.isArray(courses)) {
    say('courses', 'must be a list of course ids')
    return []
  }
  const found: CatalogCourse[] = []
  const seen = new Set<unknown>()
  courses.forEach((id: unknown, i) => {
    if (seen.has(id)) say(`courses[${i}]`, `lists ${shown(id)} a second time`)
    seen.add(id)
    const course = typeof id === 'string' ? byId.get(id) : undefined
    if (course) found.push(course)
    else say(`courses[${i}]`, `refers to ${shown(id)}, which is not a course in the catalog`)
  })
  return [...new Map(found.map((course) => [course._id, course])).values()]
}

function checkPattern(value: unknown, say: (field: string, text: string) => void): CoursePattern | undefined {
  if (typeof value !== 'object' || Array.isArray(value)) {
    say('course_pattern', 'must be an object {subject, min_level, max_level}')
    return undefined
  }
  const { subject, min_level: min, max_level: max } = value as Record<string, unknown>
  let sound = true
  if (typeof subject !== 'string' || !/^[A-Za-z]{2,6}$/.test(subject)) {
    say('course_pattern.subject', `must be the 2 to 6 subject letters of a course code, e.g. "CS"; got ${shown(subject)}`)
    sound = false
  }
  for (const [field, level] of [['min_level', min], ['max_level', max]] as const) {
    if (level !== undefined && level !== null && (!Number.isInteger(level) || (level as number) < 0)) {
      say(`course_pattern.${field}`, `must be a whole number of 0 or more; got ${shown(level)}`)
      sound = false
    }
  }
  if (sound && typeof min === 'number' && typeof max === 'number' && min > max) {
    say('course_pattern', `asks for course numbers from ${min} to ${max}, and ${min} is above ${max}`)
    sound = false
  }
  if (!sound || typeof subject !== 'string') return undefined
  const level = (given: unknown) => (typeof given === 'number' ? given : undefined)
  return { subject, min_level: level(min), max_level: level(max) }
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing'
  return JSON.stringify(value) ?? String(value)
}
