import t from 'tap'
import { signingKeys } from '../../src/auth/keys.js'
import { roleDefaults } from '../../src/auth/permissions.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'
import { encodeJwt, validClaims } from './support.js'

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

t.test('login, me and permissions describe the signed-in user', async (t) => {
  const { app, token } = await buildTestApp(t)
  const idToken = await token('ada@dept.example.edu', 'faculty')

  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { idToken } })
  t.equal(login.statusCode, 200)
  t.same(login.json(), {
    user: { id: userIdForEmail('ada@dept.example.edu'), email: 'ada@dept.example.edu', role: 'faculty', campusId: null },
    message: 'Signed in',
  })

  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(idToken) })
  t.equal(me.statusCode, 200)
  t.same(me.json(), {
    id: userIdForEmail('ada@dept.example.edu'), email: 'ada@dept.example.edu', role: 'faculty', campusId: null, personId: null,
    permissions: [...roleDefaults.faculty].sort(), unread_notifications: 0,
  })

  const permissions = await app.inject({ method: 'GET', url: '/api/auth/permissions', headers: bearer(idToken) })
  t.equal(permissions.statusCode, 200)
  t.same(permissions.json(), { role: 'faculty', permissions: [...roleDefaults.faculty].sort(), groups: [] })
})

t.test('each role gets its documented defaults; admin holds every permission', async (t) => {
  const { as } = await buildTestApp(t)
  const reads = ['read_courses', 'read_labs', 'read_people', 'read_publications', 'read_resources']
  const expected = {
    admin: [...reads, 'manage_groups', 'manage_jobs', 'manage_profiles', 'write_courses', 'write_labs', 'write_people', 'write_publications', 'write_resources'].sort(),
    faculty: [...reads, 'write_publications'],
    staff: [...reads, 'write_publications'],
    student: reads,
    user: reads,
  }
  for (const [role, permissions] of Object.entries(expected)) {
    const res = await as(`${role}@dept.example.edu`, role as keyof typeof expected)({ method: 'GET', url: '/api/auth/me' })
    t.same(res.json().permissions, permissions, role)
  }
})

t.test('without a credential the session routes answer 401', async (t) => {
  const { app } = await buildTestApp(t)
  for (const [method, url] of [['GET', '/api/auth/me'], ['GET', '/api/auth/permissions'], ['POST', '/api/auth/logout']] as const) {
    const res = await app.inject({ method, url })
    t.equal(res.statusCode, 401, `${method} ${url}`)
    t.equal(res.json().success, false)
    t.match(res.json().error, /^Authentication required/)
    t.equal(res.json().code, 'ADKS_AUTH_REQUIRED')
  }
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: {} })
  t.equal(login.statusCode, 400, 'login without idToken names the field')
  t.match(login.json().error, /idToken/)
  t.equal(login.json().code, 'ADKS_VALIDATION_FAILED')
})

t.test('a token naming a user who does not exist is refused', async (t) => {
  const { app, config } = await buildTestApp(t)
  const keys = await signingKeys(config)
  const stranger = encodeJwt({ alg: 'HS256', typ: 'JWT' }, validClaims(config, 'nobody@dept.example.edu'), { alg: 'HS256', key: keys.signKey })
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(stranger) })
  t.equal(me.statusCode, 401)
  t.equal(me.json().code, 'ADKS_TOKEN_INVALID')
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { idToken: stranger } })
  t.equal(login.statusCode, 401)
})

t.test('logout revokes the token by its id, on every route, even a re-encoded copy', async (t) => {
  const { app, config, token } = await buildTestApp(t)
  const keys = await signingKeys(config)
  const claims = validClaims(config, 'grace@dept.example.edu', { role_grant: 'staff' })
  const idToken = encodeJwt({ alg: 'HS256', typ: 'JWT' }, claims, { alg: 'HS256', key: keys.signKey })
  const other = await token('grace@dept.example.edu')

  // Used twice first, so the verifier has it cached when it is revoked.
  for (let i = 0; i < 2; i++) t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(idToken) })).statusCode, 200)
  const logout = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(idToken) })
  t.equal(logout.statusCode, 200)
  t.same(logout.json(), { message: 'Signed out' })

  for (const [method, url] of [['GET', '/api/auth/me'], ['GET', '/api/auth/permissions'], ['POST', '/api/auth/logout'], ['GET', '/api/courses']] as const) {
    const res = await app.inject({ method, url, headers: bearer(idToken) })
    t.equal(res.statusCode, 401, `${method} ${url} after logout`)
    t.equal(res.json().code, 'ADKS_TOKEN_INVALID')
  }
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { idToken } })
  t.equal(login.statusCode, 401, 'login refuses the revoked token')

  // Same claims signed again (a different header and a later iat give a different string), same jti.
  const reencoded = encodeJwt({ typ: 'JWT', alg: 'HS256' }, { ...claims, iat: (claims.iat as number) + 1 }, { alg: 'HS256', key: keys.signKey })
  t.not(reencoded, idToken)
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(reencoded) })).statusCode, 401, 're-encoded token with the revoked jti')

  const stillIn = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(other) })
  t.equal(stillIn.statusCode, 200, 'the user\'s other tokens are unaffected')
})

t.test('the revocation is kept in the store until the token would have expired', async (t) => {
  const { app, config } = await buildTestApp(t)
  const keys = await signingKeys(config)
  const claims = validClaims(config, 'lin@dept.example.edu', { role_grant: 'user' })
  const idToken = encodeJwt({ alg: 'HS256', typ: 'JWT' }, claims, { alg: 'HS256', key: keys.signKey })
  await app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(idToken) })
  t.ok(await app.revocations.isRevoked(config.jwt.issuer, claims.jti as string))
  t.equal(await app.revocations.sweep(new Date(((claims.exp as number) - 1) * 1000)), 0, 'kept while the token is still valid')
  t.equal(await app.revocations.sweep(new Date(((claims.exp as number) + 1) * 1000)), 1, 'swept once it has expired')
})

t.test('a role change applies on the next request, whichever token the user sends', async (t) => {
  const { app, config, token } = await buildTestApp(t)
  const keys = await signingKeys(config)
  const email = 'kim@dept.example.edu'
  const facultyToken = await token(email, 'faculty')
  const before = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(facultyToken) })
  t.equal(before.json().role, 'faculty')
  t.ok(before.json().permissions.includes('write_publications'))

  // A later grant (as `npm run token -- kim@... --role student` makes) demotes the user.
  const later = Math.floor(Date.now() / 1000) + 2
  const studentToken = encodeJwt({ alg: 'HS256', typ: 'JWT' }, validClaims(config, email, { role_grant: 'student', iat: later }), { alg: 'HS256', key: keys.signKey })
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(studentToken) })).json().role, 'student')

  const after = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(facultyToken) })
  t.equal(after.json().role, 'student', 'the older token does not restore the old role')
  t.notOk(after.json().permissions.includes('write_publications'))
  const write = await app.inject({ method: 'POST', url: '/api/publications', headers: bearer(facultyToken), payload: { title: 'On demotion' } })
  t.equal(write.statusCode, 403)
  t.equal(write.json().error, 'Permission denied: needs write_publications')
  t.equal(write.json().code, 'ADKS_PERMISSION_DENIED')
})
