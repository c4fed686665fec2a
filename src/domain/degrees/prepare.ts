import { parseCourseCode } from '../course-code.js'
import { compareTerms } from '../terms.js'
import { gradeRank, isPassing, meetsMinimum } from '../grades.js'
import type { AuditEnrollment, AuditInput, AuditRule, CoursePattern } from './types.js'

/** Credits are counted in hundredths so that sums of 1.5-credit courses stay exact. */
export const CREDIT_UNITS = 100

/** One place a rule takes in the degree (a rule listed in two groups takes two). */
export interface Slot {
  readonly index: number
  readonly group: number
  readonly rule: AuditRule
  readonly shared: boolean
  readonly byCredits: boolean
  /** What the rule needs, in courses or credit units; 0 when the rule cannot be met as written. */
  readonly target: number
  /** The rule's share of overall progress. */
  readonly weight: number
  readonly listed: ReadonlySet<string>
}

export type BlockReason = 'min_grade' | 'excluded' | 'forced_elsewhere'

/** A completed, passed course: the attempt that counts, and where it may go. */
export interface Item {
  readonly index: number
  readonly enrollment: AuditEnrollment
  readonly units: number
  /** Slots the course may count toward, ascending. */
  readonly eligible: readonly number[]
  /** The slot (not shared) an override forces it onto, or -1. */
  readonly fixed: number
  readonly forced: ReadonlySet<number>
  readonly blocked: readonly { readonly slot: number; readonly reason: BlockReason }[]
  /** Overrides naming rules that are not in this degree. */
  readonly strayRules: readonly string[]
}

export interface Prepared {
  readonly input: AuditInput
  readonly slots: readonly Slot[]
  readonly items: readonly Item[]
  /** Why an enrollment given does not take part at all (not completed, not passed, retaken). */
  readonly skipped: ReadonlyMap<string, string>
  readonly groupRuleCounts: readonly number[]
}

export function amountFor(item: Item, slot: Slot): number {
  return slot.byCredits ? item.units : 1
}

export function prepare(input: AuditInput): Prepared {
  const slots = buildSlots(input)
  const skipped = new Map<string, string>()
  const items: Item[] = []
  const ruleIds = new Set(slots.map((slot) => slot.rule._id))
  for (const attempts of passedCourses(input.enrollments, skipped)) {
    items.push(buildItem(items.length, attempts, slots, ruleIds))
  }
  return { input, slots, items, skipped, groupRuleCounts: input.groups.map((group) => group.rules.length) }
}

function buildSlots(input: AuditInput): Slot[] {
  const slots: Slot[] = []
  const groupCount = input.groups.length
  input.groups.forEach((group, g) => {
    for (const rule of group.rules) {
      const listed = new Set(rule.courses ?? [])
      slots.push({
        index: slots.length,
        group: g,
        rule,
        shared: rule.allow_shared === true,
        byCredits: rule.rule_type === 'credits',
        target: targetOf(rule, listed.size),
        weight: 1 / (groupCount * group.rules.length),
        listed,
      })
    }
  })
  return slots
}

function targetOf(rule: AuditRule, listedCount: number): number {
  const whole = (n: number | undefined): number => (n !== undefined && Number.isInteger(n) && n > 0 ? n : 0)
  switch (rule.rule_type) {
    case 'all_of': return listedCount
    case 'n_of': return whole(rule.count)
    case 'credits': return rule.min_credits !== undefined && rule.min_credits > 0 ? Math.round(rule.min_credits * CREDIT_UNITS) : 0
    default: return 0
  }
}

/**
 * Completed, passed enrollments grouped by course, the attempt that counts first: the best grade, then
 * the most credits, then the latest term. Everything left out gets a note saying why.
 */
function passedCourses(enrollments: readonly AuditEnrollment[], skipped: Map<string, string>): AuditEnrollment[][] {
  const byCourse = new Map<string, AuditEnrollment[]>()
  const all = new Map<string, AuditEnrollment[]>()
  for (const enrollment of enrollments) {
    const status = enrollment.status ?? 'completed'
    if (status !== 'completed') {
      skipped.set(enrollment._id, `not completed (${status})`)
      continue
    }
    all.set(enrollment.course, [...(all.get(enrollment.course) ?? []), enrollment])
    if (!enrollment.grade) skipped.set(enrollment._id, 'completed without a grade yet')
    else if (!isPassing(enrollment.grade)) skipped.set(enrollment._id, `grade ${enrollment.grade} does not count toward any rule`)
    else byCourse.set(enrollment.course, [...(byCourse.get(enrollment.course) ?? []), enrollment])
  }
  const courses: AuditEnrollment[][] = []
  for (const [course, passed] of byCourse) {
    const best = passed.reduce((a, b) => (betterAttempt(b, a) ? b : a))
    for (const other of passed) {
      if (other !== best) skipped.set(other._id, `${other.course_code} was taken again; the ${best.term} attempt (${best.grade}) counts`)
    }
    // Overrides follow the course, whichever attempt counts.
    courses.push([best, ...all.get(course)!.filter((e) => e !== best)])
  }
  return courses
}

function betterAttempt(a: AuditEnrollment, b: AuditEnrollment): boolean {
  const byGrade = gradeRank(a.grade) - gradeRank(b.grade)
  if (byGrade !== 0) return byGrade > 0
  if (a.credits !== b.credits) return a.credits > b.credits
  return compareTerms(a.term, b.term) > 0
}

const none: ReadonlySet<string> = new Set()

function buildItem(index: number, attempts: readonly AuditEnrollment[], slots: readonly Slot[], ruleIds: ReadonlySet<string>): Item {
  const enrollment = attempts[0]!
  const overrides = attempts.flatMap((attempt) => attempt.allocation_overrides ?? [])
  const excludedRules = overrides.length ? new Set(overrides.filter((o) => o.mode === 'exclude').map((o) => o.rule)) : none
  const forcedRules = overrides.length ? new Set(overrides.filter((o) => o.mode === 'force').map((o) => o.rule)) : none
  const code = parseCourseCode(enrollment.course_code)
  const eligible: number[] = []
  const forced = new Set<number>()
  const blocked: { slot: number; reason: BlockReason }[] = []
  let fixed = -1
  for (const slot of slots) {
    const matches = slot.listed.has(enrollment.course) || (slot.rule.rule_type !== 'all_of' && matchesPattern(code, slot.rule.course_pattern))
    if (excludedRules.has(slot.rule._id)) {
      if (matches || forcedRules.has(slot.rule._id)) blocked.push({ slot: slot.index, reason: 'excluded' })
    } else if (forcedRules.has(slot.rule._id)) {
      if (slot.shared) {
        forced.add(slot.index)
        eligible.push(slot.index)
      } else if (fixed === -1) {
        fixed = slot.index
        forced.add(slot.index)
        eligible.push(slot.index)
      } else {
        blocked.push({ slot: slot.index, reason: 'forced_elsewhere' })
      }
    } else if (matches) {
      if (slot.rule.min_grade === undefined || meetsMinimum(enrollment.grade, slot.rule.min_grade)) eligible.push(slot.index)
      else blocked.push({ slot: slot.index, reason: 'min_grade' })
    }
  }
  return {
    index,
    enrollment,
    units: Math.max(0, Math.round(enrollment.credits * CREDIT_UNITS)),
    eligible,
    fixed,
    forced,
    blocked,
    strayRules: overrides.length ? [...new Set(overrides.map((o) => o.rule))].filter((rule) => !ruleIds.has(rule)) : [],
  }
}

export function matchesPattern(code: { subject: string; level: number } | undefined, pattern: CoursePattern | undefined): boolean {
  if (!code || !pattern) return false
  if (code.subject !== pattern.subject.toUpperCase()) return false
  if (pattern.min_level !== undefined && code.level < pattern.min_level) return false
  return pattern.max_level === undefined || code.level <= pattern.max_level
}
