/**
 * A publication as this domain reads and writes it: the Publication fields of schema/research.json. The
 * domain imports nothing outside domain/, so this is written out, and the stored records' generated type
 * (src/schema/generated/records.ts) must stay assignable to it, which the type check holds.
 */
export type PublicationFields = {
  readonly title: string
  readonly authors: readonly string[]
  readonly venue?: string
  readonly year?: number
  readonly doi?: string
  readonly citation_count?: number
  readonly dept_authors: readonly string[]
  readonly abstract?: string
  readonly url?: string
  /** The OpenAlex work id, "W123". */
  readonly source_id?: string
  /** `openalex` for what this import wrote; the schema admits any system. */
  readonly source?: { readonly system: string; readonly id: string; readonly fetched_at: string }
  /** Fields a person changed by hand; an import never overwrites them. */
  readonly edited_fields?: readonly string[]
  readonly citations_updated_at?: string
}

export interface StoredPublication extends PublicationFields {
  readonly _id: string
}

/** A department member as the import links them: by OpenAlex author id or ORCID. */
export interface DepartmentAuthor {
  readonly _id: string
  readonly openalex_id?: string
  readonly orcid?: string
}

/** What a faculty member rejected (deleted after an import): never imported again. */
export interface Rejections {
  readonly workIds: ReadonlySet<string>
  readonly dois: ReadonlySet<string>
}
