import type { FastifyRequest } from 'fastify'
import { CredentialsAmbiguous } from '../errors.js'

export const apiKeyHeader = 'X-API-Key'

export type Credential =
  | { readonly kind: 'none' }
  | { readonly kind: 'bearer' }
  | { readonly kind: 'api-key'; readonly key: string }
  /** An API key header spelled in another case: the spec treats it as missing. */
  | { readonly kind: 'api-key-miscased' }

/**
 * Which credential a request carries. The API key header must be spelled exactly X-API-Key: Node
 * lower-cases header names, so the original spelling is read from rawHeaders (HTTP/1.1; HTTP/2 names are
 * lower case by protocol and accepted as they are).
 */
export function credentialOf(request: FastifyRequest): Credential {
  const hasBearer = typeof request.headers.authorization === 'string' && request.headers.authorization.length > 0
  let key: string | undefined
  let miscased = false
  const raw = request.raw.rawHeaders
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    if (name.length !== apiKeyHeader.length || name.toLowerCase() !== 'x-api-key') continue
    if (name === apiKeyHeader || request.raw.httpVersionMajor >= 2) key = raw[i + 1]
    else miscased = true
  }
  if (hasBearer && (key !== undefined || miscased)) throw new CredentialsAmbiguous('Send either a bearer token or an API key, not both')
  if (hasBearer) return { kind: 'bearer' }
  if (key !== undefined) return { kind: 'api-key', key }
  return miscased ? { kind: 'api-key-miscased' } : { kind: 'none' }
}
