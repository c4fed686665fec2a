import { samlFailure } from './failure.js'

/** One attribute of the assertion, keyed both ways IdPs name them. */
export interface SamlAttribute {
  readonly name: string
  readonly friendlyName?: string
  /** Text values; a value holding child elements (an object where text is expected) is left out. */
  readonly values: readonly string[]
  readonly hasNonText: boolean
}

/** What the service reads from an assertion, taken only from the XML the signature covers. */
export interface SignedAssertion {
  readonly id: string
  readonly issueInstant: number
  readonly issuer?: string
  readonly nameId?: string
  readonly recipients: readonly string[]
  readonly attributes: readonly SamlAttribute[]
}

type Node = Record<string, unknown>

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function children(node: unknown, name: string): unknown[] {
  if (!isNode(node)) return []
  const value = node[name]
  return Array.isArray(value) ? value : []
}

function attribute(node: unknown, name: string): string | undefined {
  const attributes = isNode(node) ? node.$ : undefined
  const value = isNode(attributes) ? attributes[name] : undefined
  return typeof value === 'string' ? value : undefined
}

/** The text of an element without child elements; undefined for anything else. */
function text(node: unknown): string | undefined {
  if (typeof node === 'string') return node
  if (!isNode(node) || Object.keys(node).some((key) => key !== '_' && key !== '$')) return undefined
  return typeof node._ === 'string' ? node._ : ''
}

/**
 * Reads node-saml's parse (xml2js, prefixes stripped) of the signed assertion. node-saml 5.1 builds
 * that parse from xml-crypto's signed references only, so nothing here comes from unsigned bytes.
 */
export function readAssertion(parsed: unknown): SignedAssertion {
  const assertion = isNode(parsed) ? parsed.Assertion : undefined
  const id = attribute(assertion, 'ID')
  const issueInstant = Date.parse(attribute(assertion, 'IssueInstant') ?? '')
  if (!id || Number.isNaN(issueInstant)) throw samlFailure('validation', 'the assertion has no ID or IssueInstant')
  const [subject] = children(assertion, 'Subject')
  const issuer = children(assertion, 'Issuer').map(text)[0]
  const nameId = children(subject, 'NameID').map(text)[0]
  const recipients = children(subject, 'SubjectConfirmation')
    .flatMap((confirmation) => children(confirmation, 'SubjectConfirmationData'))
    .map((data) => attribute(data, 'Recipient') ?? '')
  const attributes = children(assertion, 'AttributeStatement')
    .flatMap((statement) => children(statement, 'Attribute'))
    .flatMap((node): SamlAttribute[] => {
      const name = attribute(node, 'Name')
      if (!name) return []
      const raw = children(node, 'AttributeValue').map(text)
      const friendlyName = attribute(node, 'FriendlyName')
      return [{
        name,
        ...(friendlyName ? { friendlyName } : {}),
        values: raw.filter((value): value is string => value !== undefined),
        hasNonText: raw.includes(undefined),
      }]
    })
  return {
    id, issueInstant, recipients, attributes,
    ...(issuer !== undefined ? { issuer: issuer.trim() } : {}),
    ...(nameId !== undefined ? { nameId: nameId.trim() } : {}),
  }
}

export interface AssertionRules {
  readonly acsUrl: string
  readonly idpEntityId?: string
  readonly clockSkewMs: number
}

/**
 * The checks node-saml 5.1 leaves to the application: every SubjectConfirmationData's Recipient is our
 * ACS URL, the Issuer is the configured IdP, and the assertion was not issued in the future.
 */
export function checkAssertion(assertion: SignedAssertion, rules: AssertionRules, now = Date.now()): void {
  if (assertion.recipients.length === 0) throw samlFailure('validation', 'the assertion has no SubjectConfirmationData')
  const stray = assertion.recipients.find((recipient) => recipient !== rules.acsUrl)
  if (stray !== undefined) throw samlFailure('validation', `Recipient ${stray || '(none)'} is not this service's ACS URL`)
  if (rules.idpEntityId !== undefined && assertion.issuer !== rules.idpEntityId) {
    throw samlFailure('validation', `Issuer ${assertion.issuer ?? '(none)'} is not the configured identity provider`)
  }
  if (assertion.issueInstant > now + rules.clockSkewMs) throw samlFailure('validation', 'the assertion was issued in the future')
}
