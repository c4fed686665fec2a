import fastifyRateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { ShuttingDown } from '../errors.js'
import type { RateLimits } from '../config.js'
import { rateLimitOptions, resetAt } from './rate-limit.js'

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

  function limitUnroutedOnly(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (request.accessPolicy) return done()
    limitUnrouted.call(app, request, reply).then(() => done(), done)
  }

  // A request that reaches the instance while it drains (on a kept-alive connection) is refused here, as
  // Fastify's return503OnClosing would, but with a code and the request id (app.ts turns that option off).
  let draining = false
  app.addHook('preClose', (done) => {
    draining = true
    done()
  })

  app.addHook('onRequest', function identifyCaller(request, reply, done) {
    reply.header('x-request-id', request.id)
    if (draining) return done(new ShuttingDown('The service is shutting down and did not serve this request; send it again'))
    let pending: void | Promise<void>
    try {
      pending = access.identify(request)
    } catch (error) {
      return done(error as Error)
    }
    if (pending) pending.then(() => limitUnroutedOnly(request, reply, done), done)
    else limitUnroutedOnly(request, reply, done)
  })

  // The plugin sends the seconds left in the window; the interface wants the Unix time it ends. Every
  // counted request that is not refused by the limiter comes here (a refusal's header is its error's).
  app.addHook('preParsing', function enforcePolicy(request, reply, payload, done) {
    const left = reply.getHeader(resetHeader)
    if (left !== undefined) reply.header(resetHeader, resetAt(Date.now() - reply.elapsedTime, Number(left)))
    try {
      access.authorize(request)
    } catch (error) {
      return done(error as Error)
    }
    done(null, payload)
  })
}

export const gatePlugin = fp(gate, { name: 'gate', dependencies: ['auth'] })
