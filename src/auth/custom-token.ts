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
const clockToleranceMs = 5_000
const use = 'saml_custom'

/** The custom claims single sign-on sets (interface spec), plus what makes this a custom token. */
export interface CustomTokenClaims {
  readonly sub: string
  readonly email: string
  readonly role: Role
  readonly campusId: string
  readonly samlAuthenticated: true
  readonly affiliation: readonly string[]
  readonly token_use: typeof use
  readonly jti: string
  readonly iat: number
  readonly exp: number
  readonly iss: string
  readonly aud: string
}

export type CustomTokenSubject = Pick<CustomTokenClaims, 'sub' | 'email' | 'role' | 'campusId' | 'affiliation'>

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
    this.audience = `${config.jwt.audience}/auth/token`
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
