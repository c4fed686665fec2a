import { isIPv6 } from 'node:net'
import { Address6 } from 'ip-address'
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import { AppError } from '../errors.js'
import { MemoryRateCounters, RedisRateCounters, type Count, type RateCounters } from './rate-counters.js'

export interface RateLimits {
  readonly windowMs: number
  readonly anonymous: number
  readonly user: number
  readonly keyRead: number
  readonly keyWrite: number
  /** Prefix of the counters in Redis, so deployments (or test runs) sharing one Redis keep apart. */
  readonly namespace: string
}

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS'])
const warnIntervalMs = 30_000

/** An IPv4-mapped address as IPv4, an IPv6 address as its /64: rotating inside one gains nothing. */
export function addressBucket(ip: string): string {
  if (!isIPv6(ip)) return ip
  try {
    const address = new Address6(ip)
    if (address.isMapped4()) return address.to4().correctForm()
    return `${new Address6(`${address.correctForm()}/64`).startAddress().correctForm()}/64`
  } catch {
    return ip
  }
}

class RateLimitedError extends AppError {
  constructor(seconds: number) {
    super(429, `Rate limit exceeded; retry in ${seconds} s`, { 'retry-after': String(seconds) })
  }
}

/**
 * Rate limits (DESIGN 5.4), one bucket per credential: an API key's reads and writes separately, a
 * signed-in user's requests, or, for anyone not identified (a refused credential included), the caller's
 * address. Every answer carries X-RateLimit-Limit, -Remaining and -Reset (Unix seconds), a 429 also
 * Retry-After. Counters live in Redis when one is given, so the limit holds across instances; if Redis
 * fails, requests are served (fail open) and the failure is logged.
 */
export class RateLimiter {
  private readonly counters: RateCounters
  private lastWarning = Number.NEGATIVE_INFINITY

  constructor(private readonly limits: RateLimits, private readonly log: FastifyBaseLogger, redis?: Redis) {
    this.counters = redis ? new RedisRateCounters(redis, limits.namespace) : new MemoryRateCounters()
    redis?.on('error', (err: Error) => this.unavailable(err))
  }

  /** Counts the request against its bucket and sets the headers; throws the 429 past the limit. */
  take(request: FastifyRequest, reply: FastifyReply): void | Promise<void> {
    const principal = request.principal
    let bucket: string
    let max: number
    if (principal?.apiKey) {
      const read = readMethods.has(request.method)
      bucket = `key:${principal.apiKey.id}:${read ? 'read' : 'write'}`
      max = read ? this.limits.keyRead : this.limits.keyWrite
    } else if (principal) {
      bucket = `user:${principal.userId}`
      max = this.limits.user
    } else {
      bucket = `ip:${addressBucket(request.ip)}`
      max = this.limits.anonymous
    }
    let counted: Count | Promise<Count>
    try {
      counted = this.counters.hit(bucket, this.limits.windowMs)
    } catch (error) {
      return this.unavailable(error)
    }
    if (!(counted instanceof Promise)) return this.apply(request, reply, bucket, max, counted)
    return counted.then((count) => this.apply(request, reply, bucket, max, count), (error: unknown) => this.unavailable(error))
  }

  private apply(request: FastifyRequest, reply: FastifyReply, bucket: string, max: number, { count, resetAt }: Count): void {
    reply.header('x-ratelimit-limit', max)
    reply.header('x-ratelimit-remaining', count < max ? max - count : 0)
    reply.header('x-ratelimit-reset', Math.ceil(resetAt / 1000))
    if (count <= max) return
    request.log.info({ bucket: bucket.slice(0, bucket.indexOf(':')) }, 'rate limit exceeded')
    throw new RateLimitedError(Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)))
  }

  private unavailable(error: unknown): void {
    const now = Date.now()
    if (now - this.lastWarning < warnIntervalMs) return
    this.lastWarning = now
    this.log.warn({ err: (error as Error).message }, 'rate-limit Redis unavailable; serving without limits')
  }
}
