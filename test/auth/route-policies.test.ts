import type { FastifyInstance } from 'fastify'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { buildApp } from '../../src/app.js'
import { signingKeys } from '../../src/auth/keys.js'
import { allow, roles, type Role } from '../../src/auth/permissions.js'
import { signIdToken, userIdForEmail } from '../../src/auth/tokens.js'
import { loadConfig } from '../../src/config.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import { roleMayPass, routeRecorder, sampleUrl } from './support.js'

/**
 * The only routes anyone may call without a credential: liveness and readiness, the sign-in flow of
 * docs/auth.md, and the web app's pages and assets (docs/web.md), which hold no data, with the catch-all
 * under /api that answers the API's 404. A route that declares itself public and is not here fails the
 * inventory.
 */
const publicRoutes = new Set([
  'GET /health', 'GET /ready', 'POST /api/auth/login', 'POST /api/auth/token',
  'GET /api/auth/saml/login', 'POST /api/auth/saml/callback', 'GET /api/auth/saml/logout', 'GET /api/auth/saml/metadata',
  'GET /*', 'GET /assets/*', 'GET /api/*',
])
const signature = (method: string, url: string) => `${method === 'HEAD' ? 'GET' : method} ${url}`

t.test('every route declares a policy; only the known sign-in and health routes are public', async (t) => {
  const recorder = routeRecorder()
  await buildTestApp(t, {}, { plugins: [recorder.plugin] })
  const { routes } = recorder
  t.ok(routes.length > 50, `the whole table was recorded (${routes.length} routes)`)
  t.ok(routes.some((r) => r.url === '/api/groups/:id' && r.method === 'DELETE'), 'the generic record routes are in it')
  for (const route of routes) {
    t.ok(route.policy && ['public', 'signed-in', 'permission', 'any-permission', 'admin'].includes(route.policy.kind), `${route.method} ${route.url} declares a policy`)
    if (route.policy?.kind === 'public') t.ok(publicRoutes.has(signature(route.method, route.url)), `${route.method} ${route.url} may be public`)
  }
})

t.test('a route added without a policy stops start-up, naming it', async (t) => {
  const dir = await tempDir(t)
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dir })
  for (const url of ['/api/debug/users', '/internal/metrics', '/documentation/internal', '/documentation-admin']) {
    const extra = async (app: FastifyInstance) => { app.get(url, async () => ({ users: [] })) }
    await t.rejects(buildApp(config, { plugins: [extra] }), { message: `route GET ${url} declares no access policy` }, url)
  }
  const withEmptyConfig = async (app: FastifyInstance) => { app.post('/api/things', { config: {} }, async () => ({})) }
  await t.rejects(buildApp(config, { plugins: [withEmptyConfig] }), { message: 'route POST /api/things declares no access policy' })

  const app = await buildApp(config)
  t.teardown(() => app.close())
  t.throws(() => app.delete('/api/everything', async () => ({})), { message: 'route DELETE /api/everything declares no access policy' }, 'added after buildApp, before ready')
  t.doesNotThrow(() => app.get('/api/extra', { config: { policy: allow.admin } }, async () => ({})), 'with a policy it is accepted')
})

t.test('anonymous callers get 401 on every non-public route, with the message for its credential', async (t) => {
  const recorder = routeRecorder()
  const { app } = await buildTestApp(t, {}, { plugins: [recorder.plugin] })
  for (const { method, url, policy } of recorder.routes) {
    if (!policy || policy.kind === 'public') continue
    const res = await app.inject({ method: method as 'GET', url: sampleUrl(url) })
    t.equal(res.statusCode, 401, `${method} ${url}`)
    if (method === 'HEAD') continue
    const keysOpen = policy.kind === 'permission' && policy.apiKeys === true
    t.match(res.json(), { success: false, statusCode: 401, code: 'ADKS_AUTH_REQUIRED', error: keysOpen ? 'API key required' : /^Authentication required/ }, `${method} ${url} message`)
  }
})

t.test('each role passes exactly the routes its permissions allow, and nothing answers 500', async (t) => {
  const recorder = routeRecorder()
  // A built app of one page, so the app's routes answer as deployed whether or not dist/web exists.
  const webDir = await tempDir(t)
  await writeFile(join(webDir, 'index.html'), '<!doctype html><title>Department</title>')
  const { app, config } = await buildTestApp(t, { WEB_DIR: webDir }, { plugins: [recorder.plugin] })
  const keys = await signingKeys(config)
  // A fresh token per request: the table includes POST /api/auth/logout, which revokes the one it is sent with.
  const tokenFor = (role: Role) => signIdToken(keys, config, { sub: userIdForEmail(`${role}@dept.example.edu`), email: `${role}@dept.example.edu`, role_grant: role })
  for (const role of roles) {
    let refused = 0
    for (const { method, url, policy } of recorder.routes) {
      if (!policy) continue
      const res = await app.inject({ method: method as 'GET', url: sampleUrl(url), headers: { authorization: `Bearer ${tokenFor(role)}` } })
      // Single sign-on is not configured here, and its routes say so with a 503; nothing else may 5xx.
      const unconfigured = url.startsWith('/api/auth/saml/') && res.statusCode === 503 && (method === 'HEAD' || /not configured/.test(res.json().error))
      t.ok(res.statusCode < 500 || unconfigured, `${role} ${method} ${url}: ${res.statusCode}`)
      if (roleMayPass(policy, role)) {
        t.not(res.statusCode, 401, `${role} passes ${method} ${url}`)
        // A handler may still refuse for its own reasons (the student-record rule); the policy must not.
        if (method !== 'HEAD') t.notOk(res.statusCode === 403 && /^Permission denied/.test(res.json().error), `${role} passes the policy of ${method} ${url}`)
      } else {
        refused++
        t.equal(res.statusCode, 403, `${role} is refused ${method} ${url}`)
        if (method !== 'HEAD') t.match(res.json().error, /^Permission denied/)
        if (method !== 'HEAD') t.equal(res.json().code, 'ADKS_PERMISSION_DENIED')
      }
    }
    if (role === 'student' || role === 'user') t.ok(refused > 10, `${role} is refused the write and admin routes (${refused})`)
    if (role === 'admin') t.equal(refused, 0, 'admin passes everything')
  }
})

t.test('swapped methods and version-prefixed paths do not exist', async (t) => {
  const { as } = await buildTestApp(t)
  const admin = as('admin@dept.example.edu', 'admin')
  for (const [method, url] of [['PATCH', '/api/groups/X'], ['PUT', '/api/groups'], ['GET', '/api/v1/groups'], ['POST', '/api/auth/me']] as const) {
    t.equal((await admin({ method, url })).statusCode, 404, `${method} ${url}`)
  }
  // Outside /api every GET path is the web app's (its page, or the 503 saying it is not built), never the API's data.
  const prefixed = await admin({ method: 'GET', url: '/v1/api/groups' })
  t.not(prefixed.headers['content-type']?.toString().startsWith('application/json') && prefixed.statusCode < 400, true, 'GET /v1/api/groups is no API answer')
  t.notMatch(prefixed.body, /"items"/, 'and lists no groups')
})
