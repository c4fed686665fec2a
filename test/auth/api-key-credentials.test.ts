import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { ApiKeyService } from '../../src/auth/api-keys/service.js'
import { generateKey, wellFormed } from '../../src/auth/api-keys/format.js'
import { signingKeys } from '../../src/auth/keys.js'
import { allow, roleDefaults } from '../../src/auth/permissions.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'
import { encodeJwt, listen, send, validClaims } from './support.js'
import { testActor } from '../helpers/actor.js'

const invalid = { success: false, error: 'Invalid API key', statusCode: 401, code: 'ADKS_API_KEY_INVALID' }
const required = { success: false, error: 'API key required', statusCode: 401, code: 'ADKS_AUTH_REQUIRED' }

async function setup(t: Test, plugins: Array<(app: FastifyInstance) => Promise<void>> = []) {
  const built = await buildTestApp(t, {}, { plugins })
  const port = await listen(built.app)
  const faculty = built.as('ada@dept.example.edu', 'faculty')
  const newKey = async (permissions: string[] = ['read_courses']) => (await faculty({ method: 'POST', url: '/api/api-keys', payload: { name: 'k', permissions } })).json() as { id: string; key: string }
  return { ...built, port, faculty, newKey }
}

t.test('the X-API-Key header: exact case, alone, and in the header only', async (t) => {
  const { port, newKey, token } = await setup(t)
  const { key } = await newKey()
  t.equal((await send(port, 'GET', '/api/courses', { 'X-API-Key': key })).status, 200, 'X-API-Key')
  for (const name of ['x-api-key', 'X-Api-Key', 'X-API-KEY', 'x-API-key']) {
    const res = await send(port, 'GET', '/api/courses', { [name]: key })
    t.equal(res.status, 401, name)
    t.same(res.json(), required, `${name}: API key required`)
  }
  t.same((await send(port, 'GET', '/api/courses')).json(), required, 'no header on a route open to keys')
  t.same((await send(port, 'GET', '/api/auth/me', { 'x-api-key': key })).json(), required, 'miscased on a route closed to keys')
  t.same((await send(port, 'GET', `/api/courses?api_key=${key}`)).json(), required, 'a key in the query string is not a credential')
  t.same((await send(port, 'GET', '/api/auth/me', { 'X-API-Key': key })).json(), { success: false, error: 'Permission denied', statusCode: 403, code: 'ADKS_API_KEY_NOT_ALLOWED' })

  const bearer = `Bearer ${await token('ada@dept.example.edu', 'faculty')}`
  for (const name of ['X-API-Key', 'x-api-key']) {
    const both = await send(port, 'GET', '/api/courses', { Authorization: bearer, [name]: key })
    t.equal(both.status, 400, `bearer and ${name} together`)
    t.equal(both.json().code, 'ADKS_CREDENTIALS_AMBIGUOUS')
  }
  t.equal((await send(port, 'GET', '/api/courses', { Authorization: `Bearer ${key}` })).status, 401, 'a key sent as a bearer token')
})

t.test('malformed, unknown, revoked and expired keys: 401 Invalid API key', async (t) => {
  const { app, port, newKey, faculty } = await setup(t)
  const { id, key } = await newKey()
  const broken = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0')
  t.notOk(wellFormed(broken), 'a broken checksum fails the format check, which runs before any look-up')
  const unknown = generateKey()
  const cases: Record<string, string> = {
    'broken checksum': broken,
    'unknown key of the right form': unknown,
    'wrong prefix': `dpt_${key.slice(5)}`,
    'empty': '',
    'prefix only': 'adks_',
    'odd length': key.slice(0, 17),
    '10 000 characters': `adks_${'a'.repeat(10_000)}`,
    'punctuation': `adks_${"'\"<>;--".repeat(5)}`,
  }
  const answers = new Set<string>()
  for (const [name, value] of Object.entries(cases)) {
    const res = await send(port, 'GET', '/api/courses', { 'X-API-Key': value })
    t.equal(res.status, 401, name)
    t.same(res.json(), invalid, `${name}: Invalid API key`)
    answers.add(res.body)
  }
  t.equal(answers.size, 1, 'a malformed key and an unknown one get the same answer')

  t.equal((await send(port, 'GET', '/api/courses', { 'X-API-Key': key })).status, 200)
  await faculty({ method: 'POST', url: `/api/api-keys/${encodeURIComponent(id)}/revoke` })
  t.same((await send(port, 'GET', '/api/courses', { 'X-API-Key': key })).json(), invalid, 'revoked: refused on the next request')

  const past = new ApiKeyService(app.store, app.records, app.users, () => new Date(Date.now() - 2 * 86_400_000))
  const expired = await past.create({ userId: userIdForEmail('ada@dept.example.edu'), role: 'faculty', permissions: roleDefaults.faculty }, testActor, { name: 'old', permissions: ['read_courses'], expiresInDays: 1 })
  t.same((await send(port, 'GET', '/api/courses', { 'X-API-Key': expired.key })).json(), invalid, 'expired')
})

t.test('each use is logged with time, address, method and route, and sets lastUsedAt', async (t) => {
  const { port, newKey, faculty } = await setup(t)
  const { id, key } = await newKey(['read_courses', 'read_people'])
  const createdAt = Date.now()
  t.equal((await send(port, 'GET', '/api/labs', { 'X-API-Key': key })).status, 403, 'a refused use')
  t.equal((await faculty({ method: 'GET', url: '/api/api-keys' })).json().items[0].lastUsedAt, null, 'a refused use does not count as a use')
  for (let i = 0; i < 3; i++) t.equal((await send(port, 'GET', '/api/courses?limit=5', { 'X-API-Key': key })).status, 200)
  t.equal((await send(port, 'GET', '/api/people', { 'X-API-Key': key })).status, 200)
  t.equal((await send(port, 'GET', '/api/labs', { 'X-API-Key': key })).status, 403, 'a refused use')

  const usage = await faculty({ method: 'GET', url: `/api/api-keys/${encodeURIComponent(id)}/usage` })
  t.equal(usage.statusCode, 200)
  const { items, total } = usage.json()
  t.equal(total, items.length, 'total counts the entries')
  t.equal(items.reduce((sum: number, use: { count: number }) => sum + use.count, 0), 4, 'the four permitted uses, not the two refused')
  const byRoute: Record<string, number> = {}
  for (const use of items) {
    t.match(use, { ip: '127.0.0.1', method: 'GET' })
    byRoute[use.route] = (byRoute[use.route] ?? 0) + use.count
    t.ok(Date.parse(use.at) >= createdAt - 1000 && Date.parse(use.at) <= Date.parse(use.lastAt) && Date.parse(use.lastAt) <= Date.now(), 'timestamped')
  }
  t.same(byRoute, { '/api/courses': 3, '/api/people': 1 }, 'uses of one route from one address are counted together')
  const paged = await faculty({ method: 'GET', url: `/api/api-keys/${encodeURIComponent(id)}/usage?limit=1&offset=1` })
  t.match(paged.json(), { total, limit: 1, offset: 1 })
  t.same(paged.json().items, items.slice(1, 2))

  const lastUsedAt = (await faculty({ method: 'GET', url: '/api/api-keys' })).json().items[0].lastUsedAt
  t.ok(lastUsedAt && Date.parse(lastUsedAt) >= createdAt - 1000, `lastUsedAt set (${lastUsedAt})`)
})

t.test('a key never holds more than its owner does now', async (t) => {
  const probe = async (app: FastifyInstance) => {
    app.get('/api/probe', { config: { policy: allow.permission('write_publications', { apiKeys: true }) } }, async (request) => ({ permissions: [...request.principal!.permissions].sort() }))
  }
  const { app, config, port, newKey } = await setup(t, [probe])
  const { signKey } = await signingKeys(config)
  const { key } = await newKey(['read_courses', 'write_publications'])
  const grant = async (role: string, secondsAhead: number) => {
    const token = encodeJwt({ alg: 'HS256', typ: 'JWT' }, validClaims(config, 'ada@dept.example.edu', { role_grant: role, iat: Math.floor(Date.now() / 1000) + secondsAhead }), { alg: 'HS256', key: signKey })
    t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).json().role, role, `owner is now ${role}`)
  }

  t.same((await send(port, 'GET', '/api/probe', { 'X-API-Key': key })).json(), { permissions: ['read_courses', 'write_publications'] })
  await grant('student', 2)
  const demoted = await send(port, 'GET', '/api/probe', { 'X-API-Key': key })
  t.equal(demoted.status, 403, 'the owner lost write_publications, so the key did')
  t.equal(demoted.json().error, 'Permission denied')
  t.equal(demoted.json().code, 'ADKS_PERMISSION_DENIED')
  t.equal((await send(port, 'GET', '/api/courses', { 'X-API-Key': key })).status, 200, 'what the owner still holds still works')
  await grant('faculty', 4)
  t.equal((await send(port, 'GET', '/api/probe', { 'X-API-Key': key })).status, 200, 'restored with the owner')

  // An account removed from the service takes its keys with it.
  t.equal(await app.store.collection('users').deleteOne({ _id: userIdForEmail('ada@dept.example.edu') }), 1)
  t.same((await send(port, 'GET', '/api/courses', { 'X-API-Key': key })).json(), invalid, 'owner gone: Invalid API key')
})
