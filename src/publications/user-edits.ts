import type { ApiRecord } from '../records/service.js'
import type { Publication } from '../schema/generated/records.js'

// The fields an import writes; a person changing one makes it theirs (docs/operations.md, "Publications from OpenAlex").
const importedFields = ['title', 'authors', 'venue', 'year', 'doi', 'citation_count', 'abstract', 'url', 'dept_authors'] as const

/** A record of the Publication class, as the store holds it: it passed the schema its type is generated from. */
export function isPublication(record: ApiRecord): record is ApiRecord & Publication {
  return record.type === 'Publication'
}

/** The OpenAlex work an imported publication came from; undefined for one entered by hand. */
export function importedWorkId(record: ApiRecord): string | undefined {
  return isPublication(record) && record.source?.system === 'openalex' ? record.source.id : undefined
}

/** A person's update of an imported publication, with the imported fields it changes added to `edited_fields`. */
export function withEditedFields(current: ApiRecord, patch: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!isPublication(current) || !importedWorkId(current)) return { ...patch }
  const changed = importedFields.filter((field) => field in patch && JSON.stringify(patch[field]) !== JSON.stringify(current[field]))
  if (changed.length === 0) return { ...patch }
  return { ...patch, edited_fields: [...new Set([...current.edited_fields, ...changed])] }
}
