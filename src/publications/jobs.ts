import { OpenAlexClient } from './openalex/client.js'
import type { OpenAlexOptions } from './openalex/transport.js'
import type { Enqueued, JobDriver } from '../jobs/port.js'
import { publicationSync } from './publication-sync.js'
import { citationRefreshHandler, publicationImportHandler } from './handlers.js'
import type { PublicationDeps } from './import.js'

/** The job name of one person's import; the scheduled import of every faculty member is `import-all`. */
export const importPersonJob = 'import-person'

/** Registers the publication-import and citation-refresh handlers, in the API (inline workers) and in `npm run worker` alike. */
export function registerPublicationJobs(jobs: JobDriver, deps: Omit<PublicationDeps, 'openalex'> & { readonly openalex: OpenAlexOptions }): void {
  const publications = { ...deps, openalex: new OpenAlexClient(deps.openalex) }
  const importer = publicationImportHandler(publications)
  jobs.register('publication-import', { [publicationSync.import.name]: importer, [importPersonJob]: importer })
  jobs.register('citation-refresh', { [publicationSync.citations.name]: citationRefreshHandler(publications) })
}

/** Enqueues one person's import, or every faculty member's; a second request while one is pending folds into it. */
export function enqueuePublicationImport(jobs: JobDriver, personId?: string): Promise<Enqueued> {
  if (personId === undefined) return jobs.enqueue('publication-import', publicationSync.import.name, {}, { dedupKey: 'all-faculty' })
  return jobs.enqueue('publication-import', importPersonJob, { personId }, { dedupKey: `person:${personId}` })
}

export function enqueueCitationRefresh(jobs: JobDriver): Promise<Enqueued> {
  return jobs.enqueue('citation-refresh', publicationSync.citations.name, {}, { dedupKey: 'all-publications' })
}
