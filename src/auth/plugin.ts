import fastifyJwt from '@fastify/jwt'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { systemActor } from '../actor.js'
import type { Config } from '../config.js'
import { ApiKeyNotAllowed, type AppError, AuthRequired, PermissionDenied, TokenInvalid, isAppError } from '../errors.js'
import type { Store } from '../store/port.js'
import { digest } from './api-keys/format.js'
import type { ApiKeyService } from './api-keys/service.js'
import type { UsageLog } from './api-keys/usage.js'
import { credentialOf } from './credentials.js'
import type { SigningKeys } from './keys.js'
import { describePolicy, type Permission, type Policy } from './permissions.js'
import type { Principal } from './principal.js'
import { PrincipalCache } from './principal-cache.js'
import type { Revocations } from './revocations.js'
import { signOptions, verifyOptions, type IdTokenClaims } from './tokens.js'
import type { GroupRecord, UserRecord, UserService } from './users.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: Policy
  }
  interface FastifyRequest {
    principal: Principal | null
    /** Why the credential was refused; raised after rate limiting, so a bad credential still counts. */
    authFailure: AppError | null
    /**
     * The route's access policy, read once as the request is identified (`request.routeOptions` builds a
     * new object on every read); null where the route declares none (the 404 answer, the documentation).
     */
    accessPolicy: Policy | null
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: Omit<IdTokenClaims, 'iat' | 'exp' | 'iss' | 'aud' | 'jti'> & { jti: string }
    user: IdTokenClaims
  }
}

export interface AuthOptions {
  readonly config: Config
  readonly keys: SigningKeys
  readonly users: UserService
  readonly revocations: Revocations
  readonly apiKeys: ApiKeyService
  readonly usageLog: UsageLog
  readonly store: Store
}

/** A principal and how long its credential stays valid. */
interface Identified {
  readonly principal: Principal
  readonly validUntil: number
}

function openToKeys(policy: Policy): boolean {
  return policy.kind === 'permission' && policy.apiKeys === true
}

function principalFrom(user: UserRecord, permissions: ReadonlySet<Permission>, groups: readonly GroupRecord[], extra: Partial<Principal>): Principal {
  return {
    kind: 'user', userId: user._id, email: user.email, role: user.role,
    ...(user.campus_id ? { campusId: user.campus_id } : {}),
    permissions, groups, ...extra,
  }
}

async function bearerPrincipal(request: FastifyRequest, { users, revocations, config }: AuthOptions): Promise<Identified> {
  let claims: IdTokenClaims
  try {
    claims = await request.jwtVerify<IdTokenClaims>()
  } catch {
    throw new TokenInvalid('Invalid or expired token')
  }
  // Checked after (and outside) the verifier's cache, so a signed-out token stays refused.
  if (await revocations.isRevoked(config.jwt.issuer, claims.jti)) throw new TokenInvalid('Invalid or expired token')
  // Before the request has a caller: a user the token names is created by the service itself.
  const user = await users.fromToken(claims, systemActor)
  if (!user) throw new TokenInvalid('Invalid or expired token')
  const { permissions, groups } = await users.access(user)
  const expiresAt = new Date(claims.exp * 1000)
  return { principal: principalFrom(user, permissions, groups, { token: { id: claims.jti, expiresAt } }), validUntil: expiresAt.getTime() }
}

async function keyPrincipal(key: string, { apiKeys, users }: AuthOptions): Promise<Identified> {
  const { key: record, owner } = await apiKeys.verify(key)
  const { permissions: held, groups } = await users.access(owner)
  // A key never grants more than its owner holds now: demoting the owner shrinks the key.
  const permissions = new Set(record.permissions.filter((p) => held.has(p)))
  const principal: Principal = { ...principalFrom(owner, permissions, groups, { apiKey: { id: record._id, prefix: record.prefix } }), kind: 'api-key' }
  return { principal, validUntil: Date.parse(record.expires_at) }
}

interface Principals {
  readonly bearer: PrincipalCache
  readonly keys: PrincipalCache
}

/** The principal a request's credential establishes: at once when it is remembered, else once checked. */
function establish(request: FastifyRequest, policy: Policy, options: AuthOptions, principals: Principals): Principal | Promise<Principal> {
  const credential = credentialOf(request)
  switch (credential.kind) {
    case 'none':
      throw new AuthRequired(openToKeys(policy) ? 'API key required' : 'Authentication required: send Authorization: Bearer <ID token>')
    case 'api-key-miscased':
      throw new AuthRequired('API key required')
    case 'bearer': {
      const header = request.headers.authorization!
      return principals.bearer.get(header) ?? remember(principals.bearer, header, () => bearerPrincipal(request, options))
    }
    case 'api-key': {
      // Keyed by the digest, so no plaintext key outlives its request in memory.
      const hash = digest(credential.key)
      return principals.keys.get(hash) ?? remember(principals.keys, hash, () => keyPrincipal(credential.key, options))
    }
  }
}

/** Only a credential that was accepted is remembered; a refused one is checked again every time. */
async function remember(cache: PrincipalCache, credential: string, build: () => Promise<Identified>): Promise<Principal> {
  const stamp = cache.stamp()
  const { principal, validUntil } = await build()
  cache.set(credential, principal, stamp, validUntil)
  return principal
}

function authorizePolicy(policy: Policy, principal: Principal): void {
  if (principal.kind === 'api-key') {
    if (!openToKeys(policy) || policy.kind !== 'permission') throw new ApiKeyNotAllowed('Permission denied')
    if (!principal.permissions.has(policy.permission)) throw new PermissionDenied('Permission denied')
    return
  }
  if (policy.kind === 'admin' && principal.role !== 'admin') throw new PermissionDenied('Permission denied: admins only')
  if (policy.kind === 'permission' && !principal.permissions.has(policy.permission)) {
    throw new PermissionDenied(`Permission denied: needs ${policy.permission}`)
  }
  if (policy.kind === 'any-permission' && !policy.permissions.some((p) => principal.permissions.has(p))) {
    throw new PermissionDenied(`Permission denied: needs one of ${policy.permissions.join(', ')}`)
  }
}

/** The two halves of access control, run by the request gate with rate limiting between them. */
export interface AccessControl {
  /** Sets `request.accessPolicy` and `request.principal`, or holds why its credential was refused in `request.authFailure`. */
  identify(request: FastifyRequest): void | Promise<void>
  /** Raises a held refusal, or the refusal of the route's policy. */
  authorize(request: FastifyRequest): void
}

declare module 'fastify' {
  interface FastifyInstance {
    access: AccessControl
  }
}

/**
 * The request's own copy of a principal the cache may keep for later requests: anything memoised on
 * it (the caller's Person, privacy/relations.ts) ends with the request, whatever the cache keeps.
 */
function forThisRequest(principal: Principal): Principal {
  return { ...principal }
}

function hold(request: FastifyRequest, error: unknown): void {
  if (!isAppError(error)) throw error
  request.authFailure = error
}

/**
 * Sign-in and access control for every route. Each route declares a policy in `config.policy`; any route
 * added after this plugin without one stops start-up, whatever its path, so nothing is reachable by
 * accident (only the documentation, registered before, and the 404 answer have none). The request gate
 * (http/gate.ts) identifies the caller, counts the request against the caller's rate limit (a refused
 * credential against the address), then, after any other onRequest hook, enforces the policy, all before
 * any body is read.
 */
async function auth(app: FastifyInstance, options: AuthOptions) {
  const { config, keys, usageLog } = options
  const principals: Principals = { bearer: new PrincipalCache(options.store.writeCounts), keys: new PrincipalCache(options.store.writeCounts) }
  await app.register(fastifyJwt, {
    secret: keys.algorithm === 'RS256' ? { private: keys.signKey, public: keys.verifyKey } : keys.signKey,
    sign: signOptions(keys, config),
    verify: verifyOptions(keys, config),
  })
  app.decorateRequest('principal', null)
  app.decorateRequest('authFailure', null)
  app.decorateRequest('accessPolicy', null)

  app.addHook('onRoute', (route) => {
    const policy = route.config?.policy
    if (!policy) throw new Error(`route ${route.method} ${route.url} declares no access policy`)
    const schema = route.schema ?? {}
    route.schema = {
      ...schema,
      security: policy.kind === 'public' ? [] : openToKeys(policy) ? [{ bearerAuth: [] }, { apiKey: [] }] : [{ bearerAuth: [] }],
      description: [schema.description, describePolicy(policy)].filter(Boolean).join(' '),
    }
  })

  app.decorate('access', {
    identify(request) {
      const policy = request.routeOptions.config.policy ?? null
      request.accessPolicy = policy
      if (!policy || policy.kind === 'public') return
      let found: Principal | Promise<Principal>
      try {
        found = establish(request, policy, options, principals)
      } catch (error) {
        return hold(request, error)
      }
      if (!(found instanceof Promise)) {
        request.principal = forThisRequest(found)
        return
      }
      return found.then((principal) => { request.principal = forThisRequest(principal) }, (error: unknown) => hold(request, error))
    },
    authorize(request) {
      if (request.authFailure) throw request.authFailure
      const policy = request.accessPolicy
      const principal = request.principal
      if (!policy || !principal) return
      authorizePolicy(policy, principal)
      if (principal.apiKey) usageLog.record(principal.apiKey.id, request.ip, request.method, request.routeOptions.url ?? request.url)
    },
  } satisfies AccessControl)
}

export const authPlugin = fp(auth, { name: 'auth' })

/** The caller of a route whose policy requires one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AuthRequired('Authentication required')
  return request.principal
}
