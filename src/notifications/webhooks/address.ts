import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { Address4, Address6 } from 'ip-address'
import { httpUrl } from '../../net/outbound.js'

/**
 * Where a webhook may send (docs/notifications.md, "Where a webhook may send"): a public http(s) address. The
 * service runs inside the campus network and beside a cloud metadata endpoint; a URL an admin types (or a DNS
 * answer that changed since) must not turn deliveries into requests to those.
 */

type Kind = 'unspecified' | 'loopback' | 'link-local' | 'private' | 'reserved'

const kindNames: Readonly<Record<Kind, string>> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  'link-local': 'a link-local address (where cloud metadata lives)',
  private: 'a private address',
  reserved: 'a reserved or non-unicast address',
}

const v4Ranges: readonly [Kind, Address4][] = ([
  ['unspecified', '0.0.0.0/8'],
  ['loopback', '127.0.0.0/8'],
  ['link-local', '169.254.0.0/16'],
  ['private', '10.0.0.0/8'], ['private', '172.16.0.0/12'], ['private', '192.168.0.0/16'],
  // Carrier-grade NAT space: inside some clouds it is the provider's own network (and a metadata address).
  ['private', '100.64.0.0/10'],
  ['reserved', '192.0.0.0/24'], ['reserved', '192.0.2.0/24'], ['reserved', '198.18.0.0/15'], ['reserved', '198.51.100.0/24'],
  ['reserved', '203.0.113.0/24'], ['reserved', '224.0.0.0/4'], ['reserved', '240.0.0.0/4'],
] as const).map(([kind, cidr]) => [kind, new Address4(cidr)])

const v6Ranges: readonly [Kind, Address6][] = ([
  ['unspecified', '::/128'],
  ['loopback', '::1/128'],
  ['link-local', 'fe80::/10'],
  ['private', 'fc00::/7'], ['private', 'fec0::/10'],
  // IPv4-compatible (deprecated), Teredo, discard and documentation prefixes, multicast.
  ['reserved', '::/96'], ['reserved', '2001::/32'], ['reserved', '100::/64'], ['reserved', '2001:db8::/32'], ['reserved', 'ff00::/8'],
] as const).map(([kind, cidr]) => [kind, new Address6(cidr)])

const mapped = new Address6('::ffff:0:0/96')
const nat64 = new Address6('64:ff9b::/96')

/** What kind of forbidden address `address` is; undefined for a public unicast one. */
export function forbiddenKind(address: string): Kind | undefined {
  if (isIP(address) === 4) {
    const v4 = new Address4(address)
    return v4Ranges.find(([, range]) => v4.isInSubnet(range))?.[0]
  }
  const v6 = new Address6(address)
  // Addresses that carry an IPv4 one reach it: judged as that address.
  if (v6.isInSubnet(mapped) || v6.isInSubnet(nat64)) return forbiddenKind(v6.to4().correctForm())
  if (v6.is6to4()) return forbiddenKind(v6.inspect6to4().gateway)
  return v6Ranges.find(([, range]) => v6.isInSubnet(range))?.[0]
}

/** Why a webhook URL is refused; the message names the URL (without any credentials, which are refused). */
export class TargetRefused extends Error {
  constructor(readonly url: string, reason: string) {
    super(`Webhook URL ${url} is refused: ${reason}`)
    this.name = 'TargetRefused'
  }
}

/** A URL and the address checked for it, which is the one the request connects to. */
export interface CheckedTarget {
  readonly url: URL
  readonly address: string
  readonly family: 4 | 6
}

export type Resolver = (hostname: string) => Promise<readonly { address: string; family: number }[]>

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

/** The host as written in the URL, before the URL parser turned `0x7f.1` or `2130706433` into `127.0.0.1`. */
function writtenHost(input: string): string | undefined {
  const match = /^[a-z][a-z0-9+.-]*:[\\/]*([^\\/?#]*)/i.exec(input.replace(/[\t\n\r]/g, '').trim())
  if (!match) return undefined
  const authority = match[1]!.slice(match[1]!.lastIndexOf('@') + 1)
  if (authority.startsWith('[')) return authority.slice(0, authority.indexOf(']') + 1)
  return authority.replace(/:[^:]*$/, '')
}

/** The URL parsed, or refused for what it is regardless of where it points. */
export function parseTarget(input: string): URL {
  let url: URL
  try {
    url = httpUrl(input)
  } catch (error) {
    const scheme = /^Only http/.test((error as Error).message)
    throw new TargetRefused(input.slice(0, 300), scheme ? 'only http and https URLs are allowed' : 'it is not a URL')
  }
  const shown = `${url.protocol}//${url.host}${url.pathname}`
  if (url.username || url.password) throw new TargetRefused(shown, 'a webhook URL carries no credentials (deliveries are signed with the webhook secret)')
  const bare = url.hostname.replace(/^\[|\]$/g, '')
  // The parser accepts decimal, octal, hex and shortened IPv4 forms; nobody writes those but to slip past a check.
  if (isIP(bare) !== 0 && writtenHost(input)?.toLowerCase() !== url.hostname) {
    throw new TargetRefused(input.slice(0, 300), `its host is a numeric address written in a non-canonical form (write ${url.hostname})`)
  }
  return url
}

/**
 * Parses the URL, resolves its host (every address DNS gives), and answers the address to connect to.
 * Unless private targets are allowed, any answer that is loopback, link-local, private, unspecified or
 * reserved refuses the whole URL: a name with one bad address among good ones is still refused.
 */
export async function checkTarget(input: string, options: { allowPrivate: boolean; resolve?: Resolver }): Promise<CheckedTarget> {
  const url = parseTarget(input)
  // As the admin wrote it (parseTarget refused any with credentials).
  const shown = input.trim().slice(0, 300)
  const bare = url.hostname.replace(/^\[|\]$/g, '')
  let addresses: readonly { address: string; family: number }[]
  if (isIP(bare) !== 0) {
    addresses = [{ address: bare, family: isIP(bare) }]
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(bare)
    } catch (error) {
      throw new TargetRefused(shown, `its host ${bare} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`)
    }
    if (addresses.length === 0) throw new TargetRefused(shown, `its host ${bare} does not resolve`)
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const kind = forbiddenKind(address)
      if (kind) throw new TargetRefused(shown, address === bare ? `${address} is ${kindNames[kind]}` : `its host resolves to ${address}, ${kindNames[kind]}`)
    }
  }
  const first = addresses[0]!
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 }
}
