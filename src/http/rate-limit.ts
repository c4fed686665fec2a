import rateLimit, { normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { AppError } from '../errors.js'

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

interface Bucket {
  readonly key: string
  readonly max: number
}

/**
 * One bucket per credential (DESIGN 5.4): an API key's reads and writes separately, a signed-in user's
 * requests, or, for anyone not identified (including a refused credential), the caller's address, with
 * a mapped IPv4 address read as IPv4 and an IPv6 address as its /64, so rotating inside it gains nothing.
 */
function bucketOf(request: FastifyRequest, limits: RateLimits): Bucket {
  const principal = request.principal
  if (principal?.apiKey) {
    return readMethods.has(request.method)
      ? { key: `key:${principal.apiKey.id}:read`, max: limits.keyRead }
      : { key: `key:${principal.apiKey.id}:write`, max: limits.keyWrite }
  }
  if (principal) return { key: `user:${principal.userId}`, max: limits.user }
  return { key: `ip:${normalizeIP(request.ip)}`, max: limits.anonymous }
}

class RateLimitedError extends AppError {
  constructor(seconds: number) {
    super(429, `Rate limit exceeded; retry in ${seconds} s`)
  }
}

/**
 * Rate limits on every route, the 404 answer included. Counters live in Redis when one is given, so the
 * limit holds across instances; if Redis fails, requests are served (fail open) and the failure logged.
 * X-RateLimit-Reset is sent as a Unix time in seconds, as the interface specification says.
 */
async function limits(app: FastifyInstance, { limits, redis }: { limits: RateLimits; redis?: Redis }) {
  const buckets = new WeakMap<FastifyRequest, Bucket>()
  const bucket = (request: FastifyRequest) => {
    let found = buckets.get(request)
    if (!found) {
      found = bucketOf(request, limits)
      buckets.set(request, found)
    }
    return found
  }
  await app.register(rateLimit, {
    global: true,
    timeWindow: limits.windowMs,
    keyGenerator: (request) => bucket(request).key,
    max: (request) => bucket(request).max,
    ...(redis ? { redis, nameSpace: limits.namespace } : {}),
    skipOnError: true,
    onExceeded: (request, key) => request.log.info({ bucket: key.replace(/:[^:]*$/, '') }, 'rate limit exceeded'),
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.ceil(context.ttl / 1000)),
  })
  if (redis) redis.on('error', (err) => app.log.warn({ err: err.message }, 'rate-limit Redis unavailable; serving without limits'))
  app.addHook('onSend', async (_request, reply) => {
    const reset = reply.getHeader('x-ratelimit-reset')
    if (reset !== undefined) reply.header('x-ratelimit-reset', Math.ceil(Date.now() / 1000) + Number(reset))
  })
}

export const rateLimitPlugin = fp(limits, { name: 'rate-limit', dependencies: ['auth'] })
