import { createRequire } from 'node:module'
import { normalizeIP, type FastifyRateLimitStore, type FastifyRateLimitStoreCtor, type RateLimitPluginOptions } from '@fastify/rate-limit'
import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import type { RateLimits } from '../config.js'
import { RateLimited, withHeaders } from '../errors.js'
import { breakerOf } from '../redis/breaker.js'

type Count = { current: number; ttl: number }
type RedisStoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, namespace: string) => FastifyRateLimitStore
// The plugin's own Redis store (an atomic INCR and PEXPIRE script); the package exports no name for it.
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as RedisStoreCtor

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS'])
const warnIntervalMs = 30_000
/** Buckets the in-process counters keep at most (least recently used forgotten first). */
const memoryBuckets = 100_000

/**
 * The Unix time (seconds) a window ends that had `secondsLeft` left when the request was counted at
 * `countedAtMs`; rounded up, so a client that waits for it never comes back early.
 */
export function resetAt(countedAtMs: number, secondsLeft: number): number {
  return Math.ceil(countedAtMs / 1000) + secondsLeft
}

function rateLimited(ttlMs: number) {
  const left = Math.ceil(ttlMs / 1000)
  return withHeaders(new RateLimited(`Rate limit exceeded; retry in ${Math.max(1, left)} s`), { 'x-ratelimit-reset': String(resetAt(Date.now(), left)) })
}

/**
 * One bucket per credential: an API key's reads and writes apart, a signed-in user, or, for anyone not
 * identified (a refused credential included), the caller's address, IPv4-mapped as IPv4 and IPv6 as its /64.
 */
function bucketOf(request: FastifyRequest): string {
  const principal = request.principal
  if (principal?.apiKey) return `key:${principal.apiKey.id}:${readMethods.has(request.method) ? 'read' : 'write'}`
  if (principal) return `user:${principal.userId}`
  return `ip:${normalizeIP(request.ip)}`
}

function limitOf(bucket: string, limits: RateLimits): number {
  if (bucket.startsWith('key:')) return bucket.endsWith(':read') ? limits.keyRead : limits.keyWrite
  return bucket.startsWith('user:') ? limits.user : limits.anonymous
}

/**
 * The plugin's Redis store behind the client's circuit breaker: while Redis is failing, a count is refused
 * at once instead of waiting out a timeout, and `skipOnError` serves the request uncounted. Failures are
 * logged at most once per interval.
 */
function guardedRedisStore(redis: Redis, namespace: string, log: FastifyBaseLogger): FastifyRateLimitStoreCtor {
  const breaker = breakerOf(redis)
  let lastWarning = Number.NEGATIVE_INFINITY
  function unavailable(error: unknown): void {
    const now = Date.now()
    if (now - lastWarning < warnIntervalMs) return
    lastWarning = now
    log.warn({ err: (error as Error).message }, 'rate-limit Redis unavailable; serving without limits')
  }

  class Guarded implements FastifyRateLimitStore {
    constructor(private readonly inner: FastifyRateLimitStore) {}

    incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number, max: number): void {
      const counted = () => new Promise<Count>((resolve, reject) => {
        this.inner.incr(key, (error, result) => (error ? reject(error) : resolve(result!)), timeWindow, max)
      })
      breaker.run(counted).then((result) => callback(null, result), (error: Error) => {
        unavailable(error)
        callback(error)
      })
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return new Guarded(this.inner.child(routeOptions))
    }
  }
  return class extends Guarded {
    constructor() {
      super(new RedisStore(false, false, redis, namespace))
    }
  }
}

/**
 * The options of `@fastify/rate-limit` for the rate limits (docs/auth.md, "Rate limits"). Counters live in
 * Redis when a client is given, so the limit holds across instances; if Redis fails, requests are served
 * uncounted (fail open) and the failure is logged. The plugin's reset header (seconds from now) is turned
 * into a Unix time by the gate, and by the refusal's own header on a 429.
 */
export function rateLimitOptions(limits: RateLimits, log: FastifyBaseLogger, redis: Redis | null): RateLimitPluginOptions {
  return {
    hook: 'onRequest',
    timeWindow: limits.windowMs,
    keyGenerator: bucketOf,
    max: (_request, bucket) => limitOf(bucket, limits),
    ...(redis ? { store: guardedRedisStore(redis, limits.namespace, log) } : { cache: memoryBuckets }),
    skipOnError: true,
    onExceeded: (request, bucket) => request.log.info({ bucket: bucket.slice(0, bucket.indexOf(':')) }, 'rate limit exceeded'),
    errorResponseBuilder: (_request, { ttl }) => rateLimited(ttl),
  }
}
