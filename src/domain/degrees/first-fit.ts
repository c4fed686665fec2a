import { amountFor, prepare, type Prepared } from './prepare.js'
import { buildResult } from './result.js'
import type { AuditInput, AuditResult } from './types.js'

/**
 * The greedy baseline: after forced courses are placed, each course in the order given goes to the first
 * rule (in degree order) that it matches and that still needs something. Rules that allow sharing take
 * every matching course anyway, so only the others are placed here.
 */
export function firstFitAllocation(prepared: Prepared): number[] {
  const need = prepared.slots.map((slot) => slot.target)
  const allocation = prepared.items.map((item) => item.fixed)
  for (const item of prepared.items) {
    if (item.fixed >= 0) need[item.fixed]! -= amountFor(item, prepared.slots[item.fixed]!)
  }
  for (const item of prepared.items) {
    if (item.fixed >= 0) continue
    const slot = item.eligible.map((s) => prepared.slots[s]!).find((slot) => !slot.shared && need[slot.index]! > 0 && amountFor(item, slot) > 0)
    if (!slot) continue
    allocation[item.index] = slot.index
    need[slot.index]! -= amountFor(item, slot)
  }
  return allocation
}

/** The audit as first-fit would give it: the yardstick the engine is never worse than. */
export function firstFit(input: AuditInput): AuditResult {
  const prepared = prepare(input)
  return buildResult(prepared, firstFitAllocation(prepared), 'first_fit')
}
