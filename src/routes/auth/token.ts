import { randomUUID } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { CustomTokens } from '../../auth/custom-token.js'
import { allow } from '../../auth/permissions.js'
import { CustomTokenInvalid } from '../../errors.js'
import { actorOf } from '../../http/actor.js'
import { errorResponses } from '../responses.js'

const ExchangeBody = Type.Object({
  customToken: Type.String({ minLength: 1, maxLength: 8192, description: 'The token from the SAML callback redirect' }),
}, { additionalProperties: false })

const SignedInUser = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.String(),
  campusId: Type.Union([Type.String(), Type.Null()]),
  displayName: Type.Union([Type.String(), Type.Null()]),
  affiliation: Type.Array(Type.String()),
  samlAuthenticated: Type.Boolean(),
}, { title: 'SignedInUser' })

/** `POST /api/auth/token`: a one-time custom token in, an ID token (the bearer credential) out. */
export const tokenRoutes: FastifyPluginAsyncTypebox<{ customTokens: CustomTokens }> = async (app, { customTokens }) => {
  app.post('/api/auth/token', {
    config: { policy: allow.public },
    onRequest: async (_request, reply) => { reply.header('cache-control', 'no-store') },
    schema: {
      tags: ['Auth'],
      summary: 'Exchange a custom token for an ID token',
      description: 'Each custom token works once, for at most 60 seconds (15 minutes for a sign-in link of `npm run token -- --link`). Send the returned idToken as Authorization: Bearer.',
      body: ExchangeBody,
      response: {
        200: Type.Object({ idToken: Type.String(), expiresIn: Type.Integer({ description: 'Seconds' }), user: SignedInUser }),
        ...errorResponses(400, 401, 503),
      },
    },
  }, async (request) => {
    const { customToken } = request.body
    const claims = await customTokens.redeem(customToken)
    // A sign-in link may name a user the script could not create (it never writes to the store).
    const user = claims.role_grant ? await app.users.fromToken({ ...claims, role_grant: claims.role_grant }, actorOf(request)) : await app.users.byId(claims.sub)
    if (!user) throw new CustomTokenInvalid('User not found after SAML login')
    const affiliation = user.affiliation ?? []
    const idToken = app.jwt.sign({
      sub: user._id, email: user.email, jti: randomUUID(),
      role: user.role, ...(user.campus_id ? { campusId: user.campus_id } : {}), samlAuthenticated: claims.samlAuthenticated, affiliation,
    })
    return {
      idToken,
      expiresIn: app.config.jwt.ttlSeconds,
      user: {
        id: user._id, email: user.email, role: user.role, campusId: user.campus_id ?? null,
        displayName: user.display_name ?? null, affiliation, samlAuthenticated: user.saml_authenticated === true,
      },
    }
  })
}
