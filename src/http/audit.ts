import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { headersOf, type ErrorCode } from '../errors.js'
import type { AuditAction, AuditFacts, AuditResourceType } from '../privacy/audit-entry.js'
import type { AuditLog } from '../privacy/audit-log.js'
import { quoting } from './errors.js'
import { fieldsOf } from './fields.js'

/**
 * A route's audit declaration, in `config.audit`: every request to the route, whatever its outcome,
 * leaves exactly one entry in the audit log before its answer leaves the server.
 */
export interface AuditDeclaration {
  readonly resourceType: AuditResourceType
  readonly action: AuditAction
  /** The path parameter that names the resource; leave out when the path names none. */
  readonly idParam?: string
}

/** What a handler adds to its request's audit entry. */
export interface AuditNote {
  /** The resource, when the path does not name it (the record a create made). */
  resourceId?: string
  /** Why access was granted or refused: self, advisor, instructor, admin or none. */
  basis?: string
}

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: AuditDeclaration
  }
  interface FastifyRequest {
    auditNote: AuditNote | null
  }
}

const maxText = 200

/** Caller-supplied text fit for the log: control characters (CR, LF, ANSI escapes) and line separators removed, length capped. */
function clean(value: unknown, max = maxText): string | null {
  if (typeof value !== 'string') return null
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').slice(0, max)
}

/** The note of an audited request, for its handler to fill in. */
export function auditNote(request: FastifyRequest): AuditNote {
  request.auditNote ??= {}
  return request.auditNote
}

function errorMessage(payload: unknown): string | null {
  const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload
  if (typeof text !== 'string') return null
  try {
    return clean((JSON.parse(text) as { error?: unknown }).error, 300)
  } catch {
    return null
  }
}

function factsOf(request: FastifyRequest, reply: FastifyReply, declared: AuditDeclaration, payload: unknown): AuditFacts {
  const principal = request.principal
  const note = request.auditNote ?? {}
  const params = fieldsOf(request.params)
  const failed = reply.statusCode >= 400
  const headers = request.headers
  return {
    userId: principal?.userId ?? null,
    resourceType: declared.resourceType,
    resourceId: clean(note.resourceId ?? (declared.idParam ? params[declared.idParam] : undefined)),
    action: declared.action,
    ipAddress: request.ip,
    success: !failed,
    statusCode: reply.statusCode,
    reason: failed ? errorMessage(payload) : null,
    authMethod: principal ? (principal.apiKey ? 'api-key' : 'bearer') : headers.authorization ? 'bearer' : headers['x-api-key'] !== undefined ? 'api-key' : 'none',
    apiKeyId: principal?.apiKey?.id ?? null,
    apiKeyPrefix: principal?.apiKey?.prefix ?? null,
    role: principal?.role ?? null,
    basis: note.basis ?? null,
    method: request.method,
    route: request.routeOptions.url ?? '',
    requestId: request.id,
    userAgent: clean(headers['user-agent']),
  }
}

function withheld(declared: AuditDeclaration, served: boolean, requestId: string): string {
  const error = declared.action !== 'view' && served
    ? 'The change was saved, but it could not be recorded in the audit log, so its result is withheld; check the record before retrying'
    : 'The access could not be recorded in the audit log, so nothing is served; try again shortly'
  const code: ErrorCode = 'ADKS_AUDIT_UNAVAILABLE'
  return JSON.stringify({ success: false, error: quoting(error, requestId), statusCode: 503, code })
}

/**
 * Writes the audit entries of routes that declare `config.audit`, in onSend: the one hook every answer
 * passes, errors included (401 before the handler, 403, 400, 404), and the last point at which the answer
 * can still be changed. If the entry cannot be written the answer becomes a 503 without the data (fail
 * closed). Answers of audited routes are never stored by browsers or proxies.
 */
async function audit(app: FastifyInstance, { log }: { log: AuditLog }) {
  app.decorateRequest('auditNote', null)

  // Never throws: a throw here would send the answer through onSend a second time.
  const writeAuditEntry: onSendHookHandler = async (request, reply, payload) => {
    const declared = request.routeOptions.config.audit
    if (!declared) return payload
    reply.header('cache-control', 'no-store')
    const facts = factsOf(request, reply, declared, payload)
    try {
      await log.append(facts)
      return payload
    } catch (err) {
      request.log.error({ err, audit: facts }, 'audit entry could not be written; answer withheld')
      const served = reply.statusCode < 400
      reply.removeHeader('etag')
      reply.removeHeader('location')
      reply.code(503).headers(headersOf('ADKS_AUDIT_UNAVAILABLE')).header('content-type', 'application/json; charset=utf-8')
      return withheld(declared, served, request.id)
    }
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    const declared = route.config?.audit
    if (!declared) return
    if (declared.idParam && !route.url.includes(`:${declared.idParam}`)) {
      throw new Error(`route ${route.method} ${route.url} audits the parameter ${declared.idParam}, which its path lacks`)
    }
    const existing = route.onSend ? [route.onSend].flat() : []
    route.onSend = [...existing, writeAuditEntry]
  })
}

export const auditPlugin = fp(audit, { name: 'audit', dependencies: ['auth'] })
