import { fold } from '../text.js'

// schema/research.json: Publication.doi
const doiPattern = /^10\.[0-9]{4,9}\/\S+$/

const resolver = /^https?:\/\/(dx\.)?doi\.org\//

/**
 * A DOI as this service stores and compares it: as the registry gives it, in lower case (DOIs are
 * case-insensitive), without the resolver prefix ("https://doi.org/", "http://dx.doi.org/") or "doi:".
 * Any character a DOI may hold is kept (an old-style SICI DOI's brackets, `<` and `>`); the resolver
 * form is percent-decoded, since that is a URL's spelling. Undefined when it is no DOI.
 */
export function normalizeDoi(value: string | null | undefined): string | undefined {
  if (!value) return undefined
  const lower = value.trim().toLowerCase()
  const doi = resolver.test(lower) ? decoded(lower.replace(resolver, '')) : lower.replace(/^doi:\s*/, '')
  return doiPattern.test(doi) && doi.length <= 300 ? doi : undefined
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * The resolver URL of a DOI: `https://doi.org/` and the DOI percent-encoded part by part, so an old-style
 * (SICI) DOI with brackets, or one with `<`, `>` or `#`, still makes a valid URL. The slashes stay.
 */
export function doiUrl(doi: string): string {
  return `https://doi.org/${doi.split('/').map(encodeURIComponent).join('/')}`
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
