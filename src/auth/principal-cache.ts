import { LRUCache } from 'lru-cache'
import type { WriteCounts } from '../store/port.js'
import type { Principal } from './plugin.js'

/** Everything a principal is built from: a write to any of these may change who a credential is. */
export const principalSources = ['users', 'groups', 'revoked_tokens', 'api_keys'] as const

interface Entry {
  readonly principal: Principal
  /** Sum of the sources' write counts when building began; counts only grow, so any write changes it. */
  readonly stamp: number
  /** When the credential itself stops being valid (the token's exp, the key's expiry). */
  readonly validUntil: number
}

/**
 * Principals already established for a credential, so that a signed-in request need not verify its token
 * and read the user, the groups and the deny-list again. An entry holds only while none of those
 * collections has been written since it was built, and never past the credential's own expiry. It needs
 * the store's write counts, which only a store this process alone writes offers; without them (MongoDB,
 * shared by several instances) nothing is cached and every request is checked afresh.
 */
export class PrincipalCache {
  private readonly entries = new LRUCache<string, Entry>({ max: 10_000 })

  constructor(private readonly counts: WriteCounts | undefined, private readonly now: () => number = Date.now) {}

  /** Call before reading what the principal is built from, and pass the result to `set`. */
  stamp(): number | undefined {
    const counts = this.counts
    if (!counts) return undefined
    let sum = 0
    for (const name of principalSources) sum += counts.of(name)
    return sum
  }

  get(credential: string): Principal | undefined {
    const entry = this.entries.get(credential)
    if (!entry) return undefined
    if (entry.stamp !== this.stamp() || entry.validUntil <= this.now()) {
      this.entries.delete(credential)
      return undefined
    }
    return entry.principal
  }

  set(credential: string, principal: Principal, stamp: number | undefined, validUntil: number): void {
    if (stamp === undefined) return
    this.entries.set(credential, { principal, stamp, validUntil })
  }
}
