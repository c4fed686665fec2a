import { CREDIT_UNITS, type Item, type Slot } from './prepare.js'
import type { CoursePattern, Remaining } from './types.js'

/**
 * What a rule still needs, or null once it is satisfied. An all_of rule lists every required course it
 * lacks; the others list the courses that could still help, leaving out ones already counted elsewhere.
 */
export function remainingFor(slot: Slot, total: number, counted: readonly Item[], elsewhere: ReadonlySet<string>, codes: Readonly<Record<string, string>>): Remaining | null {
  const { rule } = slot
  if (slot.target > 0 && total >= slot.target) return null
  const here = new Set(counted.map((item) => item.enrollment.course))
  const missing = [...slot.listed].filter((id) => !here.has(id))
  const courses = rule.rule_type === 'all_of' ? missing : missing.filter((id) => !elsewhere.has(id))
  const pattern = rule.rule_type === 'all_of' ? null : (rule.course_pattern ?? null)
  if (slot.target <= 0) {
    return { count: 0, credits: 0, courses, pattern, text: 'This rule cannot be met as written; the department needs to correct it.' }
  }
  const short = slot.target - total
  const name = (id: string): string => codes[id] ?? id
  const amount = slot.byCredits ? short / CREDIT_UNITS : short
  const unit = slot.byCredits ? (amount === 1 ? 'credit' : 'credits') : amount === 1 ? 'course' : 'courses'
  const remaining = { count: slot.byCredits ? 0 : amount, credits: slot.byCredits ? amount : 0, courses, pattern }
  if (rule.rule_type === 'all_of' && amount === courses.length) {
    return { ...remaining, text: `Still to complete: ${list(courses.map(name), 'and')}.` }
  }
  const sources = [...courses.map(name), ...(pattern ? [describePattern(pattern)] : [])]
  if (sources.length) return { ...remaining, text: `${amount} more ${unit} from ${list(sources, 'or')}.` }
  const used = missing.filter((id) => elsewhere.has(id)).map(name)
  if (!used.length) return { ...remaining, text: `${amount} more ${unit}, but every course the rule lists already counts here; the department needs to correct the rule.` }
  return { ...remaining, text: `${amount} more ${unit}; ${list(used, 'and')} already ${used.length === 1 ? 'counts' : 'count'} toward other rules.` }
}

/** "any CS course numbered 300 to 499", "any MATH course numbered 200 or above". */
export function describePattern(pattern: CoursePattern): string {
  const subject = pattern.subject.toUpperCase()
  const { min_level: min, max_level: max } = pattern
  if (min !== undefined && max !== undefined) return `any ${subject} course numbered ${min} to ${max}`
  if (min !== undefined) return `any ${subject} course numbered ${min} or above`
  if (max !== undefined) return `any ${subject} course numbered ${max} or below`
  return `any ${subject} course`
}

export function list(parts: readonly string[], conjunction: 'and' | 'or'): string {
  if (parts.length <= 1) return parts.join('')
  return `${parts.slice(0, -1).join(', ')} ${conjunction} ${parts[parts.length - 1]}`
}
