import type { FastifyRequest } from 'fastify'
import type { Actor } from '../actor.js'

/** Who a request writes as: its user, or its API key (docs/history.md), through its route. */
export function actorOf(request: FastifyRequest): Actor {
  const via = `${request.method} ${request.routeOptions.url ?? request.url}`
  const principal = request.principal
  if (!principal) return { id: 'anonymous', via }
  if (principal.apiKey) return { id: principal.apiKey.id, name: `API key ${principal.apiKey.prefix}`, via }
  return { id: principal.userId, name: principal.email, via }
}
