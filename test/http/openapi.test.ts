import t from 'tap'
import { listen, send } from '../auth/support.js'
import { buildTestApp } from '../helpers/app.js'
import { openApiPath, routeTable } from './route-table.js'

interface Operation {
  tags?: string[]
  summary?: string
  security?: unknown[]
  responses?: Record<string, unknown>
}

/** Routes that @fastify/swagger-ui adds for its own page and assets; they are not part of the API. */
const documentationRoutes = /^\/documentation(\/|$)/
/** Routes of the web app (src/http/web-app.ts): its pages and assets, and the JSON 404 of unknown /api paths. */
const webAppRoutes = /^(\/?\*|\/assets\/\*|\/api\/\*)$/

t.test('every route is in the OpenAPI document with a tag, a summary, the security it enforces and the answers it gives', async (t) => {
  const { app, as } = await buildTestApp(t)
  const created = await as('prober@dept.edu', 'faculty')({ method: 'POST', url: '/api/api-keys', payload: { name: 'probe', permissions: ['read_people'] } })
  t.equal(created.statusCode, 201, 'an API key to probe with')
  const apiKey = String(created.json().key)
  const port = await listen(app)
  const keyAnswers = new Map<string, number>()
  const response = await app.inject({ method: 'GET', url: '/documentation/json' })
  t.equal(response.statusCode, 200)
  const doc = response.json() as { openapi: string; paths: Record<string, Record<string, Operation>>; tags: { name: string; description: string }[]; components: { securitySchemes: Record<string, unknown> } }
  t.match(doc.openapi, /^3\./)
  t.match(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer' })
  t.match(doc.components.securitySchemes.apiKey, { type: 'apiKey', in: 'header', name: 'X-API-Key' })
  const declaredTags = new Set(doc.tags.map((tag) => tag.name))

  const routes = routeTable(app).filter((r) => r.method !== 'HEAD' && !documentationRoutes.test(r.url) && !webAppRoutes.test(r.url))
  for (const resource of app.schema.resources) {
    t.ok(routes.some((r) => r.method === 'POST' && r.url === resource.path), `the route table holds POST ${resource.path}`)
    t.ok(routes.some((r) => r.method === 'DELETE' && r.url === `${resource.path}/:id`), `the route table holds DELETE ${resource.path}/:id`)
  }
  t.ok(routes.some((r) => r.url === '/health') && routes.some((r) => r.url === '/api/schemas/:entityType'), 'the route table holds the fixed routes')

  const documented = new Set<string>()
  for (const route of routes) {
    const label = `${route.method} ${route.url}`
    const operation = doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()]
    if (!operation) {
      t.fail(`${label} is not in /documentation/json`)
      continue
    }
    documented.add(label)
    t.ok(operation.tags?.length, `${label}: tagged`)
    for (const tag of operation.tags ?? []) t.ok(declaredTags.has(tag), `${label}: tag ${tag} is declared with a description`)
    t.match(operation.summary, /\w{3,}/, `${label}: a summary`)
    t.ok(Object.keys(operation.responses ?? {}).some((code) => /^[23]\d\d$/.test(code)), `${label}: a success (or redirect) response is described`)

    // What the route enforces decides what the document must say: probe it without a credential.
    const url = route.url.replace(/:[A-Za-z0-9_]+/g, 'Faculty%2Fprobe')
    const anonymous = await app.inject({ method: route.method as 'GET', url })
    const open = anonymous.statusCode !== 401
    // A route open to API keys says so when called with no credential at all.
    const keys = !open && anonymous.json().error === 'API key required'
    const expected = open ? [] : keys ? [{ bearerAuth: [] }, { apiKey: [] }] : [{ bearerAuth: [] }]
    t.same(operation.security, expected, `${label}: security ${open ? '[] (open)' : keys ? 'bearerAuth or apiKey' : 'bearerAuth'}`)
    if (!open) t.ok(operation.responses?.['401'], `${label}: the 401 answer is described`)
    t.ok(operation.responses?.[String(anonymous.statusCode)], `${label}: its answer without a credential (${anonymous.statusCode}) is described`)
    if (open) continue
    // An API key where keys are not accepted, or without the route's permission, is a 403 the document must show.
    // Over HTTP: inject lower-cases header names, and the key's header is X-API-Key exactly.
    const keyed = await send(port, route.method, url, { 'X-API-Key': apiKey })
    t.ok(operation.responses?.[String(keyed.status)], `${label}: its answer to an API key (${keyed.status}) is described`)
    keyAnswers.set(label, keyed.status)
  }

  for (const closed of ['GET /api/auth/me', 'GET /api/auth/permissions', 'GET /api/schemas', 'GET /api/schemas/:entityType', 'GET /api/api-keys/:id/usage']) {
    t.equal(keyAnswers.get(closed), 403, `${closed} refuses an API key with a 403`)
  }
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
  const routeLabels = new Set(routes.map((r) => `${r.method} ${openApiPath(r.url)}`))
  t.same(operations.filter((op) => !routeLabels.has(op)), [], 'every documented operation is a route')
  t.equal(documented.size, routes.length, `all ${routes.length} routes are documented`)
  t.ok(routes.length >= 50, `the route table is not empty-handed (${routes.length} routes)`)
})
