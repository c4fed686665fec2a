import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import { SharedStateUnavailable } from '../errors.js'
import { breakerOf, type Breaker } from '../redis/breaker.js'
import { DuplicateKeyError, type Doc, type Store } from '../store/port.js'

/**
 * Marks a thing as used, once, for every instance of the service at the same time: a SAML assertion,
 * a custom token, and (through `isClaimed`) deny-lists such as revoked token ids. Keys are hashed
 * before they are stored, so a claim never holds a credential in the clear.
 */
export interface OneTimeClaims {
  readonly kind: 'redis' | 'store'
  /**
   * Claims `key` within `namespace` for `ttlMs`. Of any number of concurrent callers, on any instance,
   * exactly one gets true; every later caller gets false until the claim expires.
   */
  claim(namespace: string, key: string, ttlMs: number): Promise<boolean>
  /** Whether `key` is claimed within `namespace` and the claim has not expired. */
  isClaimed(namespace: string, key: string): Promise<boolean>
}

const namespaceShape = /^[a-z0-9-]{1,40}$/

function digest(namespace: string, key: string): string {
  if (!namespaceShape.test(namespace)) throw new TypeError(`'${namespace}' is not a claim namespace`)
  return `${namespace}:${createHash('sha256').update(key).digest('base64url')}`
}

function ttl(ms: number): number {
  return Math.max(1, Math.ceil(ms))
}

/**
 * Claims in Redis: `SET NX PX` is atomic on the server, so the race is decided there. Commands go
 * through the client's circuit breaker, so while Redis is failing a claim is refused at once (503)
 * instead of each sign-in waiting out the command timeout.
 */
export class RedisClaims implements OneTimeClaims {
  readonly kind = 'redis'
  private readonly breaker: Breaker

  constructor(private readonly redis: Redis, private readonly prefix: string) {
    this.breaker = breakerOf(redis)
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await this.breaker.run(command)
    } catch {
      throw new SharedStateUnavailable('Shared state (Redis) is unavailable; try again shortly')
    }
  }

  async claim(namespace: string, key: string, ttlMs: number): Promise<boolean> {
    const id = `${this.prefix}once:${digest(namespace, key)}`
    return await this.run(() => this.redis.set(id, '1', 'PX', ttl(ttlMs), 'NX')) === 'OK'
  }

  async isClaimed(namespace: string, key: string): Promise<boolean> {
    return await this.run(() => this.redis.exists(`${this.prefix}once:${digest(namespace, key)}`)) === 1
  }
}

interface ClaimDoc extends Doc {
  expires_at: number
}

const sweepEveryMs = 60_000

/**
 * Claims in the record store, for deployments without Redis: an insert under a unique `_id` succeeds
 * for exactly one writer in both adapters. Expired claims are swept at most once a minute.
 */
export class StoreClaims implements OneTimeClaims {
  readonly kind = 'store'
  static readonly collection = 'one_time_claims'
  private lastSweep = 0

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {}

  private get claims() {
    return this.store.collection<ClaimDoc>(StoreClaims.collection)
  }

  async claim(namespace: string, key: string, ttlMs: number): Promise<boolean> {
    const id = digest(namespace, key)
    const now = this.now()
    if (now - this.lastSweep > sweepEveryMs) {
      this.lastSweep = now
      await this.claims.deleteMany({ expires_at: { $lte: now } })
    }
    // An expired claim frees its key; of several writers racing to re-claim it, the insert picks one.
    await this.claims.deleteOne({ _id: id, expires_at: { $lte: now } })
    try {
      await this.claims.insertOne({ _id: id, expires_at: now + ttl(ttlMs) })
      return true
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false
      throw error
    }
  }

  async isClaimed(namespace: string, key: string): Promise<boolean> {
    const doc = await this.claims.findById(digest(namespace, key))
    return doc !== null && doc.expires_at > this.now()
  }
}

/** Redis when the service has it (shared by every instance), else the record store. */
export function oneTimeClaims(store: Store, redis: Redis | null, prefix: string): OneTimeClaims {
  return redis ? new RedisClaims(redis, prefix) : new StoreClaims(store)
}
