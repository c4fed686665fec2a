import type { FastifyInstance } from 'fastify'

export interface RouteEntry {
  readonly method: string
  readonly url: string
}

/**
 * Every route the app serves, read from Fastify's own route tree (`printRoutes` with whole segments),
 * so a route added anywhere shows up without this list being told about it.
 */
export function routeTable(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = []
  const stack: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│├└─\s]*?)(?:├── |└── )(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!match) continue
    const depth = [...match[1]!].length / 4
    stack.length = depth
    stack.push(match[2]!)
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, url: stack.join('') })
  }
  return routes
}

/** The OpenAPI form of a route path: `/api/people/:id` is `/api/people/{id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
}
