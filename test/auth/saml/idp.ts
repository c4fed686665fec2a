import { randomUUID } from 'node:crypto'
import { SignedXml } from 'xml-crypto'
import { makeKeyAndCert, type KeyAndCert } from './cert.js'

/**
 * A test identity provider: builds SAML Responses in code (every part overridable) and signs them
 * with xml-crypto, the way a real IdP would, with its own key pair.
 */

export const algorithms = {
  rsaSha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  rsaSha1: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  hmacSha1: 'http://www.w3.org/2000/09/xmldsig#hmac-sha1',
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
  sha1: 'http://www.w3.org/2000/09/xmldsig#sha1',
} as const

const protocol = 'urn:oasis:names:tc:SAML:2.0:protocol'
const assertionNs = 'urn:oasis:names:tc:SAML:2.0:assertion'
const uriFormat = 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri'

export interface Attribute {
  readonly name: string
  readonly friendlyName?: string
  /** Raw XML content of each AttributeValue. */
  readonly values: readonly string[]
}

/** Attribute by OID, with the friendly name in FriendlyName, as Shibboleth sends them. */
export const oidAttribute = (oid: string, friendlyName: string, ...values: string[]): Attribute =>
  ({ name: `urn:oid:${oid}`, friendlyName, values })

export const oids = {
  eppn: '1.3.6.1.4.1.5923.1.1.1.6',
  mail: '0.9.2342.19200300.100.1.3',
  givenName: '2.5.4.42',
  sn: '2.5.4.4',
  displayName: '2.16.840.1.113730.3.1.241',
  affiliation: '1.3.6.1.4.1.5923.1.1.1.1',
  ou: '2.5.4.11',
} as const

export interface Person {
  readonly netid: string
  readonly scope?: string
  readonly mail?: string
  readonly affiliation?: readonly string[]
  readonly givenName?: string
  readonly sn?: string
  readonly ou?: string
}

export function personAttributes(person: Person): Attribute[] {
  const scope = person.scope ?? 'dept.edu'
  return [
    oidAttribute(oids.eppn, 'eduPersonPrincipalName', `${person.netid}@${scope}`),
    ...(person.mail !== '' ? [oidAttribute(oids.mail, 'mail', person.mail ?? `${person.netid}@${scope}`)] : []),
    oidAttribute(oids.givenName, 'givenName', person.givenName ?? 'Ada'),
    oidAttribute(oids.sn, 'sn', person.sn ?? 'Lovelace'),
    oidAttribute(oids.displayName, 'displayName', `${person.givenName ?? 'Ada'} ${person.sn ?? 'Lovelace'}`),
    oidAttribute(oids.affiliation, 'eduPersonAffiliation', ...(person.affiliation ?? ['faculty', 'member'])),
    oidAttribute(oids.ou, 'ou', person.ou ?? 'Computer Science'),
  ]
}

export interface ResponseParts {
  readonly inResponseTo?: string | null
  readonly destination?: string | null
  readonly issuer?: string
  readonly nameId?: string | null
  readonly recipient?: string
  readonly audience?: string
  readonly issueInstant?: Date
  readonly notBefore?: Date
  readonly notOnOrAfter?: Date
  readonly statusCode?: string
  readonly assertionId?: string
  readonly attributes?: readonly Attribute[]
}

export interface SigningOptions {
  readonly key?: string
  /** Certificate put in KeyInfo; none when null. */
  readonly keyInfoCert?: string | null
  readonly signatureAlgorithm?: string
  readonly digestAlgorithm?: string
  readonly transforms?: readonly string[]
}

const iso = (date: Date) => date.toISOString()

export class TestIdp {
  readonly entityId = 'https://idp.dept.edu/idp/shibboleth'
  readonly ssoUrl = 'https://idp.dept.edu/idp/profile/SAML2/Redirect/SSO'
  readonly logoutUrl = 'https://idp.dept.edu/idp/profile/Logout'

  constructor(readonly acsUrl: string, readonly audience: string, readonly keys: KeyAndCert = makeKeyAndCert('Test IdP')) {}

  assertionXml(parts: ResponseParts, person: Person = { netid: 'alovelace' }): string {
    const now = Date.now()
    const issueInstant = parts.issueInstant ?? new Date(now)
    const notBefore = parts.notBefore ?? new Date(now - 30_000)
    const notOnOrAfter = parts.notOnOrAfter ?? new Date(now + 300_000)
    const inResponseTo = parts.inResponseTo ? ` InResponseTo="${parts.inResponseTo}"` : ''
    const attributes = (parts.attributes ?? personAttributes(person)).map((a) =>
      `<saml:Attribute Name="${a.name}"${a.friendlyName ? ` FriendlyName="${a.friendlyName}"` : ''} NameFormat="${uriFormat}">`
      + a.values.map((v) => `<saml:AttributeValue>${v}</saml:AttributeValue>`).join('') + '</saml:Attribute>').join('')
    const nameId = parts.nameId === null ? '' : `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${parts.nameId ?? `${person.netid}@dept.edu`}</saml:NameID>`
    return `<saml:Assertion xmlns:saml="${assertionNs}" ID="${parts.assertionId ?? `_a${randomUUID()}`}" Version="2.0" IssueInstant="${iso(issueInstant)}">`
      + `<saml:Issuer>${parts.issuer ?? this.entityId}</saml:Issuer>`
      + `<saml:Subject>${nameId}<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">`
      + `<saml:SubjectConfirmationData NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${parts.recipient ?? this.acsUrl}"${inResponseTo}/>`
      + `</saml:SubjectConfirmation></saml:Subject>`
      + `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}">`
      + `<saml:AudienceRestriction><saml:Audience>${parts.audience ?? this.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`
      + `<saml:AuthnStatement AuthnInstant="${iso(issueInstant)}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext>`
      + `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>`
      + `</saml:AuthnContext></saml:AuthnStatement>`
      + `<saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion>`
  }

  /** A Response envelope around the given assertion XML (signed or not). */
  responseXml(parts: ResponseParts, assertions: string): string {
    const inResponseTo = parts.inResponseTo ? ` InResponseTo="${parts.inResponseTo}"` : ''
    const destination = parts.destination === null ? '' : ` Destination="${parts.destination ?? this.acsUrl}"`
    return `<samlp:Response xmlns:samlp="${protocol}" xmlns:saml="${assertionNs}" ID="_r${randomUUID()}" Version="2.0" `
      + `IssueInstant="${iso(parts.issueInstant ?? new Date())}"${destination}${inResponseTo}>`
      + `<saml:Issuer>${this.entityId}</saml:Issuer>`
      + `<samlp:Status><samlp:StatusCode Value="${parts.statusCode ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status>`
      + `${assertions}</samlp:Response>`
  }

  /** Signs the element with the given local name (the first one), placing the Signature after its Issuer. */
  sign(xml: string, element: 'Assertion' | 'Response', options: SigningOptions = {}): string {
    const signatureAlgorithm = options.signatureAlgorithm ?? algorithms.rsaSha256
    const keyInfoCert = options.keyInfoCert === undefined ? this.keys.certificate : options.keyInfoCert
    const sig = new SignedXml({
      privateKey: options.key ?? this.keys.privateKey,
      ...(keyInfoCert ? { publicCert: keyInfoCert } : {}),
      signatureAlgorithm,
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    })
    if (signatureAlgorithm === algorithms.hmacSha1) sig.enableHMAC()
    const target = `(//*[local-name(.)='${element}'])[1]`
    sig.addReference({
      xpath: target,
      digestAlgorithm: options.digestAlgorithm ?? algorithms.sha256,
      transforms: [...(options.transforms ?? ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'])],
    })
    sig.computeSignature(xml, { prefix: 'ds', location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' } })
    return sig.getSignedXml()
  }

  /** A Response with a signed assertion, as XML. */
  signedResponseXml(parts: ResponseParts, person?: Person, options?: SigningOptions): string {
    return this.responseXml(parts, this.sign(this.assertionXml(parts, person), 'Assertion', options))
  }

  /** The same, base64-encoded as the browser posts it. */
  signedResponse(parts: ResponseParts, person?: Person, options?: SigningOptions): string {
    return encode(this.signedResponseXml(parts, person, options))
  }
}

export const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64')
