import { samlFailure } from './failure.js'

/**
 * Checks on the SAMLResponse as received, before node-saml parses it. They only ever reject: what the
 * service believes about a user comes from the signed assertion alone (see assertion.ts).
 */

const base64Shape = /^[A-Za-z0-9+/\r\n]+={0,2}[\r\n]*$/

/** Decodes the posted SAMLResponse; a DOCTYPE or entity declaration is refused before any parser sees it. */
export function decodeResponse(samlResponse: unknown): string {
  if (typeof samlResponse !== 'string' || samlResponse.length === 0) {
    throw samlFailure('validation', 'the request carries no SAMLResponse', true)
  }
  if (!base64Shape.test(samlResponse)) throw samlFailure('validation', 'SAMLResponse is not base64', true)
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8')
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw samlFailure('validation', 'SAMLResponse declares a DOCTYPE or entity', true)
  if (!/^\s*(<\?xml[^>]*\?>\s*)?</.test(xml)) throw samlFailure('validation', 'SAMLResponse is not XML', true)
  return xml
}

/** Comments, CDATA sections and processing instructions hold no elements; drop them before scanning tags. */
function markupOnly(xml: string): string {
  return xml.replace(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>/g, '')
}

const attributeList = /\s+([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g
const entities: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** An attribute value as an XML parser reads it (the five named entities and character references). */
function attributeValue(raw: string): string {
  return raw.replace(/&(?:#x([0-9A-Fa-f]{1,6})|#([0-9]{1,7})|([a-z]{2,4}));/g, (whole, hex?: string, dec?: string, name?: string) => {
    if (name) return entities[name] ?? whole
    const code = hex ? parseInt(hex, 16) : Number(dec)
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

function attributesOf(list: string): Map<string, string> {
  return new Map([...list.matchAll(attributeList)].map((a) => [a[1]!, attributeValue(a[2] ?? a[3] ?? '')]))
}

function startTags(markup: string, localName: string): { count: number; tags: Map<string, string>[] } {
  const opening = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${localName}(?=[\\s/>])`, 'g')
  const whole = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${localName}((?:\\s+[^\\s=/>]+\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*/?>`, 'g')
  const tags = [...markup.matchAll(whole)].map((match) => attributesOf(match[1]!))
  return { count: [...markup.matchAll(opening)].length, tags }
}

const signatureMethods = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
])
const digestMethods = new Set([
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmlenc#sha512',
])

/**
 * Every SignatureMethod and DigestMethod must name SHA-256 or SHA-512 (OWASP: no SHA-1, and no HMAC,
 * which an attacker could key with our own copy of the IdP's public certificate).
 */
export function checkAlgorithms(xml: string): void {
  const markup = markupOnly(xml)
  for (const [element, allowed] of [['SignatureMethod', signatureMethods], ['DigestMethod', digestMethods]] as const) {
    const { count, tags } = startTags(markup, element)
    if (tags.length !== count) throw samlFailure('signature', `a ${element} element could not be read`)
    for (const tag of tags) {
      const algorithm = tag.get('Algorithm') ?? ''
      if (!allowed.has(algorithm)) throw samlFailure('signature', `${element} ${algorithm || '(none)'} is not accepted; use SHA-256`)
    }
  }
}

/**
 * The Response's Destination, when present, must be our ACS URL. The envelope need not be signed
 * (spec), so this guards against misdelivery; the signed Recipient is checked on the assertion.
 */
export function checkDestination(xml: string, acsUrl: string): void {
  const root = /^\s*<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/.exec(markupOnly(xml))
  if (!root || root[1] !== 'Response') throw samlFailure('validation', 'the message is not a SAML Response')
  const destination = attributesOf(root[2]!).get('Destination')
  if (destination !== undefined && destination !== acsUrl) {
    throw samlFailure('validation', `Response Destination ${destination} is not this service's ACS URL`)
  }
}
