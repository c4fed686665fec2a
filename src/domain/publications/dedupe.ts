import { normalizeDoi, titleYearKey } from './normalize.js'
import type { PublicationFields } from './types.js'

/**
 * Finds the record a publication duplicates (docs/decisions.md, "Publications found twice"): by normalised
 * DOI, then OpenAlex work id, then normalised title and year. Records added during a run are found too,
 * so a work that two department authors share is imported once.
 */
export class PublicationIndex<T extends PublicationFields> {
  private readonly byDoi = new Map<string, T>()
  private readonly byWork = new Map<string, T>()
  private readonly byTitle = new Map<string, T>()

  constructor(records: Iterable<T> = []) {
    for (const record of records) this.add(record)
  }

  find(candidate: PublicationFields): T | undefined {
    const doi = normalizeDoi(candidate.doi)
    const byDoi = doi === undefined ? undefined : this.byDoi.get(doi)
    if (byDoi) return byDoi
    const work = candidate.source_id === undefined ? undefined : this.byWork.get(candidate.source_id)
    if (work) return work
    const key = titleYearKey(candidate.title, candidate.year)
    const byTitle = key === undefined ? undefined : this.byTitle.get(key)
    // Two records with different DOIs are different works, however alike their titles.
    return byTitle && !(doi && byTitle.doi && normalizeDoi(byTitle.doi) !== doi) ? byTitle : undefined
  }

  add(record: T): void {
    const doi = normalizeDoi(record.doi)
    if (doi !== undefined && !this.byDoi.has(doi)) this.byDoi.set(doi, record)
    if (record.source_id !== undefined && !this.byWork.has(record.source_id)) this.byWork.set(record.source_id, record)
    const key = titleYearKey(record.title, record.year)
    if (key !== undefined && !this.byTitle.has(key)) this.byTitle.set(key, record)
  }
}
