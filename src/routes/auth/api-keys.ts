import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { keyGrantable, present } from '../../auth/api-keys/service.js'
import { allow, type Permission } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { PermissionDenied } from '../../errors.js'
import { actorOf } from '../../http/actor.js'
import { paging } from '../shared.js'
import { errorResponses } from '../responses.js'

const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'First characters of the key, to tell keys apart' }),
  permissions: Type.Array(Type.String()),
  expiration: Type.String({ format: 'date-time' }),
  status: Type.String({ enum: ['active', 'expired', 'revoked'] }),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  owner: Type.String(),
}, { title: 'ApiKey' })

const params = Type.Object({ id: Type.String({ pattern: '^ApiKey/[A-Za-z0-9._~-]{1,160}$', 'x-reference': 'ApiKey' }) })

/** API key management (docs/auth.md, "API keys"): for signed-in users only; a key cannot manage keys. */
export const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['API keys']
  const grantable = keyGrantable(app.schema)

  app.post('/api/api-keys', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: 'Create an API key; the key itself is in this answer only',
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 100 }),
        permissions: Type.Array(Type.Unsafe<Permission>({ type: 'string', enum: grantable }), {
          minItems: 1, uniqueItems: true, description: 'Only permissions you hold, and only those that open a route to a key: the catalog reads and writes',
        }),
        expiresInDays: Type.Integer({ minimum: 1, maximum: 365, default: 90, description: 'Lifetime, 1 to 365 days' }),
      }, { additionalProperties: false }),
      response: { 201: Type.Intersect([ApiKey, Type.Object({ key: Type.String() })]), ...errorResponses(400, 401, 403) },
    },
  }, async (request, reply) => {
    const created = await app.apiKeys.create(principalOf(request), actorOf(request), request.body)
    reply.code(201).header('cache-control', 'no-store')
    return created
  })

  app.get('/api/api-keys', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: 'Your API keys (admins: all=true for everyone\'s)',
      querystring: Type.Object({ all: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(ApiKey), total: Type.Integer() }), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    const caller = principalOf(request)
    const all = request.query.all === true
    if (all && caller.role !== 'admin') throw new PermissionDenied('Permission denied: only admins may list every key')
    const items = (await app.apiKeys.list(all ? undefined : caller.userId)).map((k) => present(k))
    return { items, total: items.length }
  })

  app.get('/api/api-keys/:id/usage', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: 'Uses of a key: when, from where, what', params,
      description: 'Newest first. Each entry counts the uses from one address of one method and route within one second: `at` is the first of them, `lastAt` the last. `total` counts entries.',
      querystring: Type.Object(paging, { additionalProperties: false }),
      response: {
        200: Type.Object({
          items: Type.Array(Type.Object({
            at: Type.String(), lastAt: Type.String(), ip: Type.String(), method: Type.String(), route: Type.String(), count: Type.Integer({ minimum: 1 }),
          })),
          total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(),
        }),
        ...errorResponses(400, 401, 404),
      },
    },
  }, async (request) => {
    const { limit, offset } = request.query
    await app.usageLog.flush()
    return app.apiKeys.usage(request.params.id, principalOf(request), limit, offset)
  })

  app.post('/api/api-keys/:id/revoke', {
    config: { policy: allow.signedIn },
    schema: { tags, summary: 'Revoke a key: it stops working at once and for good', params, response: { 200: ApiKey, ...errorResponses(400, 401, 404) } },
  }, async (request) => present(await app.apiKeys.revoke(request.params.id, principalOf(request), actorOf(request))))

  app.delete('/api/api-keys/:id', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: 'Delete a revoked or expired key and its usage log', params,
      response: { 200: Type.Object({ id: Type.String(), message: Type.String() }), ...errorResponses(400, 401, 404, 409) },
    },
  }, async (request) => {
    const { id } = request.params
    await app.apiKeys.remove(id, principalOf(request), actorOf(request))
    return { id, message: `${id} deleted` }
  })
}
