import t from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'
import { listen, send } from './support.js'
import { testActor } from '../helpers/actor.js'

const enc = encodeURIComponent

t.test('GET /api/users: admins only, by email, filtered by role and by words of the email or name, paged', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.example.edu', 'admin')
  for (const [email, role] of [['ada@dept.example.edu', 'faculty'], ['bob@dept.example.edu', 'staff'], ['sam@dept.example.edu', 'student']] as const) {
    t.equal((await as(email, role)({ method: 'GET', url: '/api/auth/me' })).statusCode, 200, `${email} signs in`)
  }
  await app.records.create('User', { email: 'gh@dept.example.edu', role: 'faculty', first_name: 'Grace', last_name: 'Hopper', display_name: 'Grace Hopper' }, { actor: testActor, key: 'grace' })

  const all = await admin({ method: 'GET', url: '/api/users' })
  t.equal(all.statusCode, 200)
  t.same(all.json().items.map((u: { email: string }) => u.email),
    ['ada@dept.example.edu', 'admin@dept.example.edu', 'bob@dept.example.edu', 'gh@dept.example.edu', 'sam@dept.example.edu'], 'every user, by email')
  t.match(all.json(), { total: 5, limit: 50, offset: 0 })
  t.same(all.json().items[0], {
    id: userIdForEmail('ada@dept.example.edu'), email: 'ada@dept.example.edu', role: 'faculty', campusId: null, firstName: null, lastName: null,
    displayName: null, affiliation: [], department: null, samlAuthenticated: false, createdAt: all.json().items[0].createdAt, lastLoginAt: null,
    roleSetAt: all.json().items[0].roleSetAt,
  }, 'a user as admins see it')
  t.match(all.json().items[0].createdAt, /^\d{4}-\d{2}-\d{2}T/)

  const emails = async (query: string) => (await admin({ method: 'GET', url: `/api/users?${query}` })).json().items.map((u: { email: string }) => u.email)
  t.same(await emails('role=faculty'), ['ada@dept.example.edu', 'gh@dept.example.edu'], 'role filter')
  t.same(await emails('search=BOB'), ['bob@dept.example.edu'], 'search over the email, any case')
  t.same(await emails('search=hop'), ['gh@dept.example.edu'], 'search over the last name')
  t.same(await emails('search=grace%20hop'), ['gh@dept.example.edu'], 'every word must match')
  t.same(await emails('search=grace%20ada'), [], 'no user has both words')
  t.same(await emails('role=staff&search=grace'), [], 'filters combine')
  t.same(await emails('search=.%2A'), [], 'search words are text, not patterns')
  const page = (await admin({ method: 'GET', url: '/api/users?limit=2&offset=1' })).json()
  t.same(page.items.map((u: { email: string }) => u.email), ['admin@dept.example.edu', 'bob@dept.example.edu'])
  t.match(page, { total: 5, limit: 2, offset: 1 })

  const badRole = await admin({ method: 'GET', url: '/api/users?role=owner' })
  t.equal(badRole.statusCode, 400)
  t.match(badRole.json().error, /'role' must be one of: admin, faculty, staff, student, user/)
  t.equal(badRole.json().code, 'ADKS_VALIDATION_FAILED')
  t.match((await admin({ method: 'GET', url: '/api/users?sort=email' })).json(), { statusCode: 400, error: /unknown parameter 'sort'/ })
  t.equal((await admin({ method: 'GET', url: '/api/users?limit=201' })).statusCode, 400)

  const one = await admin({ method: 'GET', url: `/api/users/${enc('User/grace')}` })
  t.equal(one.statusCode, 200)
  t.match(one.json(), { id: 'User/grace', firstName: 'Grace', lastName: 'Hopper', displayName: 'Grace Hopper', role: 'faculty' })
  t.equal((await admin({ method: 'GET', url: '/api/users/User/grace' })).json().id, 'User/grace', 'the id as two path segments')
  const missing = await admin({ method: 'GET', url: `/api/users/${enc('User/nobody')}` })
  t.same(missing.json(), { success: false, error: 'User/nobody not found', statusCode: 404, code: 'ADKS_RECORD_NOT_FOUND' })
  t.equal((await admin({ method: 'GET', url: `/api/users/${enc('Faculty/ada')}` })).statusCode, 400, 'an id of another class')

  for (const [method, url, payload] of [['GET', '/api/users'], ['GET', `/api/users/${enc('User/grace')}`], ['PUT', `/api/users/${enc('User/grace')}`, { role: 'admin' }]] as const) {
    const res = await as('ada@dept.example.edu', 'faculty')({ method, url, ...(payload ? { payload } : {}) })
    t.equal(res.statusCode, 403, `a faculty member: ${method} ${url}`)
    t.equal(res.json().error, 'Permission denied: admins only')
    t.equal(res.json().code, 'ADKS_PERMISSION_DENIED')
    t.equal((await app.inject({ method, url })).statusCode, 401, `no credential: ${method} ${url}`)
  }
  t.equal((await admin({ method: 'GET', url: `/api/users/${enc('User/grace')}` })).json().role, 'faculty', 'the refused change changed nothing')
})

t.test('PUT /api/users/:id {role}: effective at the user\'s next request, audited, and refusing bad input', async (t) => {
  const { app, as } = await buildTestApp(t)
  const port = await listen(app)
  const admin = as('admin@dept.example.edu', 'admin')
  const ada = as('ada@dept.example.edu', 'faculty')
  const adaId = userIdForEmail('ada@dept.example.edu')
  const key = (await ada({ method: 'POST', url: '/api/api-keys', payload: { name: 'w', permissions: ['write_publications'] } })).json().key as string
  t.equal((await ada({ method: 'GET', url: '/api/auth/me' })).json().role, 'faculty', 'ada is faculty, and remembered as such')
  t.equal((await ada({ method: 'GET', url: '/api/users' })).statusCode, 403)

  const promoted = await admin({ method: 'PUT', url: `/api/users/${enc(adaId)}`, payload: { role: 'admin' } })
  t.equal(promoted.statusCode, 200)
  t.match(promoted.json(), { id: adaId, role: 'admin' })
  t.equal(promoted.headers['cache-control'], 'no-store', 'an audited answer')
  t.equal((await ada({ method: 'GET', url: '/api/auth/me' })).json().role, 'admin', 'admin at the next request, with the same token')
  t.equal((await ada({ method: 'GET', url: '/api/users' })).statusCode, 200, 'and may now administer users')

  const demoted = await admin({ method: 'PUT', url: `/api/users/${enc(adaId)}`, payload: { role: 'student' } })
  t.equal(demoted.json().role, 'student')
  t.same((await ada({ method: 'GET', url: '/api/auth/me' })).json().permissions,
    ['read_courses', 'read_labs', 'read_people', 'read_publications', 'read_resources'], 'a student\'s permissions at the next request')
  const write = await send(port, 'POST', '/api/publications', { 'X-API-Key': key }, { title: 'After the demotion' })
  t.equal(write.status, 403, 'her key lost write_publications with her')

  const bad: Array<[string, unknown, number, RegExp]> = [
    [adaId, { role: 'owner' }, 400, /^Invalid body: 'role' must be one of: admin, faculty, staff, student, user$/],
    [adaId, { role: 'faculty', email: 'x@y.z' }, 400, /^Invalid body: unknown field 'email'$/],
    [adaId, {}, 400, /'role' is required/],
    ['User/nobody', { role: 'faculty' }, 404, /^User\/nobody not found$/],
    ['Faculty/ada', { role: 'faculty' }, 400, /'id' must be the id of a User/],
  ]
  for (const [id, payload, status, error] of bad) {
    const res = await admin({ method: 'PUT', url: `/api/users/${enc(id)}`, payload: payload as object })
    t.equal(res.statusCode, status, `${id} ${JSON.stringify(payload)}`)
    t.match(res.json().error, error)
    t.equal(res.json().code, status === 404 ? 'ADKS_RECORD_NOT_FOUND' : 'ADKS_VALIDATION_FAILED', `${id} ${JSON.stringify(payload)}: code`)
  }
  t.equal((await admin({ method: 'GET', url: `/api/users/${enc(adaId)}` })).json().role, 'student', 'no refused change took effect')

  const audit = (await admin({ method: 'GET', url: '/api/admin/audit?resourceType=user&limit=200' })).json()
  const adminId = userIdForEmail('admin@dept.example.edu')
  const changes = audit.items.filter((e: { success: boolean }) => e.success)
  t.match(changes, [
    { resourceType: 'user', action: 'update', resourceId: adaId, userId: adminId, method: 'PUT', route: '/api/users/:id', statusCode: 200 },
    { resourceType: 'user', action: 'update', resourceId: adaId, userId: adminId, statusCode: 200 },
  ], 'both changes are in the audit log, newest first')
  t.equal(changes.length, 2)
  t.equal(audit.total, 2 + bad.length, 'so is every refused attempt')
  t.ok((await admin({ method: 'GET', url: '/api/admin/audit/verify' })).json().intact, 'the chain holds')
})
