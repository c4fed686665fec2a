import { OpenAlexBudgetError, OpenAlexError } from './errors.js'
import { orcid, shortId } from '../../domain/publications/openalex-ids.js'
import { OpenAlexTransport, type OpenAlexOptions } from './transport.js'
import { citationFields, workFields, type OpenAlexAuthor, type OpenAlexWork } from '../../domain/publications/openalex-types.js'

export interface ResolvedAuthor {
  /** The author's current id, "A123"; differs from the one asked for when OpenAlex merged authors. */
  readonly id: string
  /** Set when OpenAlex redirected: the id to store in place of the old one. */
  readonly merged: boolean
  readonly author: OpenAlexAuthor
}

export interface WorksPage {
  readonly works: readonly OpenAlexWork[]
  /** The cursor that fetched this page, to resume from if a later page stops the run. */
  readonly cursor: string
  readonly count?: number
}

/** Ids per `filter=openalex:W1|W2|…` request; OpenAlex's OR filter takes at most 50 values. */
export const batchSize = 50

export class OpenAlexClient {
  private readonly transport: OpenAlexTransport

  constructor(options: OpenAlexOptions = {}) {
    this.transport = new OpenAlexTransport(options)
  }

  /** An author by OpenAlex id, else by ORCID; a 301 for a merged author is followed and the new id reported. */
  async author(ref: { openalexId?: string; orcid?: string }): Promise<ResolvedAuthor> {
    const asked = ref.openalexId !== undefined ? shortId(ref.openalexId, 'A') : undefined
    const byOrcid = ref.orcid !== undefined ? orcid(ref.orcid) : undefined
    if (asked === undefined && byOrcid === undefined) throw new TypeError('An OpenAlex author id (A123) or an ORCID (0000-0000-0000-0000) is needed')
    const { body } = await this.transport.get(`/authors/${asked ?? `orcid:${byOrcid}`}`)
    const author = body as OpenAlexAuthor
    const id = typeof author?.id === 'string' ? shortId(author.id, 'A') : undefined
    if (id === undefined) throw new OpenAlexError('OpenAlex answered an author without an id')
    return { id, merged: asked !== undefined && asked !== id, author }
  }

  /** Every work of an author, 100 a page by cursor; from `cursor` when resuming a stopped run. */
  async *works(authorId: string, options: { cursor?: string; select?: readonly string[] } = {}): AsyncGenerator<WorksPage> {
    const id = shortId(authorId, 'A')
    if (id === undefined) throw new TypeError(`Not an OpenAlex author id: ${authorId.slice(0, 64)}`)
    let cursor = options.cursor ?? '*'
    for (;;) {
      const body = await this.resumable(cursor, () =>
        this.transport.get('/works', { filter: `author.id:${id}`, per_page: '100', cursor, select: (options.select ?? workFields).join(',') }),
      )
      const { results, meta } = body as { results?: OpenAlexWork[]; meta?: { count?: number; next_cursor?: string | null } }
      if (!Array.isArray(results)) throw new OpenAlexError('OpenAlex answered a works page without results')
      yield { works: results, cursor, count: meta?.count }
      if (!meta?.next_cursor || results.length === 0) return
      cursor = meta.next_cursor
    }
  }

  /** Works by id, 50 per request, for refreshing citation counts; ids that OpenAlex does not know are simply absent. */
  async *worksByIds(ids: readonly string[], select: readonly string[] = citationFields): AsyncGenerator<readonly OpenAlexWork[]> {
    const clean = [...new Set(ids.map((id) => shortId(id, 'W')).filter((id): id is string => id !== undefined))]
    for (let start = 0; start < clean.length; start += batchSize) {
      const batch = clean.slice(start, start + batchSize)
      const { body } = await this.transport.get('/works', { filter: `openalex:${batch.join('|')}`, per_page: String(batchSize), select: select.join(',') })
      const results = (body as { results?: OpenAlexWork[] }).results
      if (!Array.isArray(results)) throw new OpenAlexError('OpenAlex answered a batch without results')
      yield results
    }
  }

  private async resumable(cursor: string, get: () => Promise<{ body: unknown }>): Promise<unknown> {
    try {
      return (await get()).body
    } catch (error) {
      if (error instanceof OpenAlexBudgetError) throw new OpenAlexBudgetError(error.resetsAt, cursor)
      throw error
    }
  }
}
