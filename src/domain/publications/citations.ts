import { shortId } from './openalex-ids.js'
import type { OpenAlexWork } from './openalex-types.js'
import type { StoredPublication } from './types.js'

/**
 * Citation counts from a refresh batch for the publications that carry those OpenAlex ids. Every
 * matched record gets `citations_updated_at`; a hand-edited citation_count is left alone.
 */
export function citationUpdates(records: readonly StoredPublication[], works: readonly OpenAlexWork[], now: string): { _id: string; set: { citation_count?: number; citations_updated_at: string } }[] {
  const counts = new Map(works.flatMap((w) => (typeof w.cited_by_count === 'number' && shortId(w.id ?? '', 'W') ? [[shortId(w.id, 'W')!, w.cited_by_count] as const] : [])))
  return records.flatMap((record) => {
    const count = record.source_id === undefined ? undefined : counts.get(record.source_id)
    if (count === undefined) return []
    const edited = record.edited_fields?.includes('citation_count') ?? false
    return [{ _id: record._id, set: edited ? { citations_updated_at: now } : { citation_count: count, citations_updated_at: now } }]
  })
}
