import { amountFor } from './prepare.js'
import { compareScores, type Score } from './score.js'
import { ceiling, planSearch, type Contest, type SearchPlan } from './search-plan.js'

export interface Budget {
  left: number
}

interface Entry extends Score {
  readonly choice: number
}

class BudgetExhausted extends Error {}

const finished: Entry = { satisfied: 0, progress: 0, choice: -1 }

/**
 * The best placement of the contested courses, or undefined when the budget runs out first.
 *
 * Dynamic programming over the courses one at a time. A rule's contribution depends only on what it
 * still needs, so the best completion from course i depends only on i and on the needs of the rules
 * that courses i.. can still reach: that pair is the memo key. A state stops trying options once one
 * reaches the ceiling of what its remaining courses could give (see search-plan), since nothing can
 * beat it. Ties keep the earlier rule, so the answer depends on nothing but the input.
 */
export function exactSearch(contest: Contest, budget: Budget): number[] | undefined {
  const { slots, need } = contest
  const plan = planSearch(contest)
  const { steps } = plan
  const memo = new Map<string, Entry>()
  const keyAt = memoKey(plan, contest)

  const solve = (step: number): Entry => {
    if (step === steps.length) return finished
    const key = keyAt(step)
    const known = memo.get(key)
    if (known) return known
    if (--budget.left < 0) throw new BudgetExhausted()
    const { item, options } = steps[step]!
    let best: Entry | undefined
    let top: Score | undefined
    for (const s of options) {
      const before = need[s]!
      if (before <= 0) continue
      const slot = slots[s]!
      const after = Math.max(0, before - amountFor(item, slot))
      need[s] = after
      const rest = solve(step + 1)
      need[s] = before
      const entry = {
        satisfied: rest.satisfied + (after === 0 ? 1 : 0),
        progress: rest.progress + (slot.weight * (before - after)) / slot.target,
        choice: s,
      }
      if (!best || compareScores(entry, best) > 0) best = entry
      top ??= ceiling(plan, step, need, slots)
      if (compareScores(best, top) >= 0) break
    }
    const entry = best ?? { ...solve(step + 1), choice: -1 }
    memo.set(key, entry)
    return entry
  }

  const saved = [...need]
  try {
    solve(0)
  } catch (error) {
    if (!(error instanceof BudgetExhausted)) throw error
    // The search stopped half-way through trying options: put back what it was trying.
    saved.forEach((value, s) => { need[s] = value })
    return undefined
  }
  return replay(plan, contest, (step) => memo.get(keyAt(step)))
}

/** One character per need keeps the key short and cheap to build; larger numbers fall back to text. */
function memoKey(plan: SearchPlan, { slots, need }: Contest): (step: number) => string {
  const wide = plan.steps.length > 0xffff || slots.some((slot) => slot.target > 0xffff)
  const codes: number[] = []
  return (step) => {
    const reach = plan.reach[step]!
    codes.length = reach.length + 1
    codes[0] = step
    for (let k = 0; k < reach.length; k++) codes[k + 1] = need[reach[k]!]!
    return wide ? codes.join(',') : String.fromCharCode(...codes)
  }
}

/** Follows the remembered choices from the first course on; every state on that path is exact. */
function replay(plan: SearchPlan, { items, slots, need }: Contest, entryAt: (step: number) => Entry | undefined): number[] {
  const choices = items.map(() => -1)
  const saved = [...need]
  plan.steps.forEach(({ at, item }, step) => {
    const entry = entryAt(step)!
    choices[at] = entry.choice
    if (entry.choice >= 0) need[entry.choice] = Math.max(0, need[entry.choice]! - amountFor(item, slots[entry.choice]!))
  })
  saved.forEach((value, s) => { need[s] = value })
  return choices
}
