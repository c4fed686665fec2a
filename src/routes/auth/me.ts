import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { allow, permissions } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { errorResponses } from '../responses.js'

export const CurrentUser = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.String(),
  campusId: Type.Union([Type.String(), Type.Null()]),
  permissions: Type.Array(Type.String({ enum: [...permissions] })),
}, { title: 'CurrentUser' })

export async function meRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/auth/me', {
    config: { policy: allow.signedIn },
    schema: { tags: ['Auth'], summary: 'The signed-in user', response: { 200: CurrentUser, ...errorResponses(401) } },
  }, async (request) => {
    const p = principalOf(request)
    return { id: p.userId, email: p.email, role: p.role, campusId: p.campusId ?? null, permissions: [...p.permissions].sort() }
  })
}
