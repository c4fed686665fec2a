import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { ValidationFailed } from '../../errors.js'
import { AuditEntrySchema, auditResourceTypes, type AuditResourceType } from '../../privacy/audit-entry.js'
import { paging } from '../shared.js'
import { errorResponses } from '../responses.js'

const Moment = (description: string) => Type.String({ maxLength: 40, description: `${description}: an ISO 8601 date (2025-09-01) or date-time with a zone (2025-09-01T08:00:00Z)` })

const AuditQuery = Type.Object({
  ...paging,
  userId: Type.Optional(Type.String({ maxLength: 200, description: 'Only entries of this user' })),
  resourceType: Type.Optional(Type.Unsafe<AuditResourceType>({ type: 'string', enum: [...auditResourceTypes] })),
  resourceId: Type.Optional(Type.String({ maxLength: 200, description: 'Only entries about this record' })),
  from: Type.Optional(Moment('Entries at or after')),
  to: Type.Optional(Moment('Entries at or before')),
}, { additionalProperties: false })

const ChainReport = Type.Object({
  intact: Type.Boolean(),
  checked: Type.Integer({ description: 'Entries that checked out before the walk ended' }),
  firstBrokenAt: Type.Optional(Type.Integer({ description: 'Position of the first entry that does not belong where it is' })),
  reason: Type.Optional(Type.String()),
  head: Type.Union([Type.Object({ seq: Type.Integer(), hash: Type.String() }), Type.Null()], {
    description: 'The last entry that checked out; keep it outside the store to detect entries cut off the end later',
  }),
}, { title: 'AuditChainReport' })

const momentShape = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/
const dayMs = 86_400_000

/** An ISO date or zoned date-time as a UTC instant; a bare date as `to` means the end of that day. */
function moment(name: 'from' | 'to', value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const time = momentShape.test(value) ? Date.parse(value) : Number.NaN
  if (Number.isNaN(time)) throw new ValidationFailed(`Invalid query: '${name}' must be an ISO 8601 date or a date-time with a time zone`)
  const wholeDay = name === 'to' && value.length === 10
  return new Date(wholeDay ? time + dayMs - 1 : time).toISOString()
}

/**
 * The audit log, read-only: no route writes, changes or deletes an entry. Reading it is audited too. Only
 * admins read it (the interface spec's rule): no permission, group or API key opens it to anyone else.
 */
export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Administration']
  const audit = { resourceType: 'audit-log', action: 'view' } as const

  app.get('/api/admin/audit', {
    config: { policy: allow.admin, audit },
    schema: {
      tags, summary: 'Audit entries of protected-record access, newest first', querystring: AuditQuery,
      response: {
        200: Type.Object({ items: Type.Array(AuditEntrySchema), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
        ...errorResponses(400, 401, 403, 503),
      },
    },
  }, async (request) => {
    const { query } = request
    const from = moment('from', query.from)
    const to = moment('to', query.to)
    if (from && to && from > to) throw new ValidationFailed("Invalid query: 'from' is after 'to'")
    const page = await app.auditLog.list({ ...query, ...(from ? { from } : {}), ...(to ? { to } : {}) })
    return { ...page, limit: query.limit, offset: query.offset }
  })

  app.get('/api/admin/audit/verify', {
    config: { policy: allow.admin, audit },
    schema: {
      tags, summary: 'Check the audit log\'s hash chain end to end', querystring: Type.Object({}, { additionalProperties: false }),
      response: { 200: ChainReport, ...errorResponses(401, 403, 503) },
    },
  }, async () => app.auditLog.verify())
}
