import t from 'tap'
import { keyGrantable } from '../../src/auth/api-keys/service.js'
import { buildTestApp } from '../helpers/app.js'
import { listen, send } from './support.js'

// docs/auth.md, "API keys": a key may carry the write permissions its creator holds, and then creates and
// updates catalog records with them, within the key write limit; it never reaches what keys are kept from.

t.test('a key granted write_publications creates and updates a publication; one without it is refused', async (t) => {
  const { app, as } = await buildTestApp(t)
  const port = await listen(app)
  const faculty = as('ada@dept.example.edu', 'faculty')
  const admin = as('admin@dept.example.edu', 'admin')
  const keyWith = async (permissions: string[]) => {
    const res = await faculty({ method: 'POST', url: '/api/api-keys', payload: { name: permissions.join(' '), permissions } })
    t.equal(res.statusCode, 201, `a key with ${permissions.join(', ')}`)
    return res.json().key as string
  }
  const writer = await keyWith(['read_publications', 'write_publications'])
  // A key acts as its owner: it changes publications its owner's Person is a department author of.
  const ada = (await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: 'Ada', last_name: 'Key', email: 'ada@dept.example.edu' } })).json().id as string

  const created = await send(port, 'POST', '/api/publications', { 'X-API-Key': writer }, { title: 'Written with a key', year: 2024, dept_authors: [ada] })
  t.equal(created.status, 201, 'create with the key')
  const id = created.json()._id as string
  t.match(created.json(), { _id: /^Publication\//, title: 'Written with a key', year: 2024 })
  t.equal(created.headers.location, `/api/publications/${encodeURIComponent(id)}`)

  const updated = await send(port, 'PUT', `/api/publications/${encodeURIComponent(id)}`, { 'X-API-Key': writer, 'If-Match': String(created.headers.etag) }, { title: 'Revised with a key' })
  t.equal(updated.status, 200, 'update with the key')
  t.equal(updated.json().title, 'Revised with a key')
  const stored = await admin({ method: 'GET', url: `/api/publications/${encodeURIComponent(id)}` })
  t.match(stored.json(), { title: 'Revised with a key', year: 2024 }, 'the store holds the update')

  const bad = await send(port, 'POST', '/api/publications', { 'X-API-Key': writer }, { title: 'x', pages: 'many' })
  t.equal(bad.status, 400, 'a key\'s write is validated like anyone\'s')
  t.match(bad.json().error, /pages/)
  t.equal(bad.json().code, 'ADKS_VALIDATION_FAILED')

  const reader = await keyWith(['read_publications'])
  const refusedCreate = await send(port, 'POST', '/api/publications', { 'X-API-Key': reader }, { title: 'Not allowed' })
  t.equal(refusedCreate.status, 403, 'create without write_publications')
  t.same(refusedCreate.json(), { success: false, error: 'Permission denied', statusCode: 403, code: 'ADKS_PERMISSION_DENIED' })
  const refusedUpdate = await send(port, 'PUT', `/api/publications/${encodeURIComponent(id)}`, { 'X-API-Key': reader }, { title: 'Not allowed' })
  t.equal(refusedUpdate.status, 403, 'update without write_publications')
  t.equal((await send(port, 'DELETE', `/api/publications/${encodeURIComponent(id)}`, { 'X-API-Key': writer })).status, 403, 'a key never deletes')
  t.equal((await admin({ method: 'GET', url: '/api/publications' })).json().total, 1, 'only the one publication exists')
  t.equal((await admin({ method: 'GET', url: `/api/publications/${encodeURIComponent(id)}` })).json().title, 'Revised with a key', 'and the refused update changed nothing')
})

t.test('a key with every write permission still never reaches student records, audit, administration or keys', async (t) => {
  const { app, as } = await buildTestApp(t)
  const port = await listen(app)
  const admin = as('admin@dept.example.edu', 'admin')
  const key = (await admin({ method: 'POST', url: '/api/api-keys', payload: { name: 'all', permissions: keyGrantable(app.schema) } })).json().key as string
  const student = (await admin({ method: 'POST', url: '/api/people', payload: { type: 'UndergraduateStudent', first_name: 'Sam', last_name: 'Student' } })).json().id as string
  const s = encodeURIComponent(student)
  const adminId = encodeURIComponent((await admin({ method: 'GET', url: '/api/auth/me' })).json().id)

  const refused: Array<[string, string, unknown?]> = [
    ['GET', `/api/students/${s}/transcript`], ['GET', `/api/students/${s}/enrollments`], ['GET', `/api/students/${s}/degree-progress`],
    ['POST', '/api/enrollments', { student, course: 'Course/x', term: '25F' }], ['POST', '/api/student-plans', { student, plan_name: 'p' }],
    ['GET', '/api/admin/audit'], ['GET', '/api/admin/audit/verify'], ['GET', '/api/admin/cache/stats'], ['POST', '/api/admin/cache/clear'],
    ['GET', '/api/users'], ['GET', `/api/users/${adminId}`], ['PUT', `/api/users/${adminId}`, { role: 'admin' }],
    ['POST', '/api/groups', { name: 'g', permissions: ['write_courses'], members: [] }],
    ['GET', '/api/api-keys'], ['POST', '/api/api-keys', { name: 'child', permissions: ['read_people'] }],
    ['PUT', `/api/people/${s}`, { first_name: 'Changed' }], ['POST', '/api/people', { type: 'Faculty', first_name: 'K', last_name: 'K' }],
  ]
  for (const [method, url, body] of refused) {
    const res = await send(port, method, url, { 'X-API-Key': key }, body)
    t.equal(res.status, 403, `${method} ${url}`)
    t.equal(res.json().error, 'Permission denied', `${method} ${url} message`)
    t.equal(res.json().code, 'ADKS_API_KEY_NOT_ALLOWED', `${method} ${url} code`)
  }
  t.equal((await admin({ method: 'GET', url: '/api/api-keys' })).json().total, 1, 'no key was made')
  t.equal((await admin({ method: 'GET', url: '/api/groups' })).json().total, 0, 'no group was made')
  t.equal((await admin({ method: 'GET', url: `/api/people/${s}` })).json().first_name, 'Sam', 'the student record is untouched')
  const audit = (await admin({ method: 'GET', url: '/api/admin/audit?resourceType=transcript' })).json()
  t.match(audit.items, [{ authMethod: 'api-key', success: false, statusCode: 403 }], 'the refused transcript read is audited as a key\'s')
})

t.test('a creator cannot grant a write permission they do not hold, nor one no key can use', async (t) => {
  const { as } = await buildTestApp(t)
  const post = (email: string, role: 'faculty' | 'student', permissions: string[]) =>
    as(email, role)({ method: 'POST', url: '/api/api-keys', payload: { name: 'k', permissions } })
  for (const [role, permission] of [['student', 'write_publications'], ['faculty', 'write_courses'], ['faculty', 'write_labs']] as const) {
    const res = await post(`${role}@dept.example.edu`, role, ['read_people', permission])
    t.equal(res.statusCode, 403, `${role} granting ${permission}`)
    t.equal(res.json().error, `Permission denied: you do not hold ${permission}, so a key cannot be given it`)
    t.equal(res.json().code, 'ADKS_PERMISSION_DENIED')
  }
  for (const permission of ['manage_groups', 'manage_jobs', 'write_people']) {
    const res = await post('admin2@dept.example.edu', 'faculty', [permission])
    t.equal(res.statusCode, 400, `${permission} opens nothing to a key`)
    t.match(res.json().error, /permissions/, `${permission}: the message names the field`)
    t.equal(res.json().code, 'ADKS_VALIDATION_FAILED', `${permission}: code`)
  }
})

t.test('key writes count against the key write limit, 20 a minute, apart from its reads', async (t) => {
  const { app, as } = await buildTestApp(t, { RATE_LIMIT_KEY_WRITE: '20', RATE_LIMIT_KEY_READ: '100' })
  const port = await listen(app)
  const faculty = as('ada@dept.example.edu', 'faculty')
  const key = (await faculty({ method: 'POST', url: '/api/api-keys', payload: { name: 'w', permissions: ['read_publications', 'write_publications'] } })).json().key as string
  const statuses: number[] = []
  for (let i = 0; i < 20; i++) statuses.push((await send(port, 'POST', '/api/publications', { 'X-API-Key': key }, { title: `Paper ${i}` })).status)
  t.same(statuses, Array(20).fill(201), 'twenty writes succeed')
  const over = await send(port, 'POST', '/api/publications', { 'X-API-Key': key }, { title: 'One too many' })
  t.equal(over.status, 429, 'the 21st write in the minute')
  t.equal(over.headers['x-ratelimit-limit'], '20')
  const read = await send(port, 'GET', '/api/publications', { 'X-API-Key': key })
  t.equal(read.status, 200, 'reads are counted apart')
  t.equal(read.json().total, 20, 'the refused write wrote nothing')
})
