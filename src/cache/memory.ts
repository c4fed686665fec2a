import { LRUCache } from 'lru-cache'
import type { WriteCounts } from '../store/port.js'
import type { CacheKey, CachedResponse, CacheStats, CacheStore, Lookup } from './port.js'

/** Rough bytes an entry costs beyond its body (key, tags, headers, bookkeeping). */
const entryOverhead = 256

interface Stored {
  readonly entry: CachedResponse
  readonly storedAt: number
}

/**
 * The in-process adapter: an LRU bounded in bytes, with generations as counters in this process. Each
 * process has its own, so several instances sharing a MongoDB store want the Redis adapter; without it,
 * the store's write counts (cluster/write-notices.ts) carry other instances' writes into the generations
 * when Redis notices are heard, and while they are not (no Redis configured) no entry is served once
 * older than the counts' `maxAgeMs` (two seconds).
 *
 * Cache rule. Holds: response entries (bounded in bytes) and each collection's generation. Invalidated
 * by: `bump` on every write to a collection an entry depends on (the entry's generations no longer
 * match), a move of that collection's write count (another instance's write, or a gap in the notices),
 * its TTL capped at `maxAgeMs`, LRU eviction, and the admin clears. Tests: test/cache/invalidation.test.ts
 * (memory), test/cache/adapters.test.ts (size bound, counts and short age),
 * test/cluster/two-instances.test.ts (a write through another process, no Redis).
 */
export class MemoryCacheStore implements CacheStore {
  /** Each collection's generation, kept as the text entries are tagged with. */
  private readonly generations = new Map<string, string>()
  private readonly entries: LRUCache<string, Stored>

  /** `counts`: the shared store's write counts, when other instances write to it too. */
  constructor(maxBytes: number, private readonly counts?: WriteCounts, private readonly now: () => number = Date.now) {
    this.entries = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: ({ entry }, key) => entry.body.length + (entry.gzip?.length ?? 0) + key.length + entryOverhead,
      perf: { now },
    })
  }

  private maxAgeMs(): number {
    return this.counts?.maxAgeMs?.() ?? Number.POSITIVE_INFINITY
  }

  private static key(key: CacheKey): string {
    return `${key.group}\u0000${key.id}`
  }

  lookup(key: CacheKey, collections: readonly string[]): Lookup {
    const counts = this.counts
    const generations = collections.map((c) => `${this.generations.get(c) ?? '0'}${counts ? `.${counts.of(c)}` : ''}`)
    const stored = this.entries.get(MemoryCacheStore.key(key))
    if (!stored || this.now() - stored.storedAt >= this.maxAgeMs()) return { generations }
    return { generations, entry: stored.entry }
  }

  async put(key: CacheKey, entry: CachedResponse, ttlSeconds: number): Promise<void> {
    this.entries.set(MemoryCacheStore.key(key), { entry, storedAt: this.now() }, { ttl: Math.min(ttlSeconds * 1000, this.maxAgeMs()) })
  }

  async amend(key: CacheKey, entry: CachedResponse): Promise<void> {
    const stored = MemoryCacheStore.key(key)
    const found = this.entries.get(stored)
    if (found) this.entries.set(stored, { entry, storedAt: found.storedAt }, { noUpdateTTL: true })
  }

  async bump(collection: string): Promise<void> {
    this.generations.set(collection, String(Number(this.generations.get(collection) ?? '0') + 1))
  }

  async stats(): Promise<CacheStats> {
    this.entries.purgeStale()
    return { keys: this.entries.size, bytes: this.entries.calculatedSize }
  }

  async clear(group?: string): Promise<number> {
    let deleted = 0
    for (const key of [...this.entries.keys()]) {
      if (group === undefined || key.startsWith(`${group}\u0000`)) deleted += this.entries.delete(key) ? 1 : 0
    }
    return deleted
  }

  async close(): Promise<void> {
    this.entries.clear()
  }
}
