import type { Actor } from '../actor.js'
import type { StoredPublication } from '../domain/publications/types.js'
import { citationUpdates } from '../domain/publications/citations.js'
import type { JobContext } from '../jobs/port.js'
import { checkpoint } from '../jobs/checkpoint.js'
import { batchSize } from './openalex/client.js'
import type { PublicationDeps } from './import.js'

/**
 * Refreshes citation_count (and citations_updated_at) of every publication with an OpenAlex work id,
 * 50 ids per request. A hand-edited count is left alone; its refresh time still moves.
 */
export async function runCitationRefresh(deps: PublicationDeps, context: Pick<JobContext, 'signal' | 'progress'>, actor: Actor): Promise<{ publications: number; updated: number; requests: number }> {
  const now = deps.now ?? (() => new Date())
  try {
    const all: StoredPublication[] = await deps.records.find(deps.schema.class('Publication')!, { source_id: { $exists: true } })
    const bySourceId = new Map<string, StoredPublication[]>()
    for (const publication of all) bySourceId.set(publication.source_id!, [...(bySourceId.get(publication.source_id!) ?? []), publication])
    let updated = 0
    let requests = 0
    for await (const works of deps.openalex.worksByIds([...bySourceId.keys()])) {
      checkpoint(context.signal)
      requests++
      for (const { _id, set } of citationUpdates(all, works, now().toISOString())) {
        await deps.records.update(_id, set, { actor })
        updated++
      }
      await context.progress(Math.min(99, Math.round((100 * requests * batchSize) / Math.max(1, bySourceId.size))), 'refreshing citation counts')
    }
    return { publications: all.length, updated, requests }
  } finally {
    deps.invalidate('publications')
    deps.invalidate('people')
  }
}
