import type { Redis } from 'ioredis'

/** A bucket's count in its current window, and when that window ends (milliseconds since the epoch). */
export interface Count {
  readonly count: number
  readonly resetAt: number
}

/**
 * Fixed-window request counters, one per bucket. The in-process adapter answers at once; the Redis one
 * (shared by every instance) answers with a promise.
 */
export interface RateCounters {
  hit(bucket: string, windowMs: number): Count | Promise<Count>
}

/** Buckets kept in process at most; past it the oldest windows are forgotten first. */
const maxBuckets = 100_000

export class MemoryRateCounters implements RateCounters {
  private readonly windows = new Map<string, { count: number; resetAt: number }>()

  constructor(private readonly now: () => number = Date.now) {}

  hit(bucket: string, windowMs: number): Count {
    const now = this.now()
    const window = this.windows.get(bucket)
    if (window && now < window.resetAt) {
      window.count++
      return window
    }
    if (window) this.windows.delete(bucket)
    else if (this.windows.size >= maxBuckets) this.forgetOldest(now)
    const fresh = { count: 1, resetAt: now + windowMs }
    this.windows.set(bucket, fresh)
    return fresh
  }

  /** Drops ended windows and, if that frees too little, the oldest tenth (Maps iterate in insertion order). */
  private forgetOldest(now: number): void {
    for (const [bucket, window] of this.windows) if (window.resetAt <= now) this.windows.delete(bucket)
    if (this.windows.size < maxBuckets * 0.9) return
    let drop = Math.ceil(maxBuckets / 10)
    for (const bucket of this.windows.keys()) {
      if (drop-- <= 0) break
      this.windows.delete(bucket)
    }
  }
}

// Increment and expiry in one step, so concurrent instances never both start a window or lose a count.
const hitScript = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`

type WithHit = Redis & { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> }

export class RedisRateCounters implements RateCounters {
  private readonly redis: WithHit

  constructor(redis: Redis, private readonly namespace: string) {
    redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: hitScript })
    this.redis = redis as WithHit
  }

  async hit(bucket: string, windowMs: number): Promise<Count> {
    const [count, ttl] = await this.redis.rateLimitHit(this.namespace + bucket, windowMs)
    return { count, resetAt: Date.now() + ttl }
  }
}
