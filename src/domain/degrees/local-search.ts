import type { Contest } from './search-plan.js'
import { amountFor } from './prepare.js'
import { compareScores, type Score } from './score.js'

/** Enough rounds for any sensible degree; each round must strictly improve, so this only bounds the time. */
const maxRounds = 200

/**
 * A good placement, quickly: first-fit over the contested courses, then moves of one course to another
 * rule and swaps of two courses between rules, each kept only if it improves the score, until none
 * does. Never worse than the first-fit it starts from. Used when the exact search is out of budget.
 */
export function localSearch(contest: Contest): number[] {
  const { items, options, slots } = contest
  const totals = slots.map((slot) => slot.target - contest.need[slot.index]!)
  const touched = [...new Set(options.flat())]
  const score = (): Score => {
    let satisfied = 0
    let progress = 0
    for (const s of touched) {
      const slot = slots[s]!
      if (totals[s]! >= slot.target) satisfied++
      progress += (slot.weight * Math.min(totals[s]!, slot.target)) / slot.target
    }
    return { satisfied, progress }
  }
  const choices = items.map(() => -1)
  items.forEach((item, i) => {
    const s = options[i]!.find((s) => totals[s]! < slots[s]!.target)
    if (s === undefined) return
    choices[i] = s
    totals[s]! += amountFor(item, slots[s]!)
  })
  const place = (i: number, s: number, sign: 1 | -1): void => {
    if (s >= 0) totals[s]! += sign * amountFor(items[i]!, slots[s]!)
  }
  const move = (i: number, to: number): void => {
    place(i, choices[i]!, -1)
    place(i, to, 1)
    choices[i] = to
  }

  let current = score()
  const tryChange = (apply: () => void, undo: () => void): boolean => {
    apply()
    const next = score()
    if (compareScores(next, current) > 0) {
      current = next
      return true
    }
    undo()
    return false
  }

  for (let round = 0; round < maxRounds; round++) {
    let improved = false
    for (let i = 0; i < items.length; i++) {
      for (const to of options[i]!) {
        const from = choices[i]!
        if (to !== from) improved = tryChange(() => move(i, to), () => move(i, from)) || improved
      }
    }
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const a = choices[i]!
        const b = choices[j]!
        if (a === b || !options[i]!.includes(b) || !options[j]!.includes(a)) continue
        improved = tryChange(() => { move(i, b); move(j, a) }, () => { move(i, a); move(j, b) }) || improved
      }
    }
    if (!improved) break
  }
  return choices
}
