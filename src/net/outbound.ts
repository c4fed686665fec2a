/**
 * One HTTP exchange with an outside system, bounded in time and size (docs/decisions.md, "Calls to outside
 * systems"): only http(s) URLs, redirects never followed implicitly (the caller decides), a deadline covering
 * connect, headers and body, and a body read no further than its cap.
 */

export type TransportFailure = 'timeout' | 'network' | 'too-large'

export class TransportError extends Error {
  constructor(readonly failure: TransportFailure, message: string) {
    super(message)
    this.name = 'TransportError'
  }
}

export interface CappedRequest {
  readonly method?: 'GET' | 'POST'
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  readonly timeoutMs: number
  readonly maxBytes: number
  readonly signal?: AbortSignal
}

export interface CappedResponse {
  readonly status: number
  readonly headers: Headers
  readonly body: Buffer
}

/** Parses a URL and refuses any scheme but http and https (no file:, gopher:, data:). */
export function httpUrl(value: string | URL): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new TypeError(`Not a URL: ${String(value).slice(0, 200)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`Only http and https URLs are allowed, not ${url.protocol}`)
  return url
}

export async function fetchCapped(url: URL, request: CappedRequest): Promise<CappedResponse> {
  const deadline = AbortSignal.timeout(request.timeoutMs)
  const signal = request.signal ? AbortSignal.any([deadline, request.signal]) : deadline
  const failed = (error: unknown): TransportError =>
    deadline.aborted
      ? new TransportError('timeout', `No complete answer within ${request.timeoutMs} ms`)
      : new TransportError('network', error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error))
  let response: Response
  try {
    response = await fetch(httpUrl(url), {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
    })
  } catch (error) {
    throw failed(error)
  }
  const declared = Number(response.headers.get('content-length'))
  if (declared > request.maxBytes) {
    await response.body?.cancel().catch(() => undefined)
    throw new TransportError('too-large', `Answer of ${declared} bytes is over the ${request.maxBytes}-byte cap`)
  }
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    if (response.body) {
      for await (const chunk of response.body) {
        size += chunk.byteLength
        if (size > request.maxBytes) {
          await response.body.cancel().catch(() => undefined)
          throw new TransportError('too-large', `Answer is over the ${request.maxBytes}-byte cap`)
        }
        chunks.push(chunk)
      }
    }
  } catch (error) {
    if (error instanceof TransportError) throw error
    throw failed(error)
  }
  return { status: response.status, headers: response.headers, body: Buffer.concat(chunks) }
}
