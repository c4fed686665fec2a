import { LRUCache } from 'lru-cache'
import type { CacheKey, CachedResponse, CacheStats, CacheStore, Lookup } from './port.js'

/** Rough bytes an entry costs beyond its body (key, tags, headers, bookkeeping). */
const entryOverhead = 256

/**
 * The in-process adapter: an LRU bounded in bytes, with generations as counters in this process. Each
 * process has its own, so several instances writing to one store need the Redis adapter instead.
 *
 * Cache rule. Holds: response entries (bounded in bytes) and each collection's generation. Invalidated
 * by: `bump` on every write to a collection an entry depends on (the entry's generations no longer
 * match), its TTL, LRU eviction, and the admin clears. Tests: test/cache/invalidation.test.ts (memory),
 * test/cache/adapters.test.ts (size bound).
 */
export class MemoryCacheStore implements CacheStore {
  /** Each collection's generation, kept as the text entries are tagged with. */
  private readonly generations = new Map<string, string>()
  private readonly entries: LRUCache<string, CachedResponse>

  constructor(maxBytes: number) {
    this.entries = new LRUCache({ maxSize: maxBytes, sizeCalculation: (entry, key) => entry.body.length + (entry.gzip?.length ?? 0) + key.length + entryOverhead })
  }

  private static key(key: CacheKey): string {
    return `${key.group}\u0000${key.id}`
  }

  lookup(key: CacheKey, collections: readonly string[]): Lookup {
    const generations = collections.map((c) => this.generations.get(c) ?? '0')
    const entry = this.entries.get(MemoryCacheStore.key(key))
    return entry ? { generations, entry } : { generations }
  }

  async put(key: CacheKey, entry: CachedResponse, ttlSeconds: number): Promise<void> {
    this.entries.set(MemoryCacheStore.key(key), entry, { ttl: ttlSeconds * 1000 })
  }

  async amend(key: CacheKey, entry: CachedResponse): Promise<void> {
    const stored = MemoryCacheStore.key(key)
    if (this.entries.has(stored)) this.entries.set(stored, entry, { noUpdateTTL: true })
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
