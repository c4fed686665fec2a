import type { FastifyInstance, FastifyRequest } from 'fastify'
import { actingAs, type Actor } from '../actor.js'

/** Who a request writes as: its user, or its API key (DESIGN 6.9), through its route. */
export function actorOf(request: FastifyRequest): Actor {
  const via = `${request.method} ${request.routeOptions.url ?? request.url}`
  const principal = request.principal
  if (!principal) return { id: 'anonymous', via }
  if (principal.apiKey) return { id: principal.apiKey.id, name: `API key ${principal.apiKey.prefix}`, via }
  return { id: principal.userId, name: principal.email, via }
}

/**
 * Every write a request makes is its caller's. The context is entered after the body is read (the
 * body's stream events come from outside any request's context) and asks for the caller at each write,
 * by which time the credentials are checked.
 */
export function installWriteActor(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => actingAs(() => actorOf(request), done))
}
