import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow, permissions } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import type { Principal } from '../../auth/principal.js'
import type { People } from '../../privacy/relations.js'
import { errorResponses } from '../responses.js'

export const CurrentUser = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.String(),
  campusId: Type.Union([Type.String(), Type.Null()]),
  personId: Type.Union([Type.String(), Type.Null()], { description: 'The Person record the caller is, if any: matched by campus id, else by email (docs/auth.md)' }),
  permissions: Type.Array(Type.String({ enum: [...permissions] })),
  unread_notifications: Type.Integer({ minimum: 0, description: "How many of the caller's notifications are unread (GET /api/notifications), so an app's first screen needs no second request for it" }),
}, { title: 'CurrentUser' })

/**
 * The Person the caller is linked to (docs/auth.md, "Checking a token, the user and their permissions"), and their campus id: their user record's (set by
 * single sign-on), else that Person's, as for a user signed in with a token from `npm run token`.
 */
async function linkOf(people: People, principal: Principal): Promise<{ campusId: string | null; personId: string | null }> {
  const person = await people.personOf(principal)
  const campusId = principal.campusId ?? (typeof person?.campus_id === 'string' ? person.campus_id : null)
  return { campusId, personId: person?._id ?? null }
}

export const meRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api/auth/me', {
    config: { policy: allow.signedIn },
    schema: { tags: ['Auth'], summary: 'The signed-in user', response: { 200: CurrentUser, ...errorResponses(401) } },
  }, async (request) => {
    const p = principalOf(request)
    const link = await linkOf(app.people, p)
    const unread = await app.notifications.inApp.unreadCount([p.userId, ...(link.personId ? [link.personId] : [])])
    return { id: p.userId, email: p.email, role: p.role, ...link, permissions: [...p.permissions].sort(), unread_notifications: unread }
  })
}
