import { fetchCapped, httpUrl, TransportError } from '../../net/outbound.js'
import { OneRosterFetchError } from './errors.js'

export interface ClientCredentials {
  readonly tokenUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly scope?: string
  readonly timeoutMs: number
  /** Renew this long before the token's stated expiry, so a request never leaves with a dying token. */
  readonly renewBeforeMs?: number
  readonly now?: () => number
}

/**
 * OAuth 2.0 client credentials (RFC 6749 section 4.4) with the client authenticated by HTTP Basic, as
 * OneRoster 1.2 requires.
 *
 * Cache: holds one access token and the time to renew it. Invalidated when that time passes
 * (`expires_in` less `renewBeforeMs`) or when the provider rejects the token with 401 (`invalidate`).
 * In test/campus-sync/oneroster-rest.test.ts, "a rejected token is renewed once and the page asked again"
 * shows the 401 path, "a token near its expiry is renewed before use" the clock, and "the token is
 * fetched once with HTTP Basic client credentials and reused" the reuse.
 */
export class TokenSource {
  private cached: { token: string; renewAt: number } | undefined
  private readonly now: () => number

  constructor(private readonly options: ClientCredentials) {
    this.now = options.now ?? Date.now
    httpUrl(options.tokenUrl)
  }

  async token(signal?: AbortSignal): Promise<string> {
    if (this.cached && this.now() < this.cached.renewAt) return this.cached.token
    this.cached = undefined
    const fetched = await this.fetchToken(signal)
    this.cached = fetched
    return fetched.token
  }

  invalidate(): void {
    this.cached = undefined
  }

  private async fetchToken(signal?: AbortSignal): Promise<{ token: string; renewAt: number }> {
    const { clientId, clientSecret, scope, timeoutMs } = this.options
    const form = new URLSearchParams({ grant_type: 'client_credentials' })
    if (scope) form.set('scope', scope)
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')
    let answer
    try {
      answer = await fetchCapped(httpUrl(this.options.tokenUrl), {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        timeoutMs,
        maxBytes: 64 * 1024,
        signal,
      })
    } catch (error) {
      if (error instanceof TransportError) throw new OneRosterFetchError('token', 0, error.failure, error.message)
      throw error
    }
    if (answer.status !== 200) {
      const failure = answer.status === 400 || answer.status === 401 ? 'auth' : 'http'
      throw new OneRosterFetchError('token', 0, failure, `token endpoint answered HTTP ${answer.status}`, answer.status)
    }
    let body: { access_token?: unknown; expires_in?: unknown }
    try {
      body = JSON.parse(answer.body.toString('utf8')) as typeof body
    } catch {
      throw new OneRosterFetchError('token', 0, 'bad-answer', 'token endpoint answered something other than JSON')
    }
    if (typeof body.access_token !== 'string' || body.access_token === '') throw new OneRosterFetchError('token', 0, 'bad-answer', 'token endpoint answered no access_token')
    // A provider that omits expires_in gets an hour, the common default; renewing early is harmless.
    const lifetimeMs = (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600) * 1000
    const renewBeforeMs = Math.min(this.options.renewBeforeMs ?? 60_000, lifetimeMs / 2)
    return { token: body.access_token, renewAt: this.now() + lifetimeMs - renewBeforeMs }
  }
}
