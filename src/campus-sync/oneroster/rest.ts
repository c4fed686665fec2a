import { fetchCapped, httpUrl, TransportError } from '../../net/outbound.js'
import { OneRosterFetchError } from './errors.js'
import type { Collection, Page } from '../../domain/campus-sync/model.js'
import { normalizeRow } from './normalize.js'
import { TokenSource } from './oauth.js'

export interface OneRosterRestOptions {
  /** The provider's base URL; the rostering path is appended. Any host, private ones included (admins set it). */
  readonly baseUrl: string
  readonly tokenUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly scope?: string
  readonly pageSize?: number
  readonly timeoutMs?: number
  readonly maxPageBytes?: number
  readonly now?: () => number
}

const rosteringPath = '/ims/oneroster/rostering/v1p2/'
// Providers cap `limit` themselves (often at 1000); asking for more only risks pages over the byte cap.
const maxPageSize = 1000
// A delta watermark goes inside quotes in the filter; only timestamp characters may.
const watermarkPattern = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9:.]+(Z|[+-][0-9]{2}:?[0-9]{2})?)?$/

/** The OneRoster 1.2 REST binding, read one page at a time so a sync can apply as it goes. */
export class OneRosterRestClient {
  private readonly base: URL
  private readonly tokens: TokenSource
  private readonly pageSize: number
  private readonly timeoutMs: number
  private readonly maxPageBytes: number

  constructor(options: OneRosterRestOptions) {
    const base = httpUrl(options.baseUrl)
    base.pathname = base.pathname.replace(/\/+$/, '') + rosteringPath
    this.base = base
    this.timeoutMs = options.timeoutMs ?? 30_000
    this.maxPageBytes = options.maxPageBytes ?? 20 * 1024 * 1024
    this.pageSize = Math.min(Math.max(Math.trunc(options.pageSize ?? 100), 1), maxPageSize)
    this.tokens = new TokenSource({ ...options, timeoutMs: this.timeoutMs })
  }

  /**
   * Every page of a collection, or (with `since`) only rows modified after that watermark. A failure
   * after some pages throws OneRosterFetchError naming the collection and offset; the pages already
   * yielded were complete.
   */
  async *pages<C extends Collection>(collection: C, options: { since?: string; signal?: AbortSignal } = {}): AsyncGenerator<Page<C>> {
    if (options.since !== undefined && !watermarkPattern.test(options.since)) throw new TypeError(`Not a timestamp watermark: ${options.since.slice(0, 64)}`)
    for (let offset = 0; ; ) {
      const url = new URL(collection, this.base)
      url.searchParams.set('limit', String(this.pageSize))
      url.searchParams.set('offset', String(offset))
      url.searchParams.set('sort', 'sourcedId')
      if (options.since !== undefined) url.searchParams.set('filter', `dateLastModified>'${options.since}'`)
      const { body, total } = await this.getPage(collection, offset, url, options.signal)
      const raw = body[collection]
      if (!Array.isArray(raw)) throw new OneRosterFetchError(collection, offset, 'bad-answer', `answer has no "${collection}" array`)
      const rows = raw.map((entry, index) =>
        normalizeRow(collection, entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>) : {}, offset + index + 1),
      )
      yield { collection, offset, rows, total }
      offset += rows.length
      const done = total !== undefined ? offset >= total || rows.length === 0 : rows.length < this.pageSize
      if (done) return
    }
  }

  /** One page; a 401 renews the token and tries once more, since a token can expire between pages. */
  private async getPage(collection: Collection, offset: number, url: URL, signal?: AbortSignal): Promise<{ body: Record<string, unknown>; total?: number }> {
    let answer
    for (let attempt = 1; ; attempt++) {
      const token = await this.tokens.token(signal)
      try {
        answer = await fetchCapped(url, {
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          timeoutMs: this.timeoutMs,
          maxBytes: this.maxPageBytes,
          signal,
        })
      } catch (error) {
        if (error instanceof TransportError) throw new OneRosterFetchError(collection, offset, error.failure, error.message)
        throw error
      }
      if (answer.status !== 401 || attempt === 2) break
      this.tokens.invalidate()
    }
    if (answer.status === 401) throw new OneRosterFetchError(collection, offset, 'auth', 'provider rejected a freshly issued token (HTTP 401)', 401)
    if (answer.status !== 200) throw new OneRosterFetchError(collection, offset, 'http', `provider answered HTTP ${answer.status}`, answer.status)
    let body: unknown
    try {
      body = JSON.parse(answer.body.toString('utf8'))
    } catch {
      throw new OneRosterFetchError(collection, offset, 'bad-answer', 'answer is not JSON')
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new OneRosterFetchError(collection, offset, 'bad-answer', 'answer is not a JSON object')
    const totalHeader = answer.headers.get('x-total-count')
    const total = totalHeader !== null && /^\d+$/.test(totalHeader.trim()) ? Number(totalHeader) : undefined
    return { body: body as Record<string, unknown>, total }
  }
}
