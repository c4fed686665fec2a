import { amountFor, type Prepared, type Slot } from './prepare.js'

/** What the allocation maximises: satisfied rules first, then overall progress. */
export interface Score {
  readonly satisfied: number
  readonly progress: number
}

/** Progress sums of different orders may differ in the last bits; closer than this counts as a tie. */
const epsilon = 1e-9

/** Positive when a is better than b, negative when worse, 0 on a tie. */
export function compareScores(a: Score, b: Score): number {
  if (a.satisfied !== b.satisfied) return a.satisfied - b.satisfied
  const diff = a.progress - b.progress
  return Math.abs(diff) <= epsilon ? 0 : diff
}

/** Per slot, what the courses on it add up to: the allocation's courses, forced ones, and shared matches. */
function slotTotals(prepared: Prepared, allocation: readonly number[]): number[] {
  const totals = prepared.slots.map(() => 0)
  for (const item of prepared.items) {
    const own = allocation[item.index]!
    if (own >= 0) totals[own]! += amountFor(item, prepared.slots[own]!)
    for (const s of item.eligible) {
      const slot = prepared.slots[s]!
      if (slot.shared) totals[s]! += amountFor(item, slot)
    }
  }
  return totals
}

export function slotProgress(slot: Slot, total: number): number {
  return slot.target > 0 ? Math.min(1, total / slot.target) : 0
}

export function slotSatisfied(slot: Slot, total: number): boolean {
  return slot.target > 0 && total >= slot.target
}

/** Mean over groups of the mean over their rules; a group without rules counts as 0. */
export function overallProgress(groupRuleCounts: readonly number[], slots: readonly Slot[], progress: readonly number[]): number {
  if (!groupRuleCounts.length) return 0
  const sums = groupRuleCounts.map(() => 0)
  for (const slot of slots) sums[slot.group]! += progress[slot.index]!
  return sums.reduce((acc, sum, g) => acc + (groupRuleCounts[g]! ? sum / groupRuleCounts[g]! : 0), 0) / groupRuleCounts.length
}

export function scoreOf(prepared: Prepared, allocation: readonly number[]): Score {
  const totals = slotTotals(prepared, allocation)
  const progress = prepared.slots.map((slot) => slotProgress(slot, totals[slot.index]!))
  return {
    satisfied: prepared.slots.filter((slot) => slotSatisfied(slot, totals[slot.index]!)).length,
    progress: overallProgress(prepared.groupRuleCounts, prepared.slots, progress),
  }
}
