import type { SamlAttribute, SignedAssertion } from './assertion.js'
import { samlFailure } from './failure.js'

/** The attributes the service requests (interface spec), by OID and by their LDAP friendly name. */
export const requestedAttributes = {
  principalName: { oid: '1.3.6.1.4.1.5923.1.1.1.6', friendlyName: 'eduPersonPrincipalName' },
  mail: { oid: '0.9.2342.19200300.100.1.3', friendlyName: 'mail' },
  givenName: { oid: '2.5.4.42', friendlyName: 'givenName' },
  sn: { oid: '2.5.4.4', friendlyName: 'sn' },
  displayName: { oid: '2.16.840.1.113730.3.1.241', friendlyName: 'displayName' },
  affiliation: { oid: '1.3.6.1.4.1.5923.1.1.1.1', friendlyName: 'eduPersonAffiliation' },
  ou: { oid: '2.5.4.11', friendlyName: 'ou' },
} as const

type AttributeId = (typeof requestedAttributes)[keyof typeof requestedAttributes]

/** The user the identity provider vouches for (the spec's "extracted user"). */
export interface SamlIdentity {
  /** The NetID: eduPersonPrincipalName (else NameID) without its scope, lower case. */
  readonly netid: string
  readonly email: string
  readonly firstName?: string
  readonly lastName?: string
  readonly displayName?: string
  readonly affiliation: readonly string[]
  readonly department?: string
}

const netidShape = /^[a-z0-9._-]{1,64}$/
const emailShape = /^[^@\s]{1,64}@[^@\s]{1,190}$/
const maxText = 200

/**
 * Matches an attribute named by OID (`urn:oid:2.5.4.42` or bare), by the SAML 1 MACE name
 * (`urn:mace:dir:attribute-def:givenName`), or by friendly name in Name or FriendlyName.
 */
function matches(attribute: SamlAttribute, id: AttributeId): boolean {
  const friendly = id.friendlyName.toLowerCase()
  const names = [attribute.name, attribute.friendlyName].filter((n): n is string => n !== undefined)
  return names.some((name) => {
    const lower = name.toLowerCase()
    return name === id.oid || name === `urn:oid:${id.oid}` || lower === friendly || lower === `urn:mace:dir:attribute-def:${friendly}`
  })
}

function valuesOf(attributes: readonly SamlAttribute[], id: AttributeId): { values: string[]; hasNonText: boolean } {
  const found = attributes.filter((attribute) => matches(attribute, id))
  return {
    values: found.flatMap((attribute) => attribute.values).map((value) => value.trim()).filter(Boolean),
    hasNonText: found.some((attribute) => attribute.hasNonText),
  }
}

function single(attributes: readonly SamlAttribute[], id: AttributeId): string | undefined {
  const [first] = valuesOf(attributes, id).values
  return first === undefined ? undefined : first.slice(0, maxText)
}

/** The person's principal name, taken whole: a value holding markup or several values is refused. */
function principal(assertion: SignedAssertion): string {
  const { values, hasNonText } = valuesOf(assertion.attributes, requestedAttributes.principalName)
  if (hasNonText) throw samlFailure('user', 'eduPersonPrincipalName holds something other than text')
  if (new Set(values).size > 1) throw samlFailure('user', 'eduPersonPrincipalName has several values')
  const name = values[0] ?? assertion.nameId
  if (!name) throw samlFailure('user', 'the assertion has neither eduPersonPrincipalName nor NameID')
  return name
}

/**
 * The identity in a verified assertion. `scopes`, when not empty, lists the domains a principal name
 * may carry; the NetID is the part before the last '@'.
 */
export function identityFrom(assertion: SignedAssertion, scopes: readonly string[]): SamlIdentity {
  const name = principal(assertion)
  const at = name.lastIndexOf('@')
  const scope = at >= 0 ? name.slice(at + 1).toLowerCase() : undefined
  if (scopes.length > 0 && (scope === undefined || !scopes.includes(scope))) {
    throw samlFailure('validation', `principal name scope ${scope ?? '(none)'} is not accepted`)
  }
  const netid = (at >= 0 ? name.slice(0, at) : name).toLowerCase()
  if (!netidShape.test(netid)) throw samlFailure('user', 'the principal name is not a valid NetID')
  const email = single(assertion.attributes, requestedAttributes.mail)?.toLowerCase()
  if (!email || !emailShape.test(email)) throw samlFailure('user', 'the assertion carries no usable mail attribute')
  const affiliation = [...new Set(valuesOf(assertion.attributes, requestedAttributes.affiliation).values
    .map((value) => value.toLowerCase().replace(/@.*$/, ''))
    .filter((value) => /^[a-z-]{1,40}$/.test(value)))].sort()
  const optional = {
    firstName: single(assertion.attributes, requestedAttributes.givenName),
    lastName: single(assertion.attributes, requestedAttributes.sn),
    displayName: single(assertion.attributes, requestedAttributes.displayName),
    department: single(assertion.attributes, requestedAttributes.ou),
  }
  return {
    netid, email, affiliation,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  }
}
