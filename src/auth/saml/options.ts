import { readFile } from 'node:fs/promises'
import { SAML, ValidateInResponseTo, type CacheProvider, type SamlConfig } from '@node-saml/node-saml'
import type { SamlSettings } from '../../config.js'

/** Accepted clock difference between the IdP and us (interface spec). */
export const clockSkewMs = 120_000
/** An assertion older than this (from its IssueInstant) is refused, whatever its NotOnOrAfter says. */
export const maxAssertionAgeMs = 300_000
/** How long an AuthnRequest we issued can be answered. */
export const requestLifetimeMs = 600_000
export const nameIdFormat = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified'

export interface SpCredentials {
  readonly privateKey: string
  readonly certificate: string
}

/** The SP's signing key and certificate (SAML_KEY_PATH, SAML_CERT_PATH), read once at start-up. */
export async function spCredentials(settings: SamlSettings): Promise<SpCredentials | undefined> {
  if (!settings.keyPath || !settings.certPath) return undefined
  const [privateKey, certificate] = await Promise.all([readFile(settings.keyPath, 'utf8'), readFile(settings.certPath, 'utf8')])
  if (!privateKey.includes('PRIVATE KEY')) throw new Error('SAML_KEY_PATH must hold a PEM private key')
  if (!certificate.includes('BEGIN CERTIFICATE')) throw new Error('SAML_CERT_PATH must hold a PEM certificate')
  return { privateKey, certificate }
}

/**
 * node-saml with every security switch stated: the assertion must be signed (the envelope need not
 * be, per the spec), every response must answer a request we issued, audience is our entity id,
 * SHA-256 for what we sign. The application adds the checks node-saml leaves out (service.ts).
 */
export function samlOptions(settings: SamlSettings, cacheProvider: CacheProvider, sp?: SpCredentials): SamlConfig {
  return {
    callbackUrl: settings.callbackUrl,
    entryPoint: settings.idpSsoUrl,
    issuer: settings.entityId,
    audience: settings.entityId,
    idpCert: [...settings.idpCerts],
    ...(settings.idpEntityId ? { idpIssuer: settings.idpEntityId } : {}),
    identifierFormat: nameIdFormat,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: requestLifetimeMs,
    cacheProvider,
    acceptedClockSkewMs: clockSkewMs,
    maxAssertionAgeMs,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    // Let the IdP choose how the person authenticates (MFA included) instead of demanding a password.
    disableRequestedAuthnContext: true,
    ...(sp ? { privateKey: sp.privateKey, publicCert: sp.certificate } : {}),
  }
}

export function createSaml(settings: SamlSettings, cacheProvider: CacheProvider, sp?: SpCredentials): SAML {
  return new SAML(samlOptions(settings, cacheProvider, sp))
}
