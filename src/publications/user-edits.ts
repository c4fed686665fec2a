import type { ApiRecord } from '../records/service.js'

// The fields an import writes; a person changing one makes it theirs (docs/operations.md, "Publications from OpenAlex").
const importedFields = ['title', 'authors', 'venue', 'year', 'doi', 'citation_count', 'abstract', 'url', 'dept_authors'] as const

/** The OpenAlex work an imported publication came from; undefined for one entered by hand. */
export function importedWorkId(record: ApiRecord): string | undefined {
  const source = record.source as { system?: unknown; id?: unknown } | undefined
  return record.type === 'Publication' && source?.system === 'openalex' && typeof source.id === 'string' ? source.id : undefined
}

/** A person's update of an imported publication, with the imported fields it changes added to `edited_fields`. */
export function withEditedFields(current: ApiRecord, patch: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!importedWorkId(current)) return { ...patch }
  const changed = importedFields.filter((field) => field in patch && JSON.stringify(patch[field]) !== JSON.stringify(current[field]))
  if (changed.length === 0) return { ...patch }
  const held = Array.isArray(current.edited_fields) ? (current.edited_fields as string[]) : []
  return { ...patch, edited_fields: [...new Set([...held, ...changed])] }
}
