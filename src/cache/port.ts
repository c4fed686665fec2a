/**
 * The response cache port. An entry is a finished answer (its serialised body and the headers that
 * matter) tagged with the generations of the collections it was computed from; it is valid only while
 * those generations are current. A write bumps its collection's generation, so an answer computed
 * before the write is never served after it, on any instance sharing the adapter.
 */

/** Where an entry lives: `group` is the resource it belongs to (`people`, `courses`), for clearing by type. */
export interface CacheKey {
  readonly group: string
  readonly id: string
}

export interface CachedResponse {
  /** The generations of the route's collections, in the route's order, when the answer was computed. */
  readonly generations: readonly string[]
  readonly contentType: string
  readonly etag?: string
  readonly body: Buffer
  /** The body gzip-compressed, for clients that accept it; kept only for bodies worth compressing. */
  readonly gzip?: Buffer
}

export interface Lookup {
  /** The current generations of the collections asked about, in the order asked. */
  readonly generations: readonly string[]
  readonly entry?: CachedResponse
}

export interface CacheStats {
  readonly keys: number
  readonly bytes: number
}

export interface CacheStore {
  /** The current generations and the stored entry, in one round trip; an in-process store answers at once. */
  lookup(key: CacheKey, collections: readonly string[]): Lookup | Promise<Lookup>
  put(key: CacheKey, entry: CachedResponse, ttlSeconds: number): Promise<void>
  /**
   * Replaces an entry that is still stored, keeping its expiry; does nothing once it is gone (cleared,
   * expired or evicted), so an addition made after the fact never brings back a cleared entry.
   */
  amend(key: CacheKey, entry: CachedResponse): Promise<void>
  /** Gives the collection a new generation: every entry computed from it stops matching. */
  bump(collection: string): Promise<void>
  /** This service's entries only; generations are not counted. */
  stats(): Promise<CacheStats>
  /** Deletes the entries of one group, or all of this service's entries; returns how many. */
  clear(group?: string): Promise<number>
  close(): Promise<void>
}
