import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { noQuery } from '../shared.js'
import { errorResponses } from '../responses.js'

const units = ['B', 'KB', 'MB', 'GB', 'TB']

/** `1.2 MB`: binary multiples, one decimal above bytes. */
export function humanBytes(bytes: number): string {
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`
}

const Cleared = Type.Object({ message: Type.String(), keysDeleted: Type.Integer() })

/** Cache administration (manage_jobs); the per-type clears name the resources the interface caches. */
export const cacheAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const cache = app.responseCache
  const policy = allow.permission('manage_jobs')
  const tags = ['Administration']

  app.get('/api/admin/cache/stats', {
    config: { policy },
    schema: {
      tags, summary: 'Response cache statistics', description: 'Entries of this service and the memory they use.', querystring: noQuery,
      response: { 200: Type.Object({ keys: Type.Integer(), memory: Type.String() }), ...errorResponses(401, 403, 503) },
    },
  }, async () => {
    const { keys, bytes } = await cache.stats()
    return { keys, memory: humanBytes(bytes) }
  })

  const clear = (path: string, group: string | undefined, what: string, operationId: string) => app.post(path, {
    config: { policy },
    schema: { tags, summary: `Clear ${what}`, operationId, querystring: noQuery, response: { 200: Cleared, ...errorResponses(401, 403, 503) } },
  }, async () => {
    const keysDeleted = await cache.clear(group)
    return { message: `Cleared ${what}`, keysDeleted }
  })
  clear('/api/admin/cache/clear', undefined, 'all cached responses', 'clearCache')
  clear('/api/admin/cache/clear/all', undefined, 'all cached responses', 'clearAllCache')
  const collectionAt = (path: string) => app.schema.resources.find((r) => r.path === path)!.collection
  clear('/api/admin/cache/clear/people', collectionAt('/api/people'), 'cached people responses', 'clearPeopleCache')
  clear('/api/admin/cache/clear/courses', collectionAt('/api/courses'), 'cached course responses', 'clearCoursesCache')
}
