import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import type { RateLimiter } from './rate-limit.js'

type Step = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>

/**
 * What every request passes before anything else, the 404 answer included: it is given its request id
 * header, its caller is identified and counted against that caller's rate limit (a refused credential
 * is held through the count, so it counts against the caller's address), and then, in preParsing, after
 * any other onRequest hook and before any body is read, the route's policy is enforced. Hooks in
 * callback style: when the principal and the counter are in this process, as they mostly are, nothing
 * waits on a promise.
 */
async function gate(app: FastifyInstance, { limiter }: { limiter: RateLimiter }) {
  const { access } = app
  const steps: readonly Step[] = [
    (request) => access.identify(request),
    (request, reply) => limiter.take(request, reply),
  ]

  function run(from: number, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    for (let i = from; i < steps.length; i++) {
      let pending: void | Promise<void>
      try {
        pending = steps[i]!(request, reply)
      } catch (error) {
        return done(error as Error)
      }
      if (pending) {
        pending.then(() => run(i + 1, request, reply, done), done)
        return
      }
    }
    done()
  }

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    run(0, request, reply, done)
  })

  app.addHook('preParsing', (request, _reply, payload, done) => {
    try {
      access.authorize(request)
    } catch (error) {
      return done(error as Error)
    }
    done(null, payload)
  })
}

export const gatePlugin = fp(gate, { name: 'gate', dependencies: ['auth'] })
