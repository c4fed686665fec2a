import type { SyncPlan } from '../domain/campus-sync/plan.js'
import type { RowError, SyncKind } from '../domain/campus-sync/types.js'
import type { Applied } from './apply.js'

/**
 * What became of the rows of one kind. Every row the feed delivered is counted once: created, updated,
 * unchanged, deactivated (a row asking for it), skipped (on purpose, or outside the run's terms) or in
 * error. `absent` counts records a bulk feed no longer lists: deactivated too, but no row stands for them.
 */
export interface KindCounts {
  rows: number
  created: number
  updated: number
  unchanged: number
  deactivated: number
  absent: number
  skipped: number
  errors: number
}

export const noCounts = (rows: number): KindCounts => ({ rows, created: 0, updated: 0, unchanged: 0, deactivated: 0, absent: 0, skipped: 0, errors: 0 })

// An error of row 0 is a record no row stands for (one deactivated as absent): reported, not a row.
const rowErrors = (errors: readonly RowError[]) => errors.filter((e) => e.row > 0).length

/** A plan's own figures: what it leaves alone, skips and refuses before anything is written. */
export function plannedCounts(plan: SyncPlan, rows: number): KindCounts {
  return { ...noCounts(rows), unchanged: plan.unchanged, skipped: plan.skipped.length, errors: rowErrors(plan.errors) }
}

/** A dry (or refused) run: the writes the plan holds, as a real run would count them. */
export function addPlanned(counts: KindCounts, plan: SyncPlan): void {
  counts.created += plan.create.length
  counts.updated += plan.update.length
  counts.deactivated += plan.deactivate.filter((d) => d.row !== undefined).length
  counts.absent += plan.deactivate.filter((d) => d.row === undefined).length
}

export function addApplied(counts: KindCounts, applied: Applied): void {
  counts.created += applied.created
  counts.updated += applied.updated
  counts.deactivated += applied.deactivated
  counts.absent += applied.absent
  counts.errors += rowErrors(applied.errors)
}

/** The kinds whose rows do not add up, as a sentence; undefined when every row is accounted for. */
export function unaccounted(byKind: Partial<Record<SyncKind, KindCounts>>): string | undefined {
  const off = Object.entries(byKind).flatMap(([kind, k]) => {
    const sum = k.created + k.updated + k.unchanged + k.deactivated + k.skipped + k.errors
    return sum === k.rows ? [] : [`${kind}: ${k.rows} rows, ${sum} accounted for`]
  })
  return off.length ? `rows unaccounted for (${off.join('; ')})` : undefined
}
