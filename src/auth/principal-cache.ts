import type { WriteCounts } from '../store/port.js'
import type { Principal } from './principal.js'

/** Everything a principal is built from: a write to any of these may change who a credential is. */
export const principalSources = ['users', 'groups', 'revoked_tokens', 'api_keys'] as const

const maxEntries = 10_000

interface Entry {
  readonly principal: Principal
  /** When the credential itself stops being valid (the token's exp, the key's expiry). */
  readonly validUntil: number
  readonly builtAt: number
}

/**
 * Principals already established for a credential, so that a signed-in request need not verify its token
 * and read the user, the groups and the deny-list again. It needs the store's write counts: the embedded
 * store counts its own writes; a MongoDB store shared by several instances counts its own and those the
 * other instances announce over Redis (cluster/redis-notices.ts). Without counts nothing is cached.
 *
 * Across instances: while the counts hear of every write (`maxAgeMs` unbounded) an entry lives until a
 * source is written anywhere; while they may not (Redis down, or MongoDB with no Redis) an entry is
 * served for `maxAgeMs` (two seconds) at most, so no access decision is older than that.
 *
 * Cache rule. Holds: per credential (bearer header, or an API key's digest), the Principal built from
 * the user (role, email, campus id), their groups, the deny-list and the key record. Invalidated by: any
 * write to `principalSources` (a role change, a group edit, a sign-out, a key revoked), and the
 * credential's own expiry; the counts' `maxAgeMs` while other instances' writes may go unheard. Every
 * entry is built under the same sources, so one write drops them all: the cache remembers the stamp its
 * entries were built under and empties itself when the stamp moves.
 * What a principal is to the records (its Person, whom it advises) is not in it: that is looked up on
 * each request, on the request's own copy of the principal (privacy/relations.ts). Tests:
 * test/auth/principal-cache.test.ts (the rule), test/auth/api-key-follows-owner.test.ts and
 * test/auth/groups.test.ts (writes through the API reaching the next request),
 * test/cluster/two-instances.test.ts (writes through another instance, with Redis up, down and absent).
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>()
  private entriesStamp: number | undefined
  /**
   * The credential asked about last, and its entry: a client sending the same token request after
   * request is answered by comparing two strings, not by hashing a token of several hundred characters.
   */
  private last: { readonly credential: string; readonly entry: Entry } | undefined

  constructor(private readonly counts: WriteCounts | undefined, private readonly now: () => number = Date.now) {}

  /** Call before reading what the principal is built from, and pass the result to `set`. */
  stamp(): number | undefined {
    const counts = this.counts
    if (!counts) return undefined
    let sum = 0
    for (const name of principalSources) sum += counts.of(name)
    return sum
  }

  /** How long an entry may be served though no count moved. */
  private maxAgeMs(): number {
    return this.counts?.maxAgeMs?.() ?? Number.POSITIVE_INFINITY
  }

  private current(): Map<string, Entry> {
    const stamp = this.stamp()
    if (stamp !== this.entriesStamp) {
      this.entries.clear()
      this.last = undefined
      this.entriesStamp = stamp
    }
    return this.entries
  }

  get(credential: string): Principal | undefined {
    const entries = this.current()
    const last = this.last
    const entry = last !== undefined && last.credential === credential ? last.entry : entries.get(credential)
    if (!entry) return undefined
    const now = this.now()
    if (entry.validUntil <= now || now - entry.builtAt >= this.maxAgeMs()) {
      entries.delete(credential)
      this.last = undefined
      return undefined
    }
    if (entry !== last?.entry) this.last = { credential, entry }
    return entry.principal
  }

  /** Remembers a principal built under `stamp`; one built while a source was being written is not kept. */
  set(credential: string, principal: Principal, stamp: number | undefined, validUntil: number): void {
    if (stamp === undefined) return
    const entries = this.current()
    if (stamp !== this.entriesStamp) return
    // Oldest first: Map iterates in insertion order.
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!)
    entries.set(credential, { principal, validUntil, builtAt: this.now() })
  }
}
