import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { eventTypes } from '../../domain/notifications/events.js'
import { RecordNotFound } from '../../errors.js'
import { callerOf } from '../../workflows/identity.js'
import { errorResponses } from '../responses.js'
import { paging } from '../shared.js'

const Notification = Type.Object({
  _id: Type.String(),
  type: Type.Union(eventTypes.map((t) => Type.Literal(t)), { description: 'The event type (docs/notifications.md)' }),
  subject: Type.String({ description: 'The id of what it is about: an entity, a job, a sync run' }),
  title: Type.String(),
  link: Type.String({ description: 'A path into the web app' }),
  created_at: Type.String({ format: 'date-time' }),
  read_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
}, { title: 'Notification', additionalProperties: false })

const NotificationId = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) }, { additionalProperties: false })

/**
 * In-app notifications (docs/notifications.md): the caller's own, under any of their ids (their User id and
 * the Person it links to). Nobody reads or marks another's; an id that is not the caller's is a 404.
 */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const idsOf = async (request: Parameters<typeof principalOf>[0]) => [...(await callerOf(principalOf(request), app.people)).ids]

  app.get('/api/notifications', {
    config: { policy: allow.signedIn },
    schema: {
      tags: ['Notifications'], summary: "The caller's notifications, newest first",
      querystring: Type.Object({ ...paging, unread: Type.Optional(Type.Boolean({ description: 'true: unread ones only' })) }, { additionalProperties: false }),
      response: {
        200: Type.Object({ items: Type.Array(Notification), total: Type.Integer(), unread: Type.Integer({ description: 'Unread of all the caller has' }), limit: Type.Integer(), offset: Type.Integer() }),
        ...errorResponses(400, 401, 403),
      },
    },
  }, async (request) => {
    const { unread, limit, offset } = request.query
    return app.notifications.inApp.list(await idsOf(request), { ...(unread ? { unread } : {}), limit, offset })
  })

  app.post('/api/notifications/:id/read', {
    config: { policy: allow.signedIn },
    schema: {
      tags: ['Notifications'], summary: 'Marks one of the caller\'s notifications read', description: 'A repeat keeps the first time it was read.',
      params: NotificationId,
      response: { 200: Notification, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const item = await app.notifications.inApp.markRead(await idsOf(request), request.params.id, new Date())
    if (!item) throw new RecordNotFound(`Notification ${request.params.id} not found`)
    return item
  })

  app.post('/api/notifications/read-all', {
    config: { policy: allow.signedIn },
    schema: {
      tags: ['Notifications'], summary: "Marks all the caller's notifications read",
      response: { 200: Type.Object({ marked: Type.Integer({ description: 'How many were unread' }) }), ...errorResponses(401, 403) },
    },
  }, async (request) => ({ marked: await app.notifications.inApp.markAllRead(await idsOf(request), new Date()) }))
}
