import { OpenAlexClient } from '../connectors/openalex/client.js'
import type { OpenAlexOptions } from '../connectors/openalex/transport.js'
import { citationRefreshHandler, publicationImportHandler } from '../publications/handlers.js'
import type { PublicationDeps } from '../publications/import.js'
import { sourceKey, type SyncSourceConfig } from '../sync/config.js'
import { campusSyncHandler } from '../sync/handler.js'
import { syncKinds, type CampusSyncRequest, type SyncDeps } from '../sync/runner.js'
import type { Enqueued, JobDriver } from './port.js'
import { publicationSync } from './publication-sync.js'

/** The job name of one person's import; the scheduled import of every faculty member is `import-all`. */
export const importPersonJob = 'import-person'

export type DataJobDeps = Omit<SyncDeps, 'config'> & Omit<PublicationDeps, 'openalex'> & { readonly openalex: OpenAlexOptions }

/**
 * Registers the campus-sync, publication-import and citation-refresh handlers, in the API (inline
 * workers) and in `npm run worker` alike. Campus-sync jobs are named by their kind, and each handler
 * reads the configuration when it runs, so a run sees the configuration current at that moment.
 */
export function registerDataJobs(jobs: JobDriver, deps: DataJobDeps): void {
  const { openalex, ...rest } = deps
  const sync = campusSyncHandler(rest)
  jobs.register('campus-sync', Object.fromEntries(syncKinds.map((kind) => [kind, sync])))
  const publications = { ...rest, openalex: new OpenAlexClient(openalex) }
  const importer = publicationImportHandler(publications)
  jobs.register('publication-import', { [publicationSync.import.name]: importer, [importPersonJob]: importer })
  jobs.register('citation-refresh', { [publicationSync.citations.name]: citationRefreshHandler(publications) })
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

/** Enqueues one person's import, or every faculty member's; a second request while one is pending folds into it. */
export function enqueuePublicationImport(jobs: JobDriver, personId?: string): Promise<Enqueued> {
  if (personId === undefined) return jobs.enqueue('publication-import', publicationSync.import.name, {}, { dedupKey: 'all-faculty' })
  return jobs.enqueue('publication-import', importPersonJob, { personId }, { dedupKey: `person:${personId}` })
}

export function enqueueCitationRefresh(jobs: JobDriver): Promise<Enqueued> {
  return jobs.enqueue('citation-refresh', publicationSync.citations.name, {}, { dedupKey: 'all-publications' })
}
