import { X509Certificate } from 'node:crypto'
import { isAppError, SamlInvalid, SamlMalformed, SamlSignatureInvalid, SamlUserUnusable, type AppError } from '../../errors.js'

/** The interface spec's three sign-in failure messages; callers see only these. */
export const samlMessages = {
  validation: 'SAML validation failed',
  signature: 'Signature validation failed',
  user: 'User not found after SAML login',
} as const

export type SamlFailureKind = keyof typeof samlMessages

const samlErrors = { validation: SamlInvalid, signature: SamlSignatureInvalid, user: SamlUserUnusable }

/**
 * A rejected sign-in. `message` is the spec's text shown to the caller; `reason` says what exactly
 * failed, for the log, and never carries assertion content.
 */
export interface SamlFailure extends AppError {
  readonly kind: SamlFailureKind
  readonly reason: string
}

/** A sign-in refused with the spec's message for its kind; `malformed` when the post itself is not a SAML response (400). */
export function samlFailure(kind: SamlFailureKind, reason: string, malformed = false): SamlFailure {
  const error = malformed ? new SamlMalformed(samlMessages[kind]) : new samlErrors[kind](samlMessages[kind])
  return Object.assign(error, { kind, reason })
}

export function isSamlFailure(error: unknown): error is SamlFailure {
  return isAppError(error) && 'kind' in error && 'reason' in error
}

/** node-saml's messages for a missing, broken or ambiguous signature. */
const signatureProblems = [
  /^Invalid signature/,
  /^Invalid document signature/,
  /^Too many signatures/,
  /^ref URI included quote/,
  /^Only 1 signed references/,
  /^Cannot obtain assertion from signed data/,
]

function keyInfoCertificates(xml: string): X509Certificate[] {
  const found: X509Certificate[] = []
  for (const match of xml.matchAll(/<(?:[\w.-]+:)?X509Certificate\s*>([A-Za-z0-9+/=\s]+)<\//g)) {
    try {
      found.push(new X509Certificate(Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64')))
    } catch {
      // Not a certificate: says nothing about which message applies.
    }
  }
  return found
}

/**
 * Which spec message a signature that did not verify gets. The spec names "wrong identity provider
 * certificate" as a validation failure and "not signed, or the certificate is out of date" as a
 * signature failure. A certificate in KeyInfo only picks the message: it is never used to verify.
 */
function signatureFailure(reason: string, xml: string, pinned: readonly string[], now: Date): SamlFailure {
  const offered = keyInfoCertificates(xml)
  const pinnedCerts = pinned.map((pem) => new X509Certificate(pem))
  const current = offered.filter((cert) => new Date(cert.validTo) > now)
  const foreign = current.filter((cert) => !pinnedCerts.some((p) => p.fingerprint256 === cert.fingerprint256))
  if (offered.length > 0 && current.length === offered.length && foreign.length > 0) {
    return samlFailure('validation', `${reason} (signed with a certificate that is not the configured one)`)
  }
  return samlFailure('signature', reason)
}

/** Maps an error thrown by node-saml's response validation to the failure the caller sees. */
export function classifyValidationError(error: unknown, xml: string, pinned: readonly string[], now = new Date()): AppError {
  if (isAppError(error)) return error
  const reason = error instanceof Error ? error.message : String(error)
  if (signatureProblems.some((pattern) => pattern.test(reason))) return signatureFailure(reason, xml, pinned, now)
  return samlFailure('validation', reason)
}
