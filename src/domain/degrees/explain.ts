import type { Item, Prepared } from './prepare.js'
import type { AuditEnrollment, CourseExplanation } from './types.js'

export interface Placement {
  /** Per course, the slot (not shared) it counts toward, or -1. */
  readonly allocation: readonly number[]
  /** Courses whose slot was already satisfied without them. */
  readonly extra: ReadonlySet<number>
}

/** One entry per enrollment given, saying where it counts or why it does not. */
export function explainCourses(enrollments: readonly AuditEnrollment[], prepared: Prepared, placement: Placement): CourseExplanation[] {
  const itemOf = new Map(prepared.items.map((item) => [item.enrollment._id, item]))
  return enrollments.map((enrollment) => {
    const base = {
      enrollment: enrollment._id,
      course: enrollment.course,
      course_code: enrollment.course_code,
      term: enrollment.term,
      grade: enrollment.grade ?? null,
    }
    const item = itemOf.get(enrollment._id)
    if (!item || prepared.skipped.has(enrollment._id)) {
      return { ...base, counted_toward: [], note: sentence(prepared.skipped.get(enrollment._id) ?? 'not considered') }
    }
    return explainItem(base, item, prepared, placement)
  })
}

function explainItem(base: Omit<CourseExplanation, 'counted_toward' | 'note'>, item: Item, prepared: Prepared, placement: Placement): CourseExplanation {
  const { slots } = prepared
  const nameOf = (s: number): string => `"${slots[s]!.rule.name}"`
  const own = placement.allocation[item.index]!
  const shared = item.eligible.filter((s) => slots[s]!.shared)
  const parts: string[] = []
  if (own >= 0) {
    const how = item.fixed === own ? ' (placed there by an override)' : ''
    const extra = placement.extra.has(item.index) ? ', which was already met without it' : ''
    parts.push(`counts toward ${nameOf(own)}${how}${extra}`)
  }
  if (shared.length) {
    parts.push(`${own >= 0 ? 'also counts' : 'counts'} toward ${shared.map(nameOf).join(', ')} (shared)`)
  }
  if (!parts.length && !item.blocked.length) parts.push('matches no rule of this degree')
  for (const { slot, reason } of item.blocked) {
    if (reason === 'min_grade') {
      parts.push(`not toward ${nameOf(slot)}: grade ${item.enrollment.grade} is below its minimum ${slots[slot]!.rule.min_grade}`)
    } else if (reason === 'excluded') {
      parts.push(`kept off ${nameOf(slot)} by an override`)
    } else {
      parts.push(`not toward ${nameOf(slot)}: an override also forces it there, but a course counts toward only one rule that does not allow sharing`)
    }
  }
  for (const rule of item.strayRules) parts.push(`an override names rule ${rule}, which is not part of this degree`)
  const counted = [...(own >= 0 ? [own] : []), ...shared].map((s) => ({ rule: slots[s]!.rule._id, name: slots[s]!.rule.name }))
  return { ...base, counted_toward: counted, note: sentence(parts.join('; ')) }
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
}
