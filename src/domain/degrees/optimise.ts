import { exactSearch, type Budget } from './exact-search.js'
import type { Contest } from './search-plan.js'
import { localSearch } from './local-search.js'
import { amountFor, type Item, type Prepared } from './prepare.js'

export interface Optimised {
  /** Per course, the slot (not shared) it counts toward, or -1. */
  readonly allocation: number[]
  /** False when some contest ran out of budget and was settled by local search. */
  readonly exact: boolean
}

/**
 * Places the courses on rules that do not allow sharing, best score first.
 *
 * 1. Forced courses are placed.
 * 2. A course that only one unfinished rule can use goes there: placing it never hurts, since no other
 *    rule wants it and a rule's progress never falls when it gets a course. Repeated until nothing moves.
 * 3. The courses left are wanted by two or more unfinished rules. They split into independent contests
 *    (rules linked by courses they both want), and each contest is solved exactly (see exact-search),
 *    or by local search when the search budget runs out.
 */
export function optimise(prepared: Prepared, maxStates: number): Optimised {
  const { slots, items } = prepared
  const need = slots.map((slot) => slot.target)
  const allocation = items.map((item) => item.fixed)
  const assign = (item: Item, s: number): void => {
    allocation[item.index] = s
    need[s] = Math.max(0, need[s]! - amountFor(item, slots[s]!))
  }
  for (const item of items) if (item.fixed >= 0) assign(item, item.fixed)

  const optionsOf = (item: Item): number[] =>
    item.eligible.filter((s) => !slots[s]!.shared && need[s]! > 0 && amountFor(item, slots[s]!) > 0)
  let open = items.filter((item) => item.fixed < 0)
  for (let moved = true; moved;) {
    moved = false
    const next: Item[] = []
    for (const item of open) {
      const options = optionsOf(item)
      if (options.length === 1) {
        assign(item, options[0]!)
        moved = true
      } else if (options.length > 1) {
        next.push(item)
      }
    }
    open = next
  }

  const budget: Budget = { left: maxStates }
  let exact = true
  for (const group of contests(open, optionsOf)) {
    const contest: Contest = { items: group.map(({ item }) => item), options: group.map(({ options }) => options), slots, need }
    let choices = exactSearch(contest, budget)
    if (!choices) {
      exact = false
      choices = localSearch(contest)
    }
    choices.forEach((s, i) => { if (s >= 0) assign(contest.items[i]!, s) })
  }
  return { allocation, exact }
}

/** The contested courses split by connected rules, each part in course order, parts by first course. */
function contests(open: readonly Item[], optionsOf: (item: Item) => number[]): { item: Item; options: number[] }[][] {
  const parent = new Map<number, number>()
  const find = (s: number): number => {
    let root = s
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root)!
    parent.set(s, root)
    return root
  }
  const entries = open.map((item) => ({ item, options: optionsOf(item) }))
  for (const { options } of entries) {
    const root = find(options[0]!)
    for (const s of options) parent.set(find(s), root)
  }
  const byRoot = new Map<number, { item: Item; options: number[] }[]>()
  for (const entry of entries) {
    const root = find(entry.options[0]!)
    const part = byRoot.get(root)
    if (part) part.push(entry)
    else byRoot.set(root, [entry])
  }
  return [...byRoot.values()]
}
