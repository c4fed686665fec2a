import type { CacheItem, CacheProvider } from '@node-saml/node-saml'
import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'
import { SharedStateUnavailable } from '../../errors.js'
import { breakerOf, type Breaker } from '../../redis/breaker.js'

/**
 * Short-lived sign-in state: the ids of AuthnRequests we issued and the returnTo path behind each
 * RelayState. In Redis it is shared, so a response may land on another instance than its request.
 */
export interface SignInState {
  put(key: string, value: string, ttlMs: number): Promise<void>
  get(key: string): Promise<string | null>
  /** Reads and removes in one step, so a value is handed out once. */
  take(key: string): Promise<string | null>
}

/** Behind the client's circuit breaker, as every request-path Redis command: a failing Redis is a prompt 503. */
export class RedisSignInState implements SignInState {
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

  async put(key: string, value: string, ttlMs: number): Promise<void> {
    await this.run(() => this.redis.set(`${this.prefix}saml:${key}`, value, 'PX', Math.max(1, Math.ceil(ttlMs))))
  }

  get(key: string): Promise<string | null> {
    return this.run(() => this.redis.get(`${this.prefix}saml:${key}`))
  }

  take(key: string): Promise<string | null> {
    return this.run(() => this.redis.getdel(`${this.prefix}saml:${key}`))
  }
}

/** One instance only: state lives in this process and is lost on restart (a sign-in then starts over). */
export class MemorySignInState implements SignInState {
  private readonly entries = new LRUCache<string, string>({ max: 50_000, ttlAutopurge: false })

  async put(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.set(key, value, { ttl: Math.max(1, Math.ceil(ttlMs)) })
  }

  async get(key: string): Promise<string | null> {
    return this.entries.get(key) ?? null
  }

  async take(key: string): Promise<string | null> {
    const value = this.entries.get(key) ?? null
    this.entries.delete(key)
    return value
  }
}

/**
 * node-saml's store of issued request ids, over the sign-in state. node-saml checks an id with get and
 * then removes it, which is not atomic; the one-time claim after validation closes that race.
 */
export function requestIdCache(state: SignInState, ttlMs: number): CacheProvider {
  const key = (id: string) => `request:${id}`
  return {
    async saveAsync(id: string, value: string): Promise<CacheItem | null> {
      await state.put(key(id), value, ttlMs)
      return { value, createdAt: Date.now() }
    },
    getAsync: (id: string) => state.get(key(id)),
    removeAsync: async (id: string | null) => (id === null ? null : state.take(key(id))),
  }
}
