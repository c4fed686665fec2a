import type { Enqueued, JobDriver } from '../jobs/port.js'
import { sourceKey, type SyncSourceConfig } from './config.js'
import { campusSyncAllHandler } from './all.js'
import { campusSyncHandler } from './handler.js'
import { syncKinds, type CampusSyncRequest, type SyncDeps } from './runner.js'

/**
 * Registers the campus-sync handlers, in the API (inline workers) and in `npm run worker` alike. Jobs
 * are named by their kind, and the handler reads the configuration when it runs, so a run sees the
 * configuration current at that moment.
 */
export function registerCampusSyncJobs(jobs: JobDriver, deps: Omit<SyncDeps, 'config'>): void {
  const sync = campusSyncHandler(deps)
  // `all` runs the three kinds in order as one job (src/campus-sync/all.ts).
  jobs.register('campus-sync', { ...Object.fromEntries(syncKinds.map((kind) => [kind, sync])), all: campusSyncAllHandler(deps) })
}

/**
 * Enqueues a campus sync. Its dedup key is the run it asks for (kind, term, dry or not) on this source:
 * a second request for the same run while one waits or runs gets that job's id instead of a new job.
 */
export function enqueueCampusSync(jobs: JobDriver, request: CampusSyncRequest, source: SyncSourceConfig): Promise<Enqueued> {
  const data = { kind: request.kind, ...(request.term ? { term: request.term } : {}), ...(request.dryRun ? { dryRun: true } : {}) }
  const dedupKey = [request.kind, sourceKey(source), request.term ?? 'all-terms', request.dryRun ? 'dry-run' : 'run'].join(':')
  return jobs.enqueue('campus-sync', request.kind, data, { dedupKey })
}

/**
 * Enqueues a complete sync (courses, sections, people as one job). Deduplicated like a run of one kind:
 * a second request while one waits or runs gets that job's id.
 */
export function enqueueCampusSyncAll(jobs: JobDriver, request: { term?: string }, source: SyncSourceConfig): Promise<Enqueued> {
  const dedupKey = ['all', sourceKey(source), request.term ?? 'all-terms', 'run'].join(':')
  return jobs.enqueue('campus-sync', 'all', request.term ? { term: request.term } : {}, { dedupKey })
}
