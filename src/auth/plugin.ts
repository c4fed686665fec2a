import fastifyJwt from '@fastify/jwt'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config.js'
import { AppError, ForbiddenError, UnauthorizedError } from '../errors.js'
import type { Store } from '../store/port.js'
import { digest } from './api-keys/format.js'
import type { ApiKeyService } from './api-keys/service.js'
import type { UsageLog } from './api-keys/usage.js'
import { credentialOf } from './credentials.js'
import type { SigningKeys } from './keys.js'
import { describePolicy, type Permission, type Policy, type Role } from './permissions.js'
import { PrincipalCache } from './principal-cache.js'
import type { Revocations } from './revocations.js'
import { signOptions, verifyOptions, type IdTokenClaims } from './tokens.js'
import type { GroupRecord, UserRecord, UserService } from './users.js'

/** Who is calling, established once per request before any handler runs. */
export interface Principal {
  readonly kind: 'user' | 'api-key'
  /** The signed-in user, or the owner of the API key. */
  readonly userId: string
  readonly email: string
  readonly role: Role
  readonly campusId?: string
  /** For a key: what it was granted and its owner still holds. */
  readonly permissions: ReadonlySet<Permission>
  readonly groups: readonly GroupRecord[]
  readonly token?: { readonly id: string; readonly expiresAt: Date }
  readonly apiKey?: { readonly id: string; readonly prefix: string }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: Policy
  }
  interface FastifyRequest {
    principal: Principal | null
    /** Why the credential was refused; raised after rate limiting, so a bad credential still counts. */
    authFailure: AppError | null
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
  readonly usage: UsageLog
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
    throw new UnauthorizedError('Invalid or expired token')
  }
  // Checked after (and outside) the verifier's cache, so a signed-out token stays refused.
  if (await revocations.isRevoked(config.jwt.issuer, claims.jti)) throw new UnauthorizedError('Invalid or expired token')
  const user = await users.fromToken(claims)
  if (!user) throw new UnauthorizedError('Invalid or expired token')
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

async function identify(request: FastifyRequest, policy: Policy, options: AuthOptions, cache: PrincipalCache): Promise<Principal> {
  const credential = credentialOf(request)
  switch (credential.kind) {
    case 'none':
      throw new UnauthorizedError(openToKeys(policy) ? 'API key required' : 'Authentication required: send Authorization: Bearer <ID token>')
    case 'api-key-miscased':
      throw new UnauthorizedError('API key required')
    case 'bearer':
      return cached(cache, `bearer ${request.headers.authorization}`, () => bearerPrincipal(request, options))
    case 'api-key':
      // Keyed by the digest, so no plaintext key outlives its request in memory.
      return cached(cache, `key ${digest(credential.key)}`, () => keyPrincipal(credential.key, options))
  }
}

/** Only a credential that was accepted is remembered; a refused one is checked again every time. */
async function cached(cache: PrincipalCache, credential: string, establish: () => Promise<Identified>): Promise<Principal> {
  const known = cache.get(credential)
  if (known) return known
  const stamp = cache.stamp()
  const { principal, validUntil } = await establish()
  cache.set(credential, principal, stamp, validUntil)
  return principal
}

function authorize(policy: Policy, principal: Principal): void {
  if (principal.kind === 'api-key') {
    if (!openToKeys(policy) || policy.kind !== 'permission' || !principal.permissions.has(policy.permission)) throw new ForbiddenError('Permission denied')
    return
  }
  if (policy.kind === 'admin' && principal.role !== 'admin') throw new ForbiddenError('Permission denied: admins only')
  if (policy.kind === 'permission' && !principal.permissions.has(policy.permission)) {
    throw new ForbiddenError(`Permission denied: needs ${policy.permission}`)
  }
  if (policy.kind === 'any-permission' && !policy.permissions.some((p) => principal.permissions.has(p))) {
    throw new ForbiddenError(`Permission denied: needs one of ${policy.permissions.join(', ')}`)
  }
}

/**
 * Sign-in and access control for every route. Each route declares a policy in `config.policy`; any route
 * added after this plugin without one stops start-up, whatever its path, so nothing is reachable by
 * accident (only the documentation, registered before, and the 404 answer have none). The caller is identified in
 * onRequest (failures are held, not thrown, so the rate limiter still counts them against the caller's
 * address), and the policy is enforced in preParsing, before any body is read.
 */
async function auth(app: FastifyInstance, options: AuthOptions) {
  const { config, keys, usage } = options
  const principals = new PrincipalCache(options.store.writeCounts)
  await app.register(fastifyJwt, {
    secret: keys.algorithm === 'RS256' ? { private: keys.signKey, public: keys.verifyKey } : keys.signKey,
    sign: signOptions(keys, config),
    verify: verifyOptions(keys, config),
  })
  app.decorateRequest('principal', null)
  app.decorateRequest('authFailure', null)

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

  app.addHook('onRequest', async (request) => {
    const policy = request.routeOptions.config.policy
    if (!policy || policy.kind === 'public') return
    try {
      request.principal = await identify(request, policy, options, principals)
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      request.authFailure = error
    }
  })

  app.addHook('preParsing', async (request) => {
    if (request.authFailure) throw request.authFailure
    const policy = request.routeOptions.config.policy
    const principal = request.principal
    if (!policy || !principal) return
    authorize(policy, principal)
    if (principal.apiKey) usage.record(principal.apiKey.id, request.ip, request.method, request.routeOptions.url ?? request.url)
  })
}

export const authPlugin = fp(auth, { name: 'auth' })

/** The caller of a route whose policy requires one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError()
  return request.principal
}
