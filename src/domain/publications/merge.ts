import { PublicationIndex } from './dedupe.js'
import { normalizeDoi } from './normalize.js'
import type { PublicationFields, Rejections, StoredPublication } from './types.js'

export interface ImportPlan {
  readonly create: PublicationFields[]
  readonly update: { _id: string; set: Partial<PublicationFields> }[]
  readonly unchanged: number
  /** Works a faculty member rejected before, left out. */
  readonly rejected: number
}

// Fields an import owns and refreshes; dept_authors is merged rather than replaced, `source` always renewed.
const importedFields = ['title', 'authors', 'venue', 'year', 'doi', 'citation_count', 'abstract', 'url', 'source_id'] as const

/**
 * What importing these publications changes. A rejected work is skipped; a duplicate updates the record
 * it duplicates, never touching a field listed in its `edited_fields` and never dropping a department
 * author someone linked by hand.
 */
export function planImport(existing: readonly StoredPublication[], incoming: readonly PublicationFields[], rejections: Rejections): ImportPlan {
  const index = new PublicationIndex<StoredPublication | (PublicationFields & { _id?: undefined })>(existing)
  const plan: { create: PublicationFields[]; update: ImportPlan['update']; unchanged: number; rejected: number } = { create: [], update: [], unchanged: 0, rejected: 0 }
  const updates = new Map<string, Partial<PublicationFields>>()

  for (const publication of incoming) {
    const doi = normalizeDoi(publication.doi)
    if ((publication.source_id && rejections.workIds.has(publication.source_id)) || (doi && rejections.dois.has(doi))) {
      plan.rejected++
      continue
    }
    const match = index.find(publication)
    if (!match) {
      // A copy, so a later duplicate in this run can add its authors without touching the caller's object.
      const created = { ...publication }
      plan.create.push(created)
      index.add(created)
      continue
    }
    if (match._id === undefined) {
      // The same work twice in one run (two department authors): one record with both linked.
      Object.assign(match, { dept_authors: union(match.dept_authors, publication.dept_authors) })
      continue
    }
    const base = { ...match, ...updates.get(match._id) }
    const set = changes(base, publication)
    if (Object.keys(set).length === 0) plan.unchanged++
    else updates.set(match._id, { ...updates.get(match._id), ...set })
  }
  for (const [_id, set] of updates) plan.update.push({ _id, set })
  return plan
}

function changes(current: StoredPublication, incoming: PublicationFields): Partial<PublicationFields> {
  const edited = new Set(current.edited_fields ?? [])
  const set: Record<string, unknown> = {}
  for (const field of importedFields) {
    const value = incoming[field]
    if (value === undefined || edited.has(field)) continue
    if (JSON.stringify(current[field]) !== JSON.stringify(value)) set[field] = value
  }
  const authors = union(current.dept_authors, incoming.dept_authors)
  if (!edited.has('dept_authors') && authors.length !== current.dept_authors.length) set.dept_authors = authors
  if (Object.keys(set).length > 0 && incoming.source) set.source = incoming.source
  return set as Partial<PublicationFields>
}

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])]
