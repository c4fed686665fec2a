import type { ApiRecord, RecordService } from '../records/service.js'
import { normalizeDoi } from '../domain/publications/normalize.js'

// The fields an import writes; a person changing one makes it theirs (DESIGN 6.4).
const importedFields = ['title', 'authors', 'venue', 'year', 'doi', 'citation_count', 'abstract', 'url', 'dept_authors'] as const

const importedSource = (record: ApiRecord): { id: string } | undefined => {
  const source = record.source as { system?: unknown; id?: unknown } | undefined
  return record.type === 'Publication' && source?.system === 'openalex' && typeof source.id === 'string' ? { id: source.id } : undefined
}

/** A person's update of an imported publication, with the imported fields it changes added to `edited_fields`. */
export function withEditedFields(current: ApiRecord, patch: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!importedSource(current)) return { ...patch }
  const changed = importedFields.filter((field) => field in patch && JSON.stringify(patch[field]) !== JSON.stringify(current[field]))
  if (changed.length === 0) return { ...patch }
  const held = Array.isArray(current.edited_fields) ? (current.edited_fields as string[]) : []
  return { ...patch, edited_fields: [...new Set([...held, ...changed])] }
}

/** Deleting an imported publication rejects its work: later imports leave it out. */
export async function rejectIfImported(records: RecordService, deleted: ApiRecord, now: Date = new Date()): Promise<void> {
  const source = importedSource(deleted)
  if (!source) return
  const doi = normalizeDoi(typeof deleted.doi === 'string' ? deleted.doi : undefined)
  const title = typeof deleted.title === 'string' ? deleted.title.slice(0, 2000) : undefined
  if (await records.get(`RejectedWork/${source.id}`)) return
  await records.create('RejectedWork', { work_id: source.id, ...(doi ? { doi } : {}), ...(title ? { title } : {}), rejected_at: now.toISOString() }, { key: source.id })
}
