import { hasStatus } from '../errors.js'
import type { HistoryEvent } from '../history/events.js'
import { revertedEvent } from '../history/events.js'
import { PermanentJobError, type Enqueued, type JobContext, type JobDriver } from '../jobs/port.js'
import { idKeyPattern } from '../schema/typebox.js'
import { revertRun, type RevertDeps, type RevertOutcome } from './revert.js'

/** The job that reverts a run, on the queue of the runs it reverts. */
export const revertJob = 'revert'

/** The runs a revert undoes: campus syncs (by their SyncRun id) and publication imports (by their run id). */
export type RevertedRuns = 'sync' | 'import'

const queueOf = { sync: 'campus-sync', import: 'publication-import' } as const
const syncRunId = new RegExp(`^SyncRun/(${idKeyPattern})$`)
const importRunId = new RegExp(`^${idKeyPattern}$`)
/** What a job result lists of the records it changed; the counts are whole. */
const listed = 1000

export interface RevertJobDeps extends RevertDeps {
  readonly events?: { record(event: HistoryEvent): Promise<void> }
  readonly now?: () => Date
}

/** The actor whose writes a run made: `sync:<key>` for SyncRun/<key>, `import:<run>`; undefined for an id of neither shape. */
export function runActor(runs: RevertedRuns, run: string): string | undefined {
  if (runs === 'sync') {
    const key = syncRunId.exec(run)?.[1]
    return key === undefined ? undefined : `sync:${key}`
  }
  return importRunId.test(run) ? `import:${run}` : undefined
}

/** Enqueues a revert; asking again while one waits or runs gets that job. */
export function enqueueRevert(jobs: JobDriver, runs: RevertedRuns, run: string, dryRun: boolean): Promise<Enqueued> {
  return jobs.enqueue(queueOf[runs], revertJob, { run, ...(dryRun ? { dryRun: true } : {}) }, { dedupKey: `revert:${run}:${dryRun ? 'dry-run' : 'run'}` })
}

function summary(outcome: RevertOutcome): string {
  const { changes, conflicts, errors } = outcome
  const count = (op: string) => changes.filter((c) => c.op === op).length
  const done = `${count('restore')} records restored, ${count('delete')} deleted (the run created them), ${count('recreate')} recreated`
  return `${done}${conflicts.length ? `; ${conflicts.length} left as others changed them` : ''}${errors.length ? `; ${errors.length} refused` : ''}`
}

function revertHandler(deps: RevertJobDeps, runs: RevertedRuns) {
  const now = deps.now ?? (() => new Date())
  return async (context: JobContext): Promise<Record<string, unknown>> => {
    const run = context.data.run
    const actor = typeof run === 'string' ? runActor(runs, run) : undefined
    if (typeof run !== 'string' || !actor) throw new PermanentJobError(runs === 'sync' ? 'run must be a SyncRun id' : 'run must be an import run id')
    const dryRun = context.data.dryRun === true
    // The revert is a run of its own, named by its job, so a retry of the job continues it.
    const key = importRunId.test(context.id) ? context.id : context.id.replace(/[^A-Za-z0-9._~-]/g, '-').slice(0, 160)
    const revertId = `SyncRun/${key}`
    const startedAt = now().toISOString()
    const outcome = await revertRun(deps, {
      actor, as: `sync:${key}`, dryRun, signal: context.signal,
      progress: (done, total) => context.progress(total ? Math.round((100 * done) / total) : 100, `${dryRun ? 'checked' : 'reverted'} ${done} of ${total} records`, { processed: done, total }),
    })
    if (!dryRun) {
      const notes = [
        ...outcome.conflicts.map((c, row) => ({ row, sourced_id: c.id, message: `changed by ${c.changed_by_name ?? c.changed_by} at ${c.at} after the run; left as it is` })),
        ...outcome.errors.map((e, row) => ({ row, sourced_id: e.id, message: e.message.slice(0, 1000) })),
      ].slice(0, 1000)
      const count = (op: string) => outcome.changes.filter((c) => c.op === op).length
      try {
        await deps.records.create('SyncRun', {
          system: 'history', kind: 'revert', dry_run: false, status: 'completed', message: summary(outcome), reverts: run,
          started_at: startedAt, finished_at: now().toISOString(), created: count('recreate'), updated: count('restore'), unchanged: 0,
          deactivated: 0, skipped: outcome.conflicts.length, errors: notes, warnings: [],
        }, { actor: context.actor, key })
      } catch (error) {
        // A retried job wrote its run record the first time.
        if (!hasStatus(error, 409)) throw error
      }
      if (runs === 'sync' && await deps.records.get(run)) await deps.records.update(run, { reverted_by: revertId }, { actor: context.actor })
      await deps.events?.record(revertedEvent({ runId: revertId, reverts: run, reverted: outcome.changes.length, conflicts: outcome.conflicts.length }))
    }
    return {
      ...(dryRun ? {} : { run_id: revertId }), reverts: run, dry_run: dryRun, reverted: outcome.changes.length,
      changes: outcome.changes.slice(0, listed), conflicts: outcome.conflicts.slice(0, listed), errors: outcome.errors.slice(0, listed),
    }
  }
}

/** Registers the revert jobs on the queues of the runs they undo. */
export function registerRevertJobs(jobs: JobDriver, deps: RevertJobDeps): void {
  for (const runs of ['sync', 'import'] as const) jobs.register(queueOf[runs], { [revertJob]: revertHandler(deps, runs) })
}
