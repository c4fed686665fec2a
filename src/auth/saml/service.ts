import { randomBytes } from 'node:crypto'
import type { SAML } from '@node-saml/node-saml'
import type { SamlSettings } from '../../config.js'
import type { OneTimeClaims } from '../one-time.js'
import { checkAssertion, readAssertion } from './assertion.js'
import { identityFrom, type SamlIdentity } from './attributes.js'
import { classifyValidationError, samlFailure } from './failure.js'
import { clockSkewMs, createSaml, maxAssertionAgeMs, requestLifetimeMs, spCredentials, type SpCredentials } from './options.js'
import { checkAlgorithms, checkDestination, decodeResponse } from './raw-checks.js'
import { defaultReturnTo, safeReturnTo } from './return-to.js'
import { requestIdCache, type SignInState } from './state.js'

export interface VerifiedSignIn {
  readonly identity: SamlIdentity
  readonly returnTo: string
}

export interface CallbackBody {
  readonly SAMLResponse?: unknown
  readonly RelayState?: unknown
}

const relayShape = /^[A-Za-z0-9_-]{16,64}$/

/**
 * The service provider: builds AuthnRequests, and turns a posted SAMLResponse into a verified
 * identity, at most once per assertion across every instance.
 */
export class SamlSignIn {
  constructor(
    private readonly settings: SamlSettings,
    private readonly saml: SAML,
    private readonly state: SignInState,
    private readonly claims: OneTimeClaims,
    private readonly sp: SpCredentials | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The IdP URL carrying a new AuthnRequest (signed when we have a key). RelayState is an opaque key;
   * the returnTo path it stands for stays on the server, so the IdP round trip cannot change it.
   */
  async loginUrl(returnTo: unknown): Promise<string> {
    const relay = randomBytes(24).toString('base64url')
    await this.state.put(`relay:${relay}`, safeReturnTo(returnTo), requestLifetimeMs)
    return this.saml.getAuthorizeUrlAsync(relay, undefined, {})
  }

  async verify(body: CallbackBody): Promise<VerifiedSignIn> {
    const xml = decodeResponse(body.SAMLResponse)
    checkDestination(xml, this.settings.callbackUrl)
    checkAlgorithms(xml)
    let result: Awaited<ReturnType<SAML['validatePostResponseAsync']>>
    try {
      result = await this.saml.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse as string })
    } catch (error) {
      throw classifyValidationError(error, xml, this.settings.idpCerts, new Date(this.now()))
    }
    const { profile } = result
    if (!profile || result.loggedOut) throw samlFailure('validation', 'the response carries no assertion')
    const assertion = readAssertion(profile.getAssertion?.())
    checkAssertion(assertion, {
      acsUrl: this.settings.callbackUrl,
      ...(this.settings.idpEntityId ? { idpEntityId: this.settings.idpEntityId } : {}),
      clockSkewMs,
    }, this.now())
    // Claimed for as long as node-saml could still accept the assertion.
    const acceptableForMs = assertion.issueInstant + maxAssertionAgeMs + clockSkewMs - this.now()
    if (!await this.claims.claim('saml-assertion', `${assertion.issuer ?? ''}\n${assertion.id}`, acceptableForMs)) {
      throw samlFailure('validation', 'the assertion was already used')
    }
    const inResponseTo = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : ''
    if (!await this.claims.claim('saml-request', inResponseTo, requestLifetimeMs)) {
      throw samlFailure('validation', 'the AuthnRequest was already answered')
    }
    const identity = identityFrom(assertion, this.settings.scopes)
    const relay = typeof body.RelayState === 'string' && relayShape.test(body.RelayState)
      ? await this.state.take(`relay:${body.RelayState}`)
      : null
    return { identity, returnTo: safeReturnTo(relay ?? defaultReturnTo) }
  }

  /** SP metadata: entity id, ACS URL, NameID format, and our signing certificate when we have one. */
  metadata(): string {
    return this.saml.generateServiceProviderMetadata(null, this.sp ? [this.sp.certificate] : null)
  }

  get logoutUrl(): string | undefined {
    return this.settings.idpLogoutUrl
  }
}

export async function createSamlSignIn(settings: SamlSettings, state: SignInState, claims: OneTimeClaims): Promise<SamlSignIn> {
  const sp = await spCredentials(settings)
  const saml = createSaml(settings, requestIdCache(state, requestLifetimeMs), sp)
  return new SamlSignIn(settings, saml, state, claims, sp)
}
