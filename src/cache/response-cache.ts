import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.js'
import { CacheUnavailable } from '../errors.js'
import { connectRequestPathRedis } from '../redis/client.js'
import type { WriteCounts } from '../store/port.js'
import { MemoryCacheStore } from './memory.js'
import type { CacheKey, CachedResponse, CacheStats, CacheStore, Lookup } from './port.js'
import { RedisCacheStore } from './redis.js'

export type CacheLookup =
  | { readonly state: 'hit'; readonly entry: CachedResponse }
  | { readonly state: 'miss'; readonly generations: readonly string[] }
  /** The cache could not be consulted, or may be behind a write: answer without it and store nothing. */
  | { readonly state: 'bypass' }

const warnIntervalMs = 30_000
const retryIntervalMs = 1000
/** After a failure, lookups skip the cache for this long, so a slow Redis costs one request the timeout, not every request. */
const pauseAfterFailureMs = 1000
const startupWaitMs = 2000

const bypass: CacheLookup = { state: 'bypass' }

function sameGenerations(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((g, i) => g === b[i])
}

function judged({ generations, entry }: Lookup): CacheLookup {
  return entry && sameGenerations(entry.generations, generations) ? { state: 'hit', entry } : { state: 'miss', generations }
}

/**
 * The response cache over one adapter, and its failure policy: a failing adapter never fails a request
 * (lookups become bypasses, stores are dropped) and is logged at most once per interval. A generation
 * bump that fails is remembered and retried every second (and before every lookup); until it lands this
 * instance bypasses the cache, so it never serves an answer older than a write it has acknowledged.
 * Other instances learn of the write when the retry lands.
 *
 * Cache rule. Holds: answers of the GET routes that declare `config.cache` (http/cache.ts), keyed by
 * route, parameters, query and the caller's visibility class (admin or not); answers about a student are
 * never stored for non-admins, and a non-admin's answer naming records that reference students (a
 * publication's dept_authors) is shared only with every student left out of it: a caller who may see a
 * student by relation neither reads nor stores such answers. Invalidated by: a generation bump of every collection an answer was
 * computed from, on each record write (services.ts: records.onChange), and its TTL. Access is decided
 * before the lookup, so nothing about who the caller is comes from here. Across instances: in Redis the
 * generations are shared, so every instance's bump reaches every lookup; in process, other instances'
 * writes arrive through the store's write counts, and without Redis entries live two seconds at most
 * (cache/memory.ts). Tests:
 * test/cache/invalidation.test.ts (writes through the API and outside it), test/cache/visibility.test.ts,
 * test/cache/outage.test.ts (a write made while Redis is away), test/privacy/student-references.test.ts
 * (an admin's answer naming students warms the cache; others are not served it).
 */
export class ResponseCache {
  private readonly inflight = new Set<Promise<void>>()
  private readonly unsent = new Set<string>()
  private lastWarning = Number.NEGATIVE_INFINITY
  private pausedUntil = 0
  private retry: NodeJS.Timeout | undefined

  constructor(private readonly store: CacheStore, private readonly log: FastifyBaseLogger, readonly enabled: boolean) {}

  private failed(operation: string, error: unknown): void {
    const now = Date.now()
    this.pausedUntil = now + pauseAfterFailureMs
    if (now - this.lastWarning < warnIntervalMs) return
    this.lastWarning = now
    this.log.warn({ operation, err: (error as Error).message }, 'response cache unavailable; serving without it')
  }

  /** Retries generation bumps that failed; false while any is still outstanding. */
  private async caughtUp(): Promise<boolean> {
    for (const collection of [...this.unsent]) {
      try {
        await this.store.bump(collection)
        this.unsent.delete(collection)
      } catch (error) {
        this.failed('bump', error)
        return false
      }
    }
    clearInterval(this.retry)
    this.retry = undefined
    return true
  }

  /** At once when the adapter is in process and nothing is waiting to be retried, else a promise. */
  lookup(key: CacheKey, collections: readonly string[]): CacheLookup | Promise<CacheLookup> {
    if (Date.now() < this.pausedUntil) return bypass
    if (this.unsent.size) return this.caughtUp().then((current) => (current ? this.consult(key, collections) : bypass))
    return this.consult(key, collections)
  }

  private consult(key: CacheKey, collections: readonly string[]): CacheLookup | Promise<CacheLookup> {
    let found: Lookup | Promise<Lookup>
    try {
      found = this.store.lookup(key, collections)
    } catch (error) {
      this.failed('lookup', error)
      return bypass
    }
    if (!(found instanceof Promise)) return judged(found)
    return found.then(judged, (error: unknown) => {
      this.failed('lookup', error)
      return bypass
    })
  }

  /** Stores an answer under the generations read before it was computed; failures are logged, not raised. */
  save(key: CacheKey, entry: CachedResponse, ttlSeconds: number): void {
    this.store.put(key, entry, ttlSeconds).catch((error: unknown) => this.failed('store', error))
  }

  /** Adds to an entry still stored (its compressed form); failures are logged, not raised. */
  amend(key: CacheKey, entry: CachedResponse): void {
    this.store.amend(key, entry).catch((error: unknown) => this.failed('store', error))
  }

  /** Called for every record write; `settled` resolves once the bump has landed (or been queued for retry). */
  invalidate(collection: string): void {
    if (!this.enabled) return
    const bump = this.store.bump(collection).catch((error: unknown) => {
      this.unsent.add(collection)
      this.failed('bump', error)
      this.retry ??= setInterval(() => void this.caughtUp(), retryIntervalMs).unref()
    }).finally(() => this.inflight.delete(bump))
    this.inflight.add(bump)
  }

  async settled(): Promise<void> {
    if (this.inflight.size) await Promise.all(this.inflight)
  }

  async stats(): Promise<CacheStats> {
    try {
      return await this.store.stats()
    } catch {
      throw new CacheUnavailable('The cache is unavailable')
    }
  }

  async clear(group?: string): Promise<number> {
    try {
      return await this.store.clear(group)
    } catch {
      throw new CacheUnavailable('The cache is unavailable')
    }
  }

  async close(): Promise<void> {
    clearInterval(this.retry)
    await this.settled()
    await this.store.close()
  }
}

/**
 * Redis when one is configured for the cache (and the cache is on), else the in-process LRU, which
 * follows `counts` (the shared store's write counts, cluster/write-notices.ts) for other instances' writes.
 */
export async function createResponseCache(config: Config, log: FastifyBaseLogger, counts?: WriteCounts): Promise<ResponseCache> {
  const { enabled, memoryBytes, keyPrefix, timeoutMs } = config.cache
  if (!enabled || !config.cacheRedisUrl) return new ResponseCache(new MemoryCacheStore(memoryBytes, counts), log, enabled)
  const redis = await connectRequestPathRedis(config.cacheRedisUrl, 'cache', { commandTimeout: timeoutMs }, startupWaitMs)
  return new ResponseCache(new RedisCacheStore(redis, keyPrefix), log, enabled)
}
