import fastifyRateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { rateLimitOptions, type RateLimits } from './rate-limit.js'

export interface GateOptions {
  readonly limits: RateLimits
  /** The request-path client, for counters shared by every instance; null keeps them in process. */
  readonly redis: Redis | null
}

const resetHeader = 'x-ratelimit-reset'

/**
 * What every request passes before anything else, the 404 answer included: it is given its request id
 * header, its caller is identified (a refused credential is held, not thrown), the request is counted
 * against that caller's rate limit by `@fastify/rate-limit` (a refused credential against the address),
 * and then, in preParsing, after every onRequest hook and before any body is read, the route's policy is
 * enforced. The limiter's hook belongs to each route and so runs after the instance's onRequest hooks,
 * identification included. Routes with `config.rateLimit: false` (/health, /ready) are not counted.
 */
async function gate(app: FastifyInstance, { limits, redis }: GateOptions) {
  const { access } = app
  await app.register(fastifyRateLimit, rateLimitOptions(limits, app.log, redis))
  // The 404 answer and the documentation have no route hook of the limiter: counted here, by address.
  const limitUnrouted = app.rateLimit()

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    let pending: void | Promise<void>
    try {
      pending = access.identify(request)
    } catch (error) {
      return done(error as Error)
    }
    if (pending) pending.then(() => done(), done)
    else done()
  })

  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.policy) return done()
    limitUnrouted.call(app, request, reply).then(() => done(), done)
  })

  app.addHook('preParsing', (request, _reply, payload, done) => {
    try {
      access.authorize(request)
    } catch (error) {
      return done(error as Error)
    }
    done(null, payload)
  })

  // The plugin sends the seconds left in the window; the interface wants the Unix time it ends. Counted
  // as the request began, rounded up, so a client that waits for it never comes back early.
  app.addHook('onSend', (_request, reply, payload, done) => {
    const left = reply.getHeader(resetHeader)
    if (left !== undefined) reply.header(resetHeader, Math.ceil((Date.now() - reply.elapsedTime) / 1000) + Number(left))
    done(null, payload)
  })
}

export const gatePlugin = fp(gate, { name: 'gate', dependencies: ['auth'] })
