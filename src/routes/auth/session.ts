import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow, permissions } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import type { IdTokenClaims } from '../../auth/tokens.js'
import { TokenInvalid } from '../../errors.js'
import { actorOf } from '../../http/actor.js'
import { errorResponses } from '../responses.js'

const maxTokenLength = 8192

const LoginUser = Type.Object({
  id: Type.String(), email: Type.String(), role: Type.String(), campusId: Type.Union([Type.String(), Type.Null()]),
})

export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/api/auth/login', {
    config: { policy: allow.public },
    schema: {
      tags: ['Auth'], summary: 'Check an ID token and return its user',
      body: Type.Object({ idToken: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ user: LoginUser, message: Type.String() }), ...errorResponses(400, 401) },
    },
  }, async (request) => {
    const { idToken } = request.body
    // No token this service issues comes near this size; a longer one is refused like any bad token.
    if (idToken.length > maxTokenLength) throw new TokenInvalid('Invalid or expired token')
    let claims: IdTokenClaims
    try {
      claims = app.jwt.verify<IdTokenClaims>(idToken)
    } catch {
      throw new TokenInvalid('Invalid or expired token')
    }
    const revoked = await app.revocations.isRevoked(app.config.jwt.issuer, claims.jti)
    const user = revoked ? null : await app.users.fromToken(claims, actorOf(request))
    if (!user) throw new TokenInvalid('Invalid or expired token')
    return { user: { id: user._id, email: user.email, role: user.role, campusId: user.campus_id ?? null }, message: 'Signed in' }
  })

  app.get('/api/auth/permissions', {
    config: { policy: allow.signedIn },
    schema: {
      tags: ['Auth'], summary: 'The caller\'s effective permissions: the role\'s plus every group\'s',
      response: {
        200: Type.Object({
          role: Type.String(),
          permissions: Type.Array(Type.String({ enum: [...permissions] })),
          groups: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), permissions: Type.Array(Type.String()) })),
        }),
        ...errorResponses(401),
      },
    },
  }, async (request) => {
    const p = principalOf(request)
    return {
      role: p.role,
      permissions: [...p.permissions].sort(),
      groups: p.groups.map((g) => ({ id: g._id, name: g.name, permissions: g.permissions })),
    }
  })

  app.post('/api/auth/logout', {
    config: { policy: allow.signedIn },
    schema: {
      tags: ['Auth'], summary: 'Sign out: the bearer token stops working everywhere at once',
      response: { 200: Type.Object({ message: Type.String() }), ...errorResponses(401) },
    },
  }, async (request) => {
    const { token } = principalOf(request)
    if (token) await app.revocations.revoke(app.config.jwt.issuer, token.id, token.expiresAt)
    return { message: 'Signed out' }
  })
}
