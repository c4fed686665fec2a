import { createHmac, createSign, randomUUID, type KeyObject } from 'node:crypto'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { roleDefaults, type Policy, type Role } from '../../src/auth/permissions.js'
import type { Config } from '../../src/config.js'
import { userIdForEmail } from '../../src/auth/tokens.js'

/** Every log line the app writes, kept so a test can search them for secrets. */
export interface CapturedLogs {
  readonly stream: Writable
  readonly lines: string[]
}

export function captureLogs(): CapturedLogs {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean))
      done()
    },
  })
  return { stream, lines }
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url')

export type Signature =
  | { readonly alg: 'none' }
  | { readonly alg: 'HS256'; readonly key: string | Buffer }
  | { readonly alg: 'RS256'; readonly key: KeyObject | string }

/**
 * A JWT assembled by hand, so a test controls every byte: any header, any payload (even one that is not
 * an object), any algorithm, including ones the server must refuse.
 */
export function encodeJwt(header: Record<string, unknown>, payload: unknown, signature: Signature): string {
  const signingInput = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`
  switch (signature.alg) {
    case 'none': return `${signingInput}.`
    case 'HS256': return `${signingInput}.${createHmac('sha256', signature.key).update(signingInput).digest('base64url')}`
    case 'RS256': return `${signingInput}.${createSign('RSA-SHA256').update(signingInput).sign(signature.key, 'base64url')}`
  }
}

/** The claims a valid ID token for this user carries, a minute old and good for an hour. */
export function validClaims(config: Config, email: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000)
  return {
    sub: userIdForEmail(email), email, jti: randomUUID(), iat: now - 60, exp: now + 3600,
    iss: config.jwt.issuer, aud: config.jwt.audience, ...extra,
  }
}

export interface HttpAnswer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
  json(): any
}

/** Starts the app on a free local port and returns it; the app's own teardown closes the server. */
export async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  return (app.server.address() as AddressInfo).port
}

/**
 * A real HTTP/1.1 request whose header names go on the wire exactly as spelled here (`inject` lower-cases
 * them, which would hide the X-API-Key case rule). Fails if no answer comes within `timeoutMs`.
 */
export function send(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: unknown, timeoutMs = 30_000): Promise<HttpAnswer> {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1', port, method, path, agent: false, timeout: timeoutMs,
      headers: { ...headers, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) } : {}) },
    }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({ status: res.statusCode!, headers: res.headers, body: text, json: () => JSON.parse(text) })
      })
    })
    req.on('timeout', () => req.destroy(new Error(`no answer to ${method} ${path} within ${timeoutMs} ms`)))
    req.on('error', reject)
    req.end(payload)
  })
}

export interface DeclaredRoute {
  readonly method: string
  readonly url: string
  readonly policy: Policy | undefined
}

/**
 * Records every route as it is added, with the policy it declares. Passed to buildApp in `plugins`, it
 * is registered before any route; fastify-plugin lets its hook see routes in every plugin after it.
 */
export function routeRecorder(): { plugin: FastifyPluginAsync; routes: DeclaredRoute[] } {
  const routes: DeclaredRoute[] = []
  const plugin = fp(async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url, policy: route.config?.policy })
    })
  })
  return { plugin, routes }
}

/** A concrete URL for a route pattern: any value will do, since access is decided before validation. */
export function sampleUrl(pattern: string): string {
  return pattern.replace(/:[A-Za-z0-9_]+/g, 'X').replace(/\*/g, 'x')
}

/** Whether a signed-in user of this role passes the policy, by the role defaults (docs/auth.md, "Permissions, roles and groups"). */
export function roleMayPass(policy: Policy, role: Role): boolean {
  switch (policy.kind) {
    case 'public':
    case 'signed-in': return true
    case 'admin': return role === 'admin'
    case 'permission': return roleDefaults[role].has(policy.permission)
    case 'any-permission': return policy.permissions.some((p) => roleDefaults[role].has(p))
  }
}
