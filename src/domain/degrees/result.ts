import { explainCourses } from './explain.js'
import { amountFor, CREDIT_UNITS, type Item, type Prepared } from './prepare.js'
import { remainingFor } from './remaining.js'
import { overallProgress, slotProgress, slotSatisfied } from './score.js'
import type { AuditMethod, AuditResult, CountedCourse, GroupResult, RuleResult } from './types.js'

/**
 * Turns an allocation into the audit answer. A course that could still count somewhere but was not
 * needed is shown on the first rule it matches, marked extra, so every usable course appears somewhere.
 */
export function buildResult(prepared: Prepared, allocation: readonly number[], method: AuditMethod): AuditResult {
  const { slots, items, input } = prepared
  const codes = input.course_codes ?? {}
  const final = [...allocation]
  const surplus = placeSurplus(prepared, final)

  // Forced courses first, then the allocation's, then the surplus, so "extra" marks the ones not needed.
  const rank = (item: Item, s: number): number => (item.forced.has(s) ? 0 : surplus.has(item.index) && !slots[s]!.shared ? 2 : 1)
  const onSlot: Item[][] = slots.map(() => [])
  for (const item of items) {
    if (final[item.index]! >= 0) onSlot[final[item.index]!]!.push(item)
    for (const s of item.eligible) if (slots[s]!.shared) onSlot[s]!.push(item)
  }

  const extra = new Set<number>()
  const totals: number[] = []
  const courseLists: CountedCourse[][] = onSlot.map((list, s) => {
    const slot = slots[s]!
    let total = 0
    const counted = [...list].sort((a, b) => rank(a, s) - rank(b, s) || a.index - b.index).map((item) => {
      const isExtra = slot.target > 0 && total >= slot.target
      if (isExtra && !slot.shared) extra.add(item.index)
      total += amountFor(item, slot)
      return countedCourse(item, item.forced.has(s), isExtra)
    })
    totals[s] = total
    return counted
  })

  const progress = slots.map((slot) => slotProgress(slot, totals[slot.index]!))
  const placed = new Set(items.filter((item) => final[item.index]! >= 0).map((item) => item.enrollment.course))
  const rules: RuleResult[] = slots.map((slot) => ({
    _id: slot.rule._id,
    name: slot.rule.name,
    rule_type: slot.rule.rule_type,
    progress: progress[slot.index]!,
    satisfied: slotSatisfied(slot, totals[slot.index]!),
    courses: courseLists[slot.index]!,
    remaining: remainingFor(slot, totals[slot.index]!, onSlot[slot.index]!, placed, codes),
  }))
  const groups: GroupResult[] = input.groups.map((group, g) => {
    const own = rules.filter((_, s) => slots[s]!.group === g)
    return {
      _id: group._id,
      name: group.name,
      progress: own.length ? own.reduce((sum, rule) => sum + rule.progress, 0) / own.length : 0,
      satisfied_rules: own.filter((rule) => rule.satisfied).map(({ _id, name, courses }) => ({ _id, name, courses })),
      rules: own,
    }
  })
  return {
    overall_progress: overallProgress(prepared.groupRuleCounts, slots, progress),
    rules_satisfied: rules.filter((rule) => rule.satisfied).length,
    rules_total: rules.length,
    groups,
    explanation: {
      method,
      courses: explainCourses(input.enrollments, prepared, { allocation: final, extra }),
    },
  }
}

/** Places every course left over on a rule it matches: one that still needs it if any, else the first. */
function placeSurplus(prepared: Prepared, final: number[]): Set<number> {
  const { slots, items } = prepared
  const need = slots.map((slot) => slot.target)
  for (const item of items) {
    const s = final[item.index]!
    if (s >= 0) need[s]! -= amountFor(item, slots[s]!)
  }
  const surplus = new Set<number>()
  for (const item of items) {
    if (final[item.index]! >= 0) continue
    const own = item.eligible.filter((s) => !slots[s]!.shared)
    if (!own.length) continue
    const s = own.find((s) => need[s]! > 0 && amountFor(item, slots[s]!) > 0) ?? own[0]!
    final[item.index] = s
    need[s]! -= amountFor(item, slots[s]!)
    surplus.add(item.index)
  }
  return surplus
}

function countedCourse(item: Item, forced: boolean, extra: boolean): CountedCourse {
  const { enrollment } = item
  return {
    enrollment: enrollment._id,
    course: enrollment.course,
    course_code: enrollment.course_code,
    term: enrollment.term,
    grade: enrollment.grade ?? null,
    credits: item.units / CREDIT_UNITS,
    forced,
    extra,
  }
}
