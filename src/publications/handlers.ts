import type { Actor } from '../actor.js'
import type { JobContext } from '../jobs/port.js'
import { PermanentJobError } from '../jobs/port.js'
import { runCitationRefresh } from './citations.js'
import { runPublicationImport, type PublicationDeps } from './import.js'

/** The publication-import queue's handler: one person's works (`personId`), or every faculty member's. */
export function publicationImportHandler(deps: PublicationDeps) {
  return async (context: JobContext): Promise<Record<string, unknown>> => {
    const personId = context.data.personId
    if (personId !== undefined && (typeof personId !== 'string' || personId.length > 300)) throw new PermanentJobError('personId must be a person id')
    return { ...(await runPublicationImport(deps, personId === undefined ? {} : { personId }, context)) }
  }
}

/** The citation-refresh queue's handler. */
export function citationRefreshHandler(deps: PublicationDeps) {
  return async (context: JobContext): Promise<Record<string, unknown>> => {
    // A refresh is a run of its own, revertible like an import: its id is its job's.
    const actor: Actor = { id: `import:${context.id}`, name: 'Citation refresh', via: 'citation-refresh', run: true }
    return { run_id: context.id, ...(await runCitationRefresh(deps, context, actor)) }
  }
}
