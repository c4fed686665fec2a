import type { JobContext } from '../jobs/port.js'
import { PermanentJobError } from '../jobs/port.js'
import { runCampusSync, syncKinds, type SyncDeps, type SyncResult, type SyncRunKind } from './runner.js'

const termPattern = /^[0-9]{2}[FSUW]$/

type Context = Pick<JobContext, 'signal' | 'progress' | 'log'>

/** One kind's run within a complete sync, as the job's result lists it: the run's figures, its errors counted. */
export type AllRunSummary = Pick<SyncResult, 'kind' | 'run_id' | 'status' | 'message' | 'rows' | 'created' | 'updated' | 'unchanged' | 'deactivated' | 'skipped'> & {
  readonly errors: number
}

export interface AllResult {
  readonly status: 'completed' | 'refused'
  /** The kind the sync stopped at, when one was refused. */
  readonly stopped_at?: SyncRunKind
  readonly message: string
  /** Row errors over the runs done. */
  readonly errors: number
  readonly runs: AllRunSummary[]
}

const summary = (r: SyncResult): AllRunSummary => ({
  kind: r.kind, run_id: r.run_id, status: r.status, ...(r.message ? { message: r.message } : {}),
  rows: r.rows, created: r.created, updated: r.updated, unchanged: r.unchanged, deactivated: r.deactivated, skipped: r.skipped, errors: r.errors.length,
})

/** The job data of a complete sync: only a term may narrow it (a dry run of sections after an unwritten courses run would say nothing). */
export function allRequest(data: Record<string, unknown>): { term?: string } {
  if (data.term !== undefined && (typeof data.term !== 'string' || !termPattern.test(data.term))) throw new PermanentJobError('term must be a term code like 25F')
  return data.term ? { term: data.term } : {}
}

/**
 * A complete campus sync (docs/operations.md, "Campus sync (OneRoster)"): courses, then sections, then
 * people, each its own run with its own SyncRun record, in the order each needs the one before. It stops
 * at the first run refused (answered, with the kind named) or failed (thrown, so the job fails with the
 * kind named and the runs done before it kept). Each run's progress fills its third of the job's bar.
 */
export async function runAllCampusSync(deps: SyncDeps, request: { term?: string }, context: Context): Promise<AllResult> {
  const runs: AllRunSummary[] = []
  const share = 100 / syncKinds.length
  for (const [index, kind] of syncKinds.entries()) {
    const base = index * share
    const scaled: Context = {
      signal: context.signal,
      log: context.log,
      progress: (percent, message, counts) => context.progress(Math.round(base + (percent * share) / 100), `${kind} (${index + 1} of ${syncKinds.length}): ${message ?? ''}`.trim(), counts),
    }
    const result = await runCampusSync(deps, { kind, ...request }, scaled)
    runs.push(summary(result))
    const done = runs.slice(0, -1).map((r) => r.kind).join(', ')
    const before = done ? ` (${done} done)` : ''
    if (result.status === 'failed') throw new Error(`stopped at ${kind}: the ${kind} run failed: ${result.message ?? 'no reason given'}${before}`)
    if (result.status === 'refused') {
      return { status: 'refused', stopped_at: kind, message: `stopped at ${kind}${before}: ${result.message ?? `the ${kind} run was refused`}`, errors: total(runs), runs }
    }
  }
  await context.progress(100, 'courses, sections and people synced')
  return { status: 'completed', message: `courses, sections and people synced with ${total(runs)} row error${total(runs) === 1 ? '' : 's'}`, errors: total(runs), runs }
}

function total(runs: readonly AllRunSummary[]): number {
  return runs.reduce((sum, r) => sum + r.errors, 0)
}

/** The handler of the campus-sync queue's `all` job. */
export function campusSyncAllHandler(deps: SyncDeps) {
  return async (context: JobContext): Promise<Record<string, unknown>> => ({ ...await runAllCampusSync(deps, allRequest(context.data), context) })
}
