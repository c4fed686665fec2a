/** The parts of OpenAlex's author and work objects this service reads (api.openalex.org, select= keeps them small). */

export interface OpenAlexAuthor {
  readonly id: string
  readonly orcid?: string | null
  readonly display_name?: string
  readonly works_count?: number
}

export interface OpenAlexAuthorship {
  readonly author_position?: string
  readonly author: { readonly id?: string | null; readonly display_name?: string | null; readonly orcid?: string | null }
  readonly raw_author_name?: string | null
}

export interface OpenAlexWork {
  readonly id: string
  readonly doi?: string | null
  readonly title?: string | null
  readonly display_name?: string | null
  readonly publication_year?: number | null
  readonly type?: string | null
  readonly cited_by_count?: number | null
  readonly authorships?: readonly OpenAlexAuthorship[]
  readonly primary_location?: { readonly landing_page_url?: string | null; readonly source?: { readonly display_name?: string | null } | null } | null
  /** OpenAlex ships abstracts as word → positions, for licensing reasons. */
  readonly abstract_inverted_index?: Readonly<Record<string, readonly number[]>> | null
}

/** Fields asked for in imports; top-level names only, as `select=` requires. */
export const workFields = ['id', 'doi', 'title', 'display_name', 'publication_year', 'type', 'cited_by_count', 'authorships', 'primary_location', 'abstract_inverted_index'] as const
/** Enough for a citation refresh. */
export const citationFields = ['id', 'doi', 'cited_by_count'] as const
