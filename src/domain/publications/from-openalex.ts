import { orcid, shortId } from './openalex-ids.js'
import type { OpenAlexWork } from './openalex-types.js'
import { doiUrl, normalizeDoi } from './normalize.js'
import type { DepartmentAuthor, PublicationFields } from './types.js'

// schema/research.json caps an abstract at 20000 characters.
const maxAbstract = 20_000

/** An OpenAlex work as Publication fields; undefined for a work with no id or no title. */
export function publicationFromWork(work: OpenAlexWork, people: readonly DepartmentAuthor[], fetchedAt: string): PublicationFields | undefined {
  const id = shortId(work.id ?? '', 'W')
  const title = (work.title ?? work.display_name ?? '').trim()
  if (id === undefined || title === '') return undefined
  const doi = normalizeDoi(work.doi)
  const year = typeof work.publication_year === 'number' && work.publication_year >= 1800 && work.publication_year <= 2200 ? work.publication_year : undefined
  const fields: PublicationFields = {
    title,
    authors: (work.authorships ?? []).map((a) => (a.author?.display_name ?? a.raw_author_name ?? '').trim()).filter(Boolean),
    venue: work.primary_location?.source?.display_name?.trim() || undefined,
    year,
    doi,
    citation_count: typeof work.cited_by_count === 'number' && work.cited_by_count >= 0 ? work.cited_by_count : undefined,
    dept_authors: deptAuthors(work, people),
    abstract: abstractOf(work.abstract_inverted_index),
    url: landingPage(work.primary_location?.landing_page_url) ?? (doi ? doiUrl(doi) : undefined),
    source_id: id,
    source: { system: 'openalex', id, fetched_at: fetchedAt },
  }
  // Leaving out the undefined values changes no field's type.
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as PublicationFields
}

/**
 * A landing page as OpenAlex gives it, when it is a plain http(s) URL; else (spaces, brackets or quotes
 * left unencoded by a publisher) the DOI's URL is used instead.
 */
function landingPage(url: string | null | undefined): string | undefined {
  return url && /^https?:\/\/[^\s"<>[\]{}|\\^`]+$/.test(url) ? url : undefined
}

/** Every department person whose OpenAlex id or ORCID is among the work's authorships, in author order. */
export function deptAuthors(work: OpenAlexWork, people: readonly DepartmentAuthor[]): string[] {
  const byOpenAlex = new Map(people.flatMap((p) => (p.openalex_id && shortId(p.openalex_id, 'A') ? [[shortId(p.openalex_id, 'A')!, p._id] as const] : [])))
  const byOrcid = new Map(people.flatMap((p) => (p.orcid && orcid(p.orcid) ? [[orcid(p.orcid)!, p._id] as const] : [])))
  const found: string[] = []
  for (const { author } of work.authorships ?? []) {
    const person = (author?.id && byOpenAlex.get(shortId(author.id, 'A') ?? '')) || (author?.orcid && byOrcid.get(orcid(author.orcid) ?? ''))
    if (person && !found.includes(person)) found.push(person)
  }
  return found
}

/** OpenAlex ships abstracts inverted (word → positions); this puts the words back in order. */
function abstractOf(index: OpenAlexWork['abstract_inverted_index']): string | undefined {
  if (!index) return undefined
  const words: string[] = []
  for (const [word, positions] of Object.entries(index)) for (const position of positions) if (Number.isInteger(position) && position >= 0 && position < 20_000) words[position] = word
  const text = words.filter((w) => w !== undefined).join(' ').trim()
  return text === '' ? undefined : text.slice(0, maxAbstract)
}
