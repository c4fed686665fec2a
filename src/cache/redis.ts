import { createHash, randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import { breakerOf, type Breaker } from '../redis/breaker.js'
import type { CacheKey, CachedResponse, CacheStats, CacheStore, Lookup } from './port.js'

const newline = 0x0a
const scanBatch = 500

interface Header {
  readonly g: readonly string[]
  readonly t: string
  readonly e?: string
  /** Bytes of the gzip-compressed body, which follows the body. */
  readonly z?: number
}

function isHeader(value: unknown): value is Header {
  const h = value as Header
  return typeof h === 'object' && h !== null && Array.isArray(h.g) && h.g.every((g) => typeof g === 'string')
    && typeof h.t === 'string' && (h.e === undefined || typeof h.e === 'string')
    && (h.z === undefined || (Number.isInteger(h.z) && h.z > 0))
}

/** One line of JSON (tags and headers), a newline, then the body's bytes as they are sent, then its gzip form if any. */
export function encodeEntry(entry: CachedResponse): Buffer {
  const header: Header = { g: entry.generations, t: entry.contentType, ...(entry.etag ? { e: entry.etag } : {}), ...(entry.gzip ? { z: entry.gzip.length } : {}) }
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), entry.body, ...(entry.gzip ? [entry.gzip] : [])])
}

/** A stored value that does not decode is no entry at all (a miss), never an error or a wrong answer. */
export function decodeEntry(raw: Buffer): CachedResponse | undefined {
  const end = raw.indexOf(newline)
  if (end < 0) return undefined
  let header: unknown
  try {
    header = JSON.parse(raw.subarray(0, end).toString('utf8'))
  } catch {
    return undefined
  }
  if (!isHeader(header)) return undefined
  const gzipAt = raw.length - (header.z ?? 0)
  if (gzipAt <= end) return undefined
  return {
    generations: header.g, contentType: header.t, ...(header.e ? { etag: header.e } : {}),
    body: raw.subarray(end + 1, gzipAt), ...(header.z ? { gzip: raw.subarray(gzipAt) } : {}),
  }
}

/** A generation is a fresh random token, not a counter, so one lost to eviction can never come back equal. */
function token(): string {
  return `${Date.now().toString(36)}.${randomBytes(6).toString('base64url')}`
}

/**
 * The Redis adapter, shared by every instance. Keys: `<prefix>e:<group>:<hash>` for entries (expiring
 * with their TTL) and `<prefix>g:<collection>` for generations. Only keys under the prefix are ever
 * counted or deleted, so the cache can share a Redis with other users.
 *
 * Every command goes through the client's circuit breaker: while Redis is failing, commands are refused
 * at once, so lookups become bypasses without waiting and a generation bump fails at once, to be retried
 * by the response cache, which bypasses itself until the bump lands. An entry computed before a write
 * therefore never matches once Redis answers again, whether its put landed before the outage or was
 * held in a stopped Redis and ran after it: its generations are older than the bump.
 */
export class RedisCacheStore implements CacheStore {
  private readonly breaker: Breaker

  constructor(private readonly redis: Redis, private readonly prefix: string) {
    this.breaker = breakerOf(redis)
  }

  private guarded<T>(command: () => Promise<T>): Promise<T> {
    return this.breaker.run(command)
  }

  private entryKey(key: CacheKey): string {
    return `${this.prefix}e:${key.group}:${createHash('sha1').update(key.id).digest('base64url')}`
  }

  private generationKey(collection: string): string {
    return `${this.prefix}g:${collection}`
  }

  async lookup(key: CacheKey, collections: readonly string[]): Promise<Lookup> {
    const values = await this.guarded(() => this.redis.mgetBuffer(...collections.map((c) => this.generationKey(c)), this.entryKey(key)))
    const raw = values[collections.length]
    const held = values.slice(0, collections.length).map((v) => v?.toString('utf8'))
    const generations = held.every((g) => g !== undefined) ? held : await this.initialise(collections)
    const entry = raw ? decodeEntry(raw) : undefined
    return entry ? { generations, entry } : { generations }
  }

  /** First use of a collection (or its generation was evicted): give it one, keeping any set meanwhile. */
  private async initialise(collections: readonly string[]): Promise<string[]> {
    const keys = collections.map((c) => this.generationKey(c))
    await Promise.all(keys.map((k) => this.guarded(() => this.redis.set(k, token(), 'NX'))))
    const values = await this.guarded(() => this.redis.mget(...keys))
    if (!values.every((v) => v !== null)) throw new Error('cache generation vanished as it was set')
    return values
  }

  async put(key: CacheKey, entry: CachedResponse, ttlSeconds: number): Promise<void> {
    await this.guarded(() => this.redis.set(this.entryKey(key), encodeEntry(entry), 'EX', ttlSeconds))
  }

  async amend(key: CacheKey, entry: CachedResponse): Promise<void> {
    await this.guarded(() => this.redis.set(this.entryKey(key), encodeEntry(entry), 'KEEPTTL', 'XX'))
  }

  async bump(collection: string): Promise<void> {
    await this.guarded(() => this.redis.set(this.generationKey(collection), token()))
  }

  private async *scan(pattern: string): AsyncGenerator<string[]> {
    let cursor = '0'
    do {
      const [next, keys] = await this.guarded(() => this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', scanBatch))
      cursor = next
      if (keys.length) yield keys
    } while (cursor !== '0')
  }

  async stats(): Promise<CacheStats> {
    let keys = 0
    let bytes = 0
    for await (const batch of this.scan(`${this.prefix}e:*`)) {
      const pipeline = this.redis.pipeline()
      for (const key of batch) pipeline.memory('USAGE', key)
      for (const [error, usage] of (await this.guarded(() => pipeline.exec())) ?? []) {
        // A key that expired between SCAN and MEMORY USAGE answers null and is not counted.
        if (!error && typeof usage === 'number') {
          keys++
          bytes += usage
        }
      }
    }
    return { keys, bytes }
  }

  async clear(group?: string): Promise<number> {
    let deleted = 0
    for await (const batch of this.scan(`${this.prefix}e:${group ?? '*'}:*`)) deleted += await this.guarded(() => this.redis.unlink(...batch))
    return deleted
  }

  async close(): Promise<void> {
    this.redis.disconnect()
  }
}
