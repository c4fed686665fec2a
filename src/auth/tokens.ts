import { createHash, randomUUID } from 'node:crypto'
import { createSigner } from 'fast-jwt'
import type { Config } from '../config.js'
import type { SigningKeys } from './keys.js'
import type { Role } from './permissions.js'

/** Claims of an ID token, the bearer credential of every signed-in request. */
export interface IdTokenClaims {
  readonly sub: string
  readonly email: string
  readonly jti: string
  readonly iat: number
  readonly exp: number
  readonly iss: string
  readonly aud: string
  /**
   * Set only by `npm run token` (whoever holds the signing key): the role to give the user. It applies
   * once, when the token is newer than the user's last role change.
   */
  readonly role_grant?: Role
  /**
   * Custom claims of a token issued after single sign-on, for the frontend's use. Authorization never
   * reads them: each request reads the user's current role and groups from the store.
   */
  readonly role?: Role
  readonly campusId?: string
  readonly samlAuthenticated?: boolean
  readonly affiliation?: readonly string[]
}

export const requiredClaims = ['exp', 'iat', 'sub', 'jti', 'iss', 'aud']
/** Seconds of clock difference tolerated between the signer and this server. */
export const clockToleranceSeconds = 30

export function verifyOptions(keys: SigningKeys, config: Config) {
  return {
    algorithms: [keys.algorithm],
    allowedIss: [config.jwt.issuer],
    allowedAud: [config.jwt.audience],
    requiredClaims,
    clockTolerance: clockToleranceSeconds * 1000,
    // fast-jwt's verifier cache. Holds: the verified claims of up to 2000 token strings, each until its
    // own exp. Invalidated by: nothing needs to, since a token's signature and claims never change; the
    // one thing that does, sign-out, is checked outside it on every request (auth/plugin.ts), which
    // test/auth/session.test.ts shows by refusing a signed-out token that was verified just before.
    cache: 2000,
  }
}

export function signOptions(keys: SigningKeys, config: Config) {
  return {
    algorithm: keys.algorithm,
    iss: config.jwt.issuer,
    aud: config.jwt.audience,
    expiresIn: config.jwt.ttlSeconds * 1000,
  }
}

/** Signs outside a running server (the token script), with the same key and options the server uses. */
export function signIdToken(keys: SigningKeys, config: Config, claims: { sub: string; email: string; role_grant?: Role }): string {
  const sign = createSigner({ ...signOptions(keys, config), key: keys.signKey })
  return sign({ ...claims, jti: randomUUID() })
}

/** Users known only by email (the token script) get an id derived from it, so every token names the same user. */
export function userIdForEmail(email: string): string {
  return `User/email-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 24)}`
}
