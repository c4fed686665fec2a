import type { Refusal } from '../domain/campus-sync/plan.js'
import type { CarriedEvents } from '../records/carried.js'

/**
 * A campus sync's outcome event (docs/notifications.md), as the run states it; who hears of it (the department
 * admins) is for whoever records it to say. Titles and data carry counts and ids only: a run's messages
 * can quote the feed's rows.
 */
export interface SyncEvent {
  /** The SyncRun record's id: a run writes its event once. */
  readonly key: string
  readonly type: 'sync.completed' | 'sync.refused'
  readonly source: string
  readonly subject: string
  readonly title: string
  readonly link: string
  readonly data: Record<string, unknown>
}

/**
 * Where runs write their outcome events (notifications' event log): each carried by its SyncRun record in
 * the record's own insert and published after it, so a process killed between the two loses none
 * (docs/notifications.md).
 */
export interface SyncEvents {
  carry(event: SyncEvent): Promise<CarriedEvents>
}

/** What the event of a run is made from. */
export interface RunOutcome {
  /** The SyncRun record. */
  readonly runId: string
  readonly kind: string
  readonly term?: string
  readonly dryRun: boolean
  readonly status: 'completed' | 'failed' | 'refused'
  readonly counts: { readonly created: number; readonly updated: number; readonly unchanged: number; readonly deactivated: number; readonly skipped: number }
  readonly errors: number
  readonly refusal?: Refusal
}

const source = '/api/campus-sync'
const rows = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`
const link = '/admin/sync'

/**
 * The event a run stands for: a finished run, or one the deactivation guard stopped. A dry run is the
 * asker's own question, answered in its job's result; a failed run is told as its job's failure once
 * no attempts are left.
 */
export function syncEvent(run: RunOutcome): SyncEvent | undefined {
  if (run.dryRun || run.status === 'failed') return undefined
  const what = `Campus sync of ${run.kind}${run.term ? ` (${run.term})` : ''}`
  const base = { key: run.runId, source, subject: run.runId, link }
  const about = { run: run.runId, kind: run.kind, ...(run.term ? { term: run.term } : {}) }
  if (run.status === 'refused') {
    const r = run.refusal
    const title = r
      ? `${what} refused: it would deactivate ${r.would_deactivate} of ${r.active} ${r.kind} records, more than ${r.max_percent}%`
      : `${what} refused by the deactivation guard`
    const data = r ? { ...about, would_deactivate: r.would_deactivate, active: r.active, max_deactivate_percent: r.max_percent } : about
    return { ...base, type: 'sync.refused', title, data }
  }
  const { created, updated, unchanged, deactivated, skipped } = run.counts
  const title = `${what}: ${created} created, ${updated} updated, ${deactivated} deactivated${run.errors ? `, ${rows(run.errors)} in error` : ''}`
  return { ...base, type: 'sync.completed', title, data: { ...about, created, updated, unchanged, deactivated, skipped, errors: run.errors } }
}
