import { fold } from '../text.js'

// schema/research.json: Publication.doi
const doiPattern = /^10\.[0-9]{4,9}\/\S+$/

/**
 * A DOI as this service stores and compares it: lower case (DOIs are case-insensitive), without the
 * resolver prefix ("https://doi.org/", "http://dx.doi.org/") or "doi:". Undefined when it is no DOI.
 */
export function normalizeDoi(value: string | null | undefined): string | undefined {
  if (!value) return undefined
  const doi = value.trim().toLowerCase().replace(/^https?:\/\/(dx\.)?doi\.org\//, '').replace(/^doi:\s*/, '')
  return doiPattern.test(doi) && doi.length <= 300 ? doi : undefined
}

/** A title reduced to its words: no case, accents, punctuation or extra whitespace. */
export function normalizeTitle(title: string): string {
  return fold(title).replace(/[^\p{L}\p{N}]+/gu, ' ').trim()
}

/** Title and year together, the last resort of de-duplication; undefined for an empty title. */
export function titleYearKey(title: string | undefined, year: number | undefined): string | undefined {
  const words = title ? normalizeTitle(title) : ''
  return words === '' ? undefined : `${words}|${year ?? ''}`
}
