import { randomUUID } from 'node:crypto'
import { createSigner, createVerifier } from 'fast-jwt'
import type { Config } from '../config.js'
import { CustomTokenInvalid } from '../errors.js'
import type { SigningKeys } from './keys.js'
import type { OneTimeClaims } from './one-time.js'
import type { Role } from './permissions.js'
import { requiredClaims } from './tokens.js'

/** Lifetime of a custom token: long enough for a browser redirect, short for a URL that may leak. */
export const customTokenLifetimeMs = 60_000
/** Lifetime of a sign-in link's token: a person copies it from a terminal (docs/auth.md, "Getting one"). */
export const signInLinkLifetimeMs = 15 * 60_000
const clockToleranceMs = 5_000
const use = 'saml_custom'

/**
 * The custom claims single sign-on sets (interface spec), plus what makes this a custom token. A
 * sign-in link's token (`npm run token -- --link`) carries no SAML claims, and may carry the role to
 * give its user, as the script's ID tokens do.
 */
export interface CustomTokenClaims {
  readonly sub: string
  readonly email: string
  readonly role?: Role
  readonly campusId?: string
  readonly samlAuthenticated: boolean
  readonly affiliation?: readonly string[]
  readonly role_grant?: Role
  readonly token_use: typeof use
  readonly jti: string
  readonly iat: number
  readonly exp: number
  readonly iss: string
  readonly aud: string
}

export interface CustomTokenSubject {
  readonly sub: string
  readonly email: string
  readonly role: Role
  readonly campusId: string
  readonly affiliation: readonly string[]
}

function audienceOf(config: Config): string {
  return `${config.jwt.audience}/auth/token`
}

/**
 * A one-time sign-in link for a user, signed with the service's key outside the server (the token
 * script, the start-up line): `{FRONTEND_URL}/auth/saml-callback?token=...`. Its token is redeemed like
 * single sign-on's, once, but lives 15 minutes; the server creates the user from it if needed.
 */
export function signInLink(keys: SigningKeys, config: Config, user: { sub: string; email: string; role_grant?: Role }): string {
  const sign = createSigner({ key: keys.signKey, algorithm: keys.algorithm, iss: config.jwt.issuer, aud: audienceOf(config), expiresIn: signInLinkLifetimeMs })
  const token = sign({ ...user, samlAuthenticated: false, token_use: use, jti: randomUUID() })
  return `${config.frontendUrl}/auth/saml-callback?token=${encodeURIComponent(token)}`
}

/**
 * The one-time credential the SAML callback hands the browser. Its audience is the token-exchange
 * endpoint, not the API, so the bearer check never accepts it; redeeming it claims its jti, so it
 * works once across every instance.
 */
export class CustomTokens {
  readonly audience: string
  private readonly sign: (payload: Record<string, unknown>) => string
  private readonly verify: (token: string) => CustomTokenClaims

  constructor(keys: SigningKeys, config: Config, private readonly claims: OneTimeClaims) {
    this.audience = audienceOf(config)
    this.sign = createSigner({
      key: keys.signKey, algorithm: keys.algorithm, iss: config.jwt.issuer, aud: this.audience, expiresIn: customTokenLifetimeMs,
    })
    this.verify = createVerifier({
      key: keys.verifyKey,
      algorithms: [keys.algorithm],
      allowedIss: [config.jwt.issuer],
      allowedAud: [this.audience],
      requiredClaims: [...requiredClaims, 'token_use'],
      clockTolerance: clockToleranceMs,
    })
  }

  issue(subject: CustomTokenSubject): string {
    return this.sign({ ...subject, affiliation: [...subject.affiliation], samlAuthenticated: true, token_use: use, jti: randomUUID() })
  }

  /** The token's claims, once; an invalid, expired or already redeemed token is a 401. */
  async redeem(token: string): Promise<CustomTokenClaims> {
    let claims: CustomTokenClaims
    try {
      claims = this.verify(token)
    } catch {
      throw new CustomTokenInvalid('Invalid or expired custom token')
    }
    if (claims.token_use !== use || typeof claims.jti !== 'string') throw new CustomTokenInvalid('Invalid or expired custom token')
    const remainingMs = claims.exp * 1000 - Date.now() + clockToleranceMs
    if (!await this.claims.claim('custom-token', claims.jti, remainingMs)) {
      throw new CustomTokenInvalid('This custom token was already used; sign in again')
    }
    return claims
  }
}
