import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { TransportError } from '../../net/outbound.js'
import type { CheckedTarget } from './address.js'

/** The answer of one delivery attempt: its status and the first bytes of its body, for the log. */
export interface PostAnswer {
  readonly status: number
  readonly location: string | undefined
  readonly body: string
}

export interface PostOptions {
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer
  readonly timeoutMs: number
  /** The answer body is read up to this many bytes and the rest left unread. */
  readonly maxBytes: number
  readonly signal?: AbortSignal
}

/** A resolver that answers only the address already checked, so DNS cannot change between check and connect. */
function pinned(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    // With autoSelectFamily (Node's default) the socket asks for every address at once.
    if ((options as { all?: boolean }).all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }])
    else callback(null, address, family)
  }
}

/**
 * POSTs to a checked target, connecting to its checked address: the Host header and the TLS server name
 * (and so the certificate check) stay the URL's host. No redirect is followed (a 3xx is answered as is),
 * no connection is reused, and the deadline covers connecting, the headers and the body read.
 */
export function postPinned(target: CheckedTarget, options: PostOptions): Promise<PostAnswer> {
  const { url } = target
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<PostAnswer>((resolve, reject) => {
    let settled = false
    const finish = (error: Error | null, answer?: PostAnswer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      if (error) {
        request.destroy()
        reject(error)
      } else {
        resolve(answer!)
      }
    }
    const request = send({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: { ...options.headers, 'content-length': String(options.body.length) },
      agent: false,
      lookup: pinned(target.address, target.family),
    })
    // Before anything can destroy the request: a destroyed request emits an error, which must have a listener.
    request.on('error', (error) => finish(new TransportError('network', error.message)))
    const timer = setTimeout(() => finish(new TransportError('timeout', `no complete answer within ${options.timeoutMs} ms`)), options.timeoutMs)
    const onAbort = () => finish(options.signal!.reason instanceof Error ? options.signal!.reason : new Error('aborted'))
    if (options.signal?.aborted) return onAbort()
    options.signal?.addEventListener('abort', onAbort, { once: true })
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = []
      let size = 0
      const done = () => {
        const location = response.headers.location
        finish(null, { status: response.statusCode ?? 0, location, body: Buffer.concat(chunks).subarray(0, options.maxBytes).toString('utf8') })
        response.destroy()
      }
      response.on('data', (chunk: Buffer) => {
        if (size >= options.maxBytes) return
        chunks.push(chunk)
        size += chunk.length
        if (size >= options.maxBytes) done()
      })
      response.on('end', done)
      response.on('error', (error) => finish(new TransportError('network', error.message)))
    })
    request.end(options.body)
  })
}
