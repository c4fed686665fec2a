import { amountFor, type Item, type Slot } from './prepare.js'
import type { Score } from './score.js'

/** Courses that more than one rule still wants, and the rules (slots) each may go to. */
export interface Contest {
  readonly items: readonly Item[]
  readonly options: readonly (readonly number[])[]
  readonly slots: readonly Slot[]
  /** What every slot still needs before the contest; the search changes it and puts it back. */
  readonly need: number[]
}

export interface Step {
  /** Position of the course in the contest. */
  readonly at: number
  readonly item: Item
  readonly options: readonly number[]
}

/** The contest's courses in search order, with what the courses from each step on can still give. */
export interface SearchPlan {
  readonly steps: readonly Step[]
  /** Slots the courses from each step on can reach, ascending. */
  readonly reach: readonly (readonly number[])[]
  /** Per step and reachable slot: what those courses could give the slot in all, and the most one could. */
  readonly supply: readonly (readonly number[])[]
  readonly largest: readonly (readonly number[])[]
  /** Per step: the most progress those courses could add, each on its best rule and ignoring caps. */
  readonly gainLeft: readonly number[]
}

/** Courses with the same options go together, so rules leave the search's key early. */
export function planSearch(contest: Contest): SearchPlan {
  const { items, options, slots } = contest
  const steps = items
    .map((item, at) => ({ at, item, options: options[at]! }))
    .sort((a, b) => compareOptions(a.options, b.options) || a.item.index - b.item.index)
  const reach: number[][] = []
  const supply: number[][] = []
  const largest: number[][] = []
  const gainLeft: number[] = []
  const total = new Map<number, number>()
  const most = new Map<number, number>()
  let gain = 0
  reach[steps.length] = []
  gainLeft[steps.length] = 0
  for (let step = steps.length - 1; step >= 0; step--) {
    const { item, options: own } = steps[step]!
    let bestGain = 0
    for (const s of own) {
      const slot = slots[s]!
      const amount = amountFor(item, slot)
      total.set(s, (total.get(s) ?? 0) + amount)
      most.set(s, Math.max(most.get(s) ?? 0, amount))
      bestGain = Math.max(bestGain, (slot.weight * Math.min(amount, slot.target)) / slot.target)
    }
    gain += bestGain
    reach[step] = [...total.keys()].sort((a, b) => a - b)
    supply[step] = reach[step]!.map((s) => total.get(s)!)
    largest[step] = reach[step]!.map((s) => most.get(s)!)
    gainLeft[step] = gain
  }
  return { steps, reach, supply, largest, gainLeft }
}

/**
 * The most the courses from this step on could still add. Progress: each rule given all the courses
 * it could take, and no more than each course on its best rule. Satisfied rules: only rules those
 * courses could complete, cheapest first, while the courses last (each course serves one rule).
 */
export function ceiling(plan: SearchPlan, step: number, need: readonly number[], slots: readonly Slot[]): Score {
  const reach = plan.reach[step]!
  const supply = plan.supply[step]!
  const largest = plan.largest[step]!
  let progress = 0
  const costs: number[] = []
  for (let k = 0; k < reach.length; k++) {
    const s = reach[k]!
    const left = need[s]!
    if (left <= 0) continue
    const slot = slots[s]!
    const got = Math.min(left, supply[k]!)
    progress += (slot.weight * got) / slot.target
    if (got === left) costs.push(slot.byCredits ? Math.ceil(left / largest[k]!) : left)
  }
  costs.sort((a, b) => a - b)
  let coursesLeft = plan.steps.length - step
  let satisfied = 0
  for (const cost of costs) {
    if (cost > coursesLeft) break
    coursesLeft -= cost
    satisfied++
  }
  return { satisfied, progress: Math.min(progress, plan.gainLeft[step]!) }
}

function compareOptions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!
  }
  return a.length - b.length
}
