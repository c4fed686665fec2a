import { fetchCapped, httpUrl, TransportError } from '../../net/outbound.js'
import { budgetSpent, nextMidnightUtc, retryAfterMs } from './budget.js'
import { OpenAlexBudgetError, OpenAlexError } from './errors.js'

export interface OpenAlexOptions {
  readonly baseUrl?: string
  /** OPENALEX_API_KEY, sent as `api_key` when set. */
  readonly apiKey?: string
  /** OPENALEX_MAILTO, sent as `mailto` when set. */
  readonly mailto?: string
  readonly timeoutMs?: number
  readonly maxBytes?: number
  /** Tries per request, the first included, for 429, 5xx, timeouts and dropped connections. */
  readonly maxAttempts?: number
  readonly baseDelayMs?: number
  /** Longest wait between tries; a Retry-After beyond it fails the request rather than stalling the job. */
  readonly maxDelayMs?: number
  readonly sleep?: (ms: number) => Promise<void>
  readonly random?: () => number
  readonly now?: () => number
  readonly signal?: AbortSignal
}

export interface Answer {
  readonly body: unknown
  /** The URL that answered, after a merged entity's redirects. */
  readonly url: URL
}

const transientStatus = new Set([429, 500, 502, 503, 504])
const maxRedirects = 3

/**
 * GETs one OpenAlex resource: api_key and mailto added, retried with exponential backoff and jitter
 * (honouring Retry-After), redirects followed only within the API's own origin, and a stop as soon as
 * the budget headers say the day's budget is spent.
 */
export class OpenAlexTransport {
  private readonly base: URL
  private spent: Date | undefined
  private readonly sleep: (ms: number) => Promise<void>
  private readonly now: () => number

  constructor(private readonly options: OpenAlexOptions = {}) {
    this.base = httpUrl(options.baseUrl ?? 'https://api.openalex.org')
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
    this.now = options.now ?? Date.now
  }

  async get(path: string, params: Readonly<Record<string, string>> = {}): Promise<Answer> {
    let url = new URL(path.replace(/^\/+/, ''), this.base.href.endsWith('/') ? this.base : new URL(`${this.base.href}/`))
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
    for (let hop = 0; ; hop++) {
      const answer = await this.attempts(this.withCredentials(url))
      if (answer.status === 301 || answer.status === 302 || answer.status === 307 || answer.status === 308) {
        const location = answer.headers.get('location')
        const next = location ? new URL(location, url) : undefined
        if (!next || next.origin !== this.base.origin || hop >= maxRedirects) throw new OpenAlexError(`OpenAlex redirected ${url.pathname} somewhere it will not be followed`, answer.status)
        url = next
        continue
      }
      if (answer.status === 404) throw new OpenAlexError(`OpenAlex has no ${url.pathname}`, 404)
      if (answer.status !== 200) throw new OpenAlexError(`OpenAlex answered HTTP ${answer.status} for ${url.pathname}`, answer.status)
      try {
        return { body: JSON.parse(answer.body.toString('utf8')), url }
      } catch {
        throw new OpenAlexError(`OpenAlex answered ${url.pathname} with something other than JSON`)
      }
    }
  }

  private withCredentials(url: URL): URL {
    const out = new URL(url)
    if (this.options.apiKey) out.searchParams.set('api_key', this.options.apiKey)
    if (this.options.mailto) out.searchParams.set('mailto', this.options.mailto)
    return out
  }

  private async attempts(url: URL) {
    const maxAttempts = this.options.maxAttempts ?? 5
    for (let attempt = 1; ; attempt++) {
      if (this.spent) throw new OpenAlexBudgetError(this.spent)
      let failure: string
      let wait: number | undefined
      try {
        const answer = await fetchCapped(url, { headers: { accept: 'application/json' }, timeoutMs: this.options.timeoutMs ?? 30_000, maxBytes: this.options.maxBytes ?? 20 * 1024 * 1024, signal: this.options.signal })
        // The answer that spends the budget still carries its data; only the next request is refused.
        if (budgetSpent(answer.headers)) this.spent = nextMidnightUtc(this.now())
        if (!transientStatus.has(answer.status)) return answer
        if (this.spent) throw new OpenAlexBudgetError(this.spent)
        failure = `HTTP ${answer.status}`
        wait = retryAfterMs(answer.headers, this.now())
      } catch (error) {
        if (!(error instanceof TransportError) || error.failure === 'too-large') throw error instanceof TransportError ? new OpenAlexError(error.message) : error
        failure = error.message
      }
      if (attempt >= maxAttempts) throw new OpenAlexError(`OpenAlex still failing after ${attempt} tries: ${failure}`)
      const delay = wait ?? this.backoff(attempt)
      if (delay > (this.options.maxDelayMs ?? 60_000)) throw new OpenAlexError(`OpenAlex asked to wait ${Math.ceil(delay / 1000)} s, longer than allowed`)
      await this.sleep(delay)
    }
  }

  /** Exponential with equal jitter: half the step fixed, half random, so parallel clients spread out. */
  private backoff(attempt: number): number {
    const step = Math.min(this.options.maxDelayMs ?? 60_000, (this.options.baseDelayMs ?? 1000) * 2 ** (attempt - 1))
    return step / 2 + (this.options.random ?? Math.random)() * (step / 2)
  }
}
