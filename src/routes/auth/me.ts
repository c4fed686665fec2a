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
  permissions: Type.Array(Type.String({ enum: [...permissions] })),
}, { title: 'CurrentUser' })

/**
 * The caller's campus id: their user record's (set by single sign-on), else that of the Person they are
 * linked to (DESIGN 5.1), as a user signed in with a token from `npm run token` is, by email.
 */
async function campusIdOf(people: People, principal: Principal): Promise<string | null> {
  if (principal.campusId) return principal.campusId
  const campusId = (await people.personOf(principal))?.campus_id
  return typeof campusId === 'string' ? campusId : null
}

export const meRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api/auth/me', {
    config: { policy: allow.signedIn },
    schema: { tags: ['Auth'], summary: 'The signed-in user', response: { 200: CurrentUser, ...errorResponses(401) } },
  }, async (request) => {
    const p = principalOf(request)
    return { id: p.userId, email: p.email, role: p.role, campusId: await campusIdOf(app.people, p), permissions: [...p.permissions].sort() }
  })
}
