import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CustomTokens } from '../../auth/custom-token.js'
import { allow } from '../../auth/permissions.js'
import type { SamlIdentity } from '../../auth/saml/attributes.js'
import { isSamlFailure, samlFailure } from '../../auth/saml/failure.js'
import type { SamlSignIn } from '../../auth/saml/service.js'
import type { UserRecord, UserService } from '../../auth/users.js'
import type { Actor } from '../../actor.js'
import { SsoNotConfigured, hasStatus } from '../../errors.js'
import { actorOf } from '../../http/actor.js'
import { errorResponses } from '../responses.js'

export interface SamlRouteOptions {
  /** Null when the identity provider is not configured. */
  readonly signIn: SamlSignIn | null
  readonly customTokens: CustomTokens
}

/** A SAMLResponse is tens of kilobytes; anything near this is not one (docs/auth.md, "What the callback checks"). */
export const callbackBodyLimit = 256 * 1024

/** As identity servers answer for a provider they do not have (docs/auth.md, "Trying it locally"): nothing here is down. */
const notConfigured = () => new SsoNotConfigured('Single sign-on is not configured')

/** An HTML form post, as the IdP's auto-submitting page sends it; repeated fields become lists. */
function formFields(text: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null)
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = fields[name]
    fields[name] = previous === undefined ? value : [...[previous].flat(), value]
  }
  return fields
}

/** A script or test that asks for JSON gets JSON; a browser gets redirected to the frontend. */
function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? ''
  return /application\/json/i.test(accept) && !/text\/html/i.test(accept)
}

async function signInUser(users: UserService, identity: SamlIdentity, actor: Actor): Promise<UserRecord> {
  try {
    return await users.upsertFromSaml(identity, actor)
  } catch (error) {
    if (hasStatus(error, 400) || hasStatus(error, 409)) throw samlFailure('user', error.message)
    throw error
  }
}

const Redirect = (description: string) => Type.Null({ description })
const unconfigured = { 404: Type.Ref('ErrorBody', { description: 'Single sign-on is not configured' }) }

export const samlRoutes: FastifyPluginAsyncTypebox<SamlRouteOptions> = async (app, { signIn, customTokens }) => {
  const frontendCallback = (params: Record<string, string>) =>
    `${app.config.frontendUrl}/auth/saml-callback?${new URLSearchParams(params).toString()}`
  const configured = (): SamlSignIn => {
    if (!signIn) throw notConfigured()
    return signIn
  }
  const noStore = async (_request: FastifyRequest, reply: FastifyReply) => { reply.header('cache-control', 'no-store') }

  app.addContentTypeParser<string>('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: callbackBodyLimit },
    (_request, body, done) => done(null, formFields(body)))

  app.get('/api/auth/saml/login', {
    config: { policy: allow.public },
    onRequest: noStore,
    schema: {
      tags: ['Auth'],
      summary: 'Start single sign-on',
      description: 'Redirects to the identity provider with an AuthnRequest. `returnTo` must be a same-site path; anything else becomes /dashboard.',
      querystring: Type.Object({ returnTo: Type.Optional(Type.String({ description: 'Path to return to after sign-in' })) }),
      response: { 302: Redirect('To the identity provider'), ...errorResponses(400, 503), ...unconfigured },
    },
  }, async (request, reply) => {
    return reply.redirect(await configured().loginUrl(request.query.returnTo), 302)
  })

  app.post('/api/auth/saml/callback', {
    config: { policy: allow.public },
    bodyLimit: callbackBodyLimit,
    onRequest: noStore,
    schema: {
      tags: ['Auth'],
      summary: 'Assertion consumer service',
      description: 'The identity provider posts the SAMLResponse here. A browser is redirected to '
        + '{FRONTEND_URL}/auth/saml-callback with `token` (a one-time custom token) and `returnTo`, or with `error`. '
        + 'A client sending Accept: application/json gets `{token, returnTo}` or the error as JSON.',
      body: Type.Object({ SAMLResponse: Type.Optional(Type.String()), RelayState: Type.Optional(Type.String()) }),
      response: {
        200: Type.Object({ token: Type.String(), returnTo: Type.String() }),
        303: Redirect('To the frontend, with token and returnTo, or error'),
        ...errorResponses(400, 401, 413, 503),
        ...unconfigured,
      },
    },
  }, async (request, reply) => {
    const service = configured()
    try {
      const { identity, returnTo } = await service.verify(request.body)
      const user = await signInUser(app.users, identity, actorOf(request))
      const token = customTokens.issue({
        sub: user._id, email: user.email, role: user.role, campusId: identity.netid, affiliation: identity.affiliation,
      })
      request.log.info({ userId: user._id, role: user.role }, 'SAML sign-in')
      if (wantsJson(request)) return { token, returnTo }
      return reply.redirect(frontendCallback({ token, returnTo }), 303)
    } catch (error) {
      if (!isSamlFailure(error)) throw error
      request.log.warn({ reason: error.reason }, 'SAML sign-in rejected')
      if (wantsJson(request)) throw error
      return reply.redirect(frontendCallback({ error: error.message }), 303)
    }
  })

  app.get('/api/auth/saml/logout', {
    config: { policy: allow.public },
    schema: {
      tags: ['Auth'],
      summary: 'Sign out at the identity provider',
      description: 'Redirects to SAML_IDP_LOGOUT_URL (to the frontend when none is set). The client drops its ID token.',
      response: { 302: Redirect('To the identity provider logout address'), ...unconfigured },
    },
  }, async (_request, reply) => reply.redirect(configured().logoutUrl ?? `${app.config.frontendUrl}/`, 302))

  app.get('/api/auth/saml/metadata', {
    config: { policy: allow.public },
    schema: {
      tags: ['Auth'],
      summary: 'Service provider metadata',
      description: 'SAML 2.0 metadata (XML) to register this service with the identity provider.',
      response: {
        200: { description: 'The metadata document', content: { 'application/samlmetadata+xml': { schema: { type: 'string' } } } },
        ...unconfigured,
      },
    },
  }, async (_request, reply) => reply.type('application/samlmetadata+xml; charset=utf-8').send(configured().metadata()))
}
