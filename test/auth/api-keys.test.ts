import { createHash } from 'node:crypto'
import t from 'tap'
import { ApiKeyService, statusOf, type ApiKeyRecord } from '../../src/auth/api-keys/service.js'
import { digest, displayPrefix, generateKey, keyShape, wellFormed } from '../../src/auth/api-keys/format.js'
import { roleDefaults } from '../../src/auth/permissions.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'
import { testActor } from '../helpers/actor.js'

const day = 86_400_000
const keyUrl = (id: string, rest = '') => `/api/api-keys/${encodeURIComponent(id)}${rest}`

t.test('the key format: fixed prefix, base62 secret, checksum; any one-character change is caught', async (t) => {
  const keys = Array.from({ length: 200 }, generateKey)
  t.equal(new Set(keys).size, keys.length, 'keys do not repeat')
  t.ok(keys.every((k) => keyShape.test(k) && k.startsWith('adks_') && wellFormed(k)), 'every generated key matches the published pattern and its checksum')
  const key = keys[0]!
  t.equal(displayPrefix(key), key.slice(0, 12))
  t.equal(digest(key), createHash('sha256').update(key).digest('hex'))
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
  let caught = 0
  for (let i = 'adks_'.length; i < key.length; i++) {
    const other = alphabet[(alphabet.indexOf(key[i]!) + 1 + (i % 61)) % 62]!
    if (!wellFormed(key.slice(0, i) + other + key.slice(i + 1))) caught++
  }
  t.equal(caught, key.length - 'adks_'.length, 'a change in any position of the secret or the checksum')
  for (const bad of ['', 'adks_', `dpt_${key.slice(5)}`, `ADKS_${key.slice(5)}`, key.slice(0, -1), `${key}0`, ` ${key}`, key.replace(/.$/, '!')]) {
    t.notOk(wellFormed(bad), `refused without a look-up: ${JSON.stringify(bad.slice(0, 12))}`)
  }
})

t.test('creating a key: the key once, a prefix, the permissions asked for, 90 days by default', async (t) => {
  const { app, as } = await buildTestApp(t)
  const faculty = as('ada@dept.example.edu', 'faculty')
  const before = Date.now()
  const res = await faculty({ method: 'POST', url: '/api/api-keys', payload: { name: 'Lab website', permissions: ['read_people', 'read_publications'] } })
  const after = Date.now()
  t.equal(res.statusCode, 201)
  t.equal(res.headers['cache-control'], 'no-store')
  const created = res.json()
  t.same(Object.keys(created).sort(), ['createdAt', 'expiration', 'id', 'key', 'lastUsedAt', 'name', 'owner', 'permissions', 'prefix', 'status'])
  t.match(created, { id: /^ApiKey\//, name: 'Lab website', permissions: ['read_people', 'read_publications'], status: 'active', lastUsedAt: null, owner: userIdForEmail('ada@dept.example.edu') })
  t.ok(wellFormed(created.key))
  t.equal(created.prefix, created.key.slice(0, 12))
  const expiration = Date.parse(created.expiration)
  t.ok(expiration >= before + 90 * day && expiration <= after + 90 * day, 'expires in 90 days')

  const stored = await app.store.collection<ApiKeyRecord>('api_keys').findById(created.id)
  t.equal(stored?.key_hash, digest(created.key), 'the store holds the SHA-256 digest')
  t.notOk(Object.values(stored!).some((v) => typeof v === 'string' && v.includes(created.key.slice(12))), 'and no part of the secret beyond the prefix')

  const askedShort = Date.now()
  const short = await faculty({ method: 'POST', url: '/api/api-keys', payload: { name: 'Short', permissions: ['read_labs'], expiresInDays: 1 } })
  const shortExpiration = Date.parse(short.json().expiration)
  t.ok(shortExpiration >= askedShort + day && shortExpiration <= Date.now() + day, 'expiresInDays 1')
  t.equal((await faculty({ method: 'POST', url: '/api/api-keys', payload: { name: 'Year', permissions: ['read_labs'], expiresInDays: 365 } })).statusCode, 201, '365 days is allowed')
  t.equal((await faculty({ method: 'POST', url: '/api/api-keys', payload: { name: 'W', permissions: ['write_publications'] } })).statusCode, 201, 'faculty may grant write_publications, which they hold')
})

t.test('creating a key: bad lifetimes, unknown or unheld permissions are refused', async (t) => {
  const { as } = await buildTestApp(t)
  const post = (role: 'faculty' | 'student', payload: object) => as(`${role}@dept.example.edu`, role)({ method: 'POST', url: '/api/api-keys', payload })
  for (const expiresInDays of [366, 0, -1, 1.5]) {
    const res = await post('faculty', { name: 'k', permissions: ['read_people'], expiresInDays })
    t.equal(res.statusCode, 400, `expiresInDays ${expiresInDays}`)
    t.match(res.json().error, /expiresInDays/)
    t.equal(res.json().code, 'ADKS_VALIDATION_FAILED')
  }
  t.equal((await post('faculty', { name: 'k', permissions: ['superuser'] })).statusCode, 400, 'unknown permission')
  t.equal((await post('faculty', { name: 'k', permissions: [] })).statusCode, 400, 'no permissions')
  t.equal((await post('faculty', { name: '', permissions: ['read_people'] })).statusCode, 400, 'empty name')
  t.equal((await post('faculty', { name: 'k', permissions: ['read_people'], expiresAt: '2999-01-01' })).statusCode, 400, 'unknown field')
  t.equal((await post('faculty', { name: 'k', permissions: ['manage_groups'] })).statusCode, 400, 'a permission that opens nothing to a key')
  for (const [role, permission] of [['student', 'write_publications'], ['faculty', 'write_labs'], ['faculty', 'write_courses']] as const) {
    const res = await post(role, { name: 'k', permissions: ['read_people', permission] })
    t.equal(res.statusCode, 403, `${role} granting ${permission}`)
    t.match(res.json().error, /^Permission denied/)
    t.equal(res.json().code, 'ADKS_PERMISSION_DENIED')
  }
})

t.test('listing shows the prefix and status, never the key or its digest; admins may list everyone\'s', async (t) => {
  const { app, as } = await buildTestApp(t)
  const ada = as('ada@dept.example.edu', 'faculty')
  const bob = as('bob@dept.example.edu', 'staff')
  const admin = as('admin@dept.example.edu', 'admin')
  const adaKey = (await ada({ method: 'POST', url: '/api/api-keys', payload: { name: 'A', permissions: ['read_people'] } })).json()
  const bobKey = (await bob({ method: 'POST', url: '/api/api-keys', payload: { name: 'B', permissions: ['read_labs'] } })).json()

  const list = await ada({ method: 'GET', url: '/api/api-keys' })
  t.equal(list.statusCode, 200)
  const { key: _secret, ...shown } = adaKey
  t.same(list.json(), { items: [shown], total: 1 }, 'the creation answer without the key')
  t.notOk(list.body.includes(adaKey.key.slice(12)), 'no secret in the list')
  t.notOk(list.body.includes(digest(adaKey.key)), 'no digest in the list')
  t.notOk(list.body.includes('key_hash'))

  const refused = await ada({ method: 'GET', url: '/api/api-keys?all=true' })
  t.equal(refused.statusCode, 403)
  t.match(refused.json().error, /^Permission denied/)
  t.equal(refused.json().code, 'ADKS_PERMISSION_DENIED')
  const all = await admin({ method: 'GET', url: '/api/api-keys?all=true' })
  t.same(all.json().items.map((k: { id: string }) => k.id).sort(), [adaKey.id, bobKey.id].sort())
  t.notOk(all.body.includes(digest(bobKey.key)))
  t.equal((await admin({ method: 'GET', url: '/api/api-keys' })).json().total, 0, 'without all=true an admin sees their own')
  t.equal((await app.inject({ method: 'GET', url: '/api/api-keys' })).statusCode, 401)
})

t.test('revoke, then delete; an active key cannot be deleted; others\' keys are not found', async (t) => {
  const { as } = await buildTestApp(t)
  const ada = as('ada@dept.example.edu', 'faculty')
  const bob = as('bob@dept.example.edu', 'faculty')
  const admin = as('admin@dept.example.edu', 'admin')
  const key = (await ada({ method: 'POST', url: '/api/api-keys', payload: { name: 'A', permissions: ['read_people'] } })).json()

  for (const [method, rest] of [['GET', '/usage'], ['POST', '/revoke'], ['DELETE', '']] as const) {
    const res = await bob({ method, url: keyUrl(key.id, rest) })
    t.equal(res.statusCode, 404, `another user: ${method} ${rest || '(delete)'}`)
    t.equal(res.json().error, `${key.id} not found`)
    t.equal(res.json().code, 'ADKS_RECORD_NOT_FOUND')
  }
  t.equal((await ada({ method: 'GET', url: keyUrl('ApiKey/nonexistent', '/usage') })).statusCode, 404)
  t.equal((await ada({ method: 'GET', url: keyUrl('Course/CS101', '/usage') })).statusCode, 400, 'an id of another type')

  const active = await ada({ method: 'DELETE', url: keyUrl(key.id) })
  t.equal(active.statusCode, 409)
  t.equal(active.json().code, 'ADKS_API_KEY_ACTIVE')

  const revoked = await ada({ method: 'POST', url: keyUrl(key.id, '/revoke') })
  t.equal(revoked.statusCode, 200)
  t.equal(revoked.json().status, 'revoked')
  t.equal((await ada({ method: 'POST', url: keyUrl(key.id, '/revoke') })).json().status, 'revoked', 'revoking again changes nothing')
  t.equal((await ada({ method: 'GET', url: '/api/api-keys' })).json().items[0].status, 'revoked')

  const deleted = await ada({ method: 'DELETE', url: keyUrl(key.id) })
  t.equal(deleted.statusCode, 200)
  t.same(deleted.json(), { id: key.id, message: `${key.id} deleted` })
  t.equal((await ada({ method: 'DELETE', url: keyUrl(key.id) })).statusCode, 404, 'gone')
  t.equal((await ada({ method: 'GET', url: '/api/api-keys' })).json().total, 0)

  const other = (await bob({ method: 'POST', url: '/api/api-keys', payload: { name: 'B', permissions: ['read_people'] } })).json()
  t.equal((await admin({ method: 'POST', url: keyUrl(other.id, '/revoke') })).json().status, 'revoked', 'an admin may revoke anyone\'s key')
})

t.test('status is derived: an expired key shows as expired and may be deleted without revoking', async (t) => {
  const { app, as } = await buildTestApp(t)
  const ada = as('ada@dept.example.edu', 'faculty')
  await ada({ method: 'GET', url: '/api/auth/me' })
  const twoDaysAgo = () => new Date(Date.now() - 2 * day)
  const past = new ApiKeyService(app.store, app.records, app.users, twoDaysAgo)
  const caller = { userId: userIdForEmail('ada@dept.example.edu'), role: 'faculty', permissions: roleDefaults.faculty }
  const expired = await past.create(caller, testActor, { name: 'Old', permissions: ['read_people'], expiresInDays: 1 })
  t.equal(expired.status, 'active', 'active when it was made')
  t.equal((await ada({ method: 'GET', url: '/api/api-keys' })).json().items[0].status, 'expired', 'expired now')
  t.equal((await ada({ method: 'DELETE', url: keyUrl(expired.id) })).statusCode, 200)

  const record = { expires_at: new Date(Date.now() - day).toISOString(), revoked_at: new Date().toISOString() } as ApiKeyRecord
  t.equal(statusOf(record), 'revoked', 'revoked wins over expired')
  t.equal(statusOf({ expires_at: new Date(Date.now() + day).toISOString() } as ApiKeyRecord), 'active')
})
