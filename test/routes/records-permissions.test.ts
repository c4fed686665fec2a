import { randomBytes, randomUUID } from 'node:crypto'
import { createSigner } from 'fast-jwt'
import t from 'tap'
import { signingKeys } from '../../src/auth/keys.js'
import { roles, type Role } from '../../src/auth/permissions.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'
import { Fixtures, recordPart, recordUrl, snapshot } from '../helpers/records.js'
import { refused } from '../helpers/refusals.js'

const reads = ['read_courses', 'read_labs', 'read_people', 'read_publications', 'read_resources']

/** What each role holds, written out from the documented defaults (docs/auth.md, "Permissions, roles and groups") rather than read from the code under test. */
const expected: Record<Role, { permissions: string[]; writes: (path: string) => boolean }> = {
  admin: {
    permissions: [...reads, 'write_courses', 'write_labs', 'write_people', 'write_publications', 'write_resources',
      'manage_groups', 'manage_jobs', 'manage_profiles'].sort(),
    writes: () => true,
  },
  faculty: { permissions: [...reads, 'write_publications'].sort(), writes: (path) => path === '/api/publications' },
  staff: { permissions: [...reads, 'write_publications'].sort(), writes: (path) => path === '/api/publications' },
  student: { permissions: reads, writes: () => false },
  user: { permissions: reads, writes: () => false },
}

t.test('every role reads what its permissions allow; writes need the resource\'s write permission', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const fx = new Fixtures(app, admin)

  for (const role of roles) {
    await t.test(role, async (t) => {
      const email = `${role}.member@dept.edu`
      const caller = as(email, role)
      const me = await caller({ method: 'GET', url: '/api/auth/me' })
      t.equal(me.statusCode, 200)
      t.same(me.json(), { id: userIdForEmail(email), email, role, campusId: null, personId: null, permissions: expected[role].permissions, unread_notifications: 0 }, '/api/auth/me')

      for (const resource of app.schema.resources) {
        const className = resource.classes[0]!
        const record = await fx.create(className)
        const label = `${role} on ${resource.path}`
        // `signed_in` reads (groups: docs/auth.md, "Permissions, roles and groups") are every signed-in
        // user's.
        if (resource.permissions.read !== 'signed_in' && !expected[role].permissions.includes(resource.permissions.read)) {
          refused(t, await caller({ method: 'GET', url: resource.path }), 403, resource.permissions.read, `${label}: list`)
          refused(t, await caller({ method: 'GET', url: recordUrl(resource, record._id) }), 403, resource.permissions.read, `${label}: detail`)
          continue
        }
        t.equal((await caller({ method: 'GET', url: resource.path })).statusCode, 200, `${label}: list`)
        const detail = await caller({ method: 'GET', url: recordUrl(resource, record._id) })
        t.same([detail.statusCode, recordPart(className, detail.json())], [200, record], `${label}: detail`)
        for (const related of resource.root.metadata.related) {
          t.equal((await caller({ method: 'GET', url: recordUrl(resource, record._id, 'segments', `/${related.path}`) })).statusCode, 200, `${label}: ${related.path}`)
        }

        const body = await fx.body(className)
        const changes = await fx.changes(className)
        const before = await snapshot(app)
        const create = await caller({ method: 'POST', url: resource.path, payload: body })
        const update = await caller({ method: 'PUT', url: recordUrl(resource, record._id), payload: changes })
        const remove = await caller({ method: 'DELETE', url: recordUrl(resource, record._id) })
        if (expected[role].writes(resource.path) && resource.path === '/api/publications' && role !== 'admin') {
          // docs/privacy.md, "Publications: who may change them": anyone with write_publications creates;
          // only a publication's owners change or delete it.
          t.equal(create.statusCode, 201, `${label}: create allowed`)
          for (const [what, answer] of [['update', update], ['delete', remove]] as const) refused(t, answer, 403, /dept_authors/, `${label}: ${what} of a publication not theirs`)
        } else if (expected[role].writes(resource.path)) {
          t.same([create.statusCode, update.statusCode, remove.statusCode], [201, 200, 200], `${label}: writes allowed`)
        } else {
          for (const [what, answer] of [['create', create], ['update', update], ['delete', remove]] as const) {
            refused(t, answer, 403, resource.permissions.write, `${label}: ${what}`)
          }
          t.same(await snapshot(app), before, `${label}: refused writes change nothing`)
        }
      }
    })
  }
})

t.test('every record route needs a valid token', async (t) => {
  const { app, as, config } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const fx = new Fixtures(app, admin)
  const keys = await signingKeys(config)
  const now = Math.floor(Date.now() / 1000)
  const claims = { sub: userIdForEmail('admin@dept.edu'), email: 'admin@dept.edu', iss: config.jwt.issuer, aud: config.jwt.audience }
  const sign = (key: string, extra: Record<string, unknown>) => createSigner({ key, algorithm: 'HS256' })({ ...claims, jti: randomUUID(), iat: now, exp: now + 600, ...extra })
  const credentials: [string, string | undefined][] = [
    ['no credential', undefined],
    ['an empty bearer', 'Bearer '],
    ['a token that is not a JWT', 'Bearer not-a-token'],
    ['another scheme', 'Basic YWRtaW46YWRtaW4='],
    ['an expired token', `Bearer ${sign(keys.signKey, { iat: now - 7200, exp: now - 3600 })}`],
    ['a token signed with another key', `Bearer ${sign(randomBytes(32).toString('hex'), {})}`],
    ['a token for another audience', `Bearer ${sign(keys.signKey, { aud: 'https://elsewhere.example/api' })}`],
    ['a token without a jti', `Bearer ${createSigner({ key: keys.signKey, algorithm: 'HS256' })({ ...claims, iat: now, exp: now + 600 })}`],
    ['an unsigned token', `Bearer ${createSigner({ algorithm: 'none' })({ ...claims, jti: randomUUID(), iat: now, exp: now + 600 })}`],
  ]
  const requests: [string, string, unknown][] = [['GET', '/api/auth/me', undefined]]
  for (const resource of app.schema.resources) {
    const record = await fx.create(resource.classes[0]!)
    const body = await fx.body(resource.classes[0]!)
    requests.push(['GET', resource.path, undefined], ['GET', recordUrl(resource, record._id), undefined], ['POST', resource.path, body],
      ['PUT', recordUrl(resource, record._id, 'segments'), {}], ['DELETE', recordUrl(resource, record._id), undefined],
      ['POST', resource.path, { huge: 'x'.repeat(config.bodyLimit) }],
      ...resource.root.metadata.related.map((r): [string, string, unknown] => ['GET', recordUrl(resource, record._id, 'encoded', `/${r.path}`), undefined]))
  }
  const before = await snapshot(app)
  for (const [label, authorization] of credentials) {
    for (const [method, url, payload] of requests) {
      const answer = await app.inject({ method: method as 'GET', url, ...(payload === undefined ? {} : { payload: payload as object }), headers: authorization === undefined ? {} : { authorization } })
      // The catalog reads open to API keys answer "API key required" when no credential came at all.
      refused(t, answer, 401, /token|Authentication|API key required/, `${method} ${url} with ${label}`)
      t.equal(answer.headers['www-authenticate'], 'Bearer', `${method} ${url} with ${label}: the challenge names the scheme`)
    }
  }
  t.same(await snapshot(app), before, 'no unauthenticated request changed the store')
})
