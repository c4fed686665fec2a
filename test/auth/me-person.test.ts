import t, { type Test } from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'

async function department(t: Test) {
  const setup = await buildTestApp(t)
  const admin = setup.as('admin@dept.edu', 'admin')
  const create = async (body: Record<string, unknown>) => {
    const res = await admin({ method: 'POST', url: '/api/people', payload: body })
    t.equal(res.statusCode, 201, `created ${String(body.email)}`)
    return res.json().id as string
  }
  const fay = await create({ type: 'Faculty', first_name: 'Fay', last_name: 'Advisor', email: 'fay@dept.edu', phone: '555-0001' })
  const una = await create({ type: 'UndergraduateStudent', first_name: 'Una', last_name: 'Under', email: 'una@dept.edu', advisors: [fay], phone: '555-0002' })
  const gina = await create({ type: 'GraduateStudent', first_name: 'Gina', last_name: 'Grad', email: 'gina@dept.edu', advisors: [fay] })
  const stu = await create({ type: 'Staff', first_name: 'Stu', last_name: 'Staff', email: 'stu@dept.edu' })
  const callers = {
    fay: setup.as('fay@dept.edu', 'faculty'),
    una: setup.as('una@dept.edu', 'student'),
    gina: setup.as('gina@dept.edu', 'student'),
    stu: setup.as('stu@dept.edu', 'staff'),
  }
  return { ...setup, admin, callers, ids: { fay, una, gina, stu } }
}

const url = '/api/auth/me/person'

t.test('each kind of person reads their own record, undergraduates included', async (t) => {
  const { callers, ids } = await department(t)
  for (const [name, caller] of Object.entries(callers)) {
    const res = await caller({ method: 'GET', url })
    t.equal(res.statusCode, 200, `${name} reads their own record`)
    t.equal(res.json()._id, ids[name as keyof typeof ids], `${name}'s own, not another's`)
    t.equal(res.headers.etag, `"${res.json()._version}"`, 'with its version as ETag')
    t.equal(res.headers['cache-control'], 'no-store', 'never stored, as every audited answer')
  }
  const una = (await callers.una({ method: 'GET', url })).json()
  t.equal(una.phone, '555-0002', "an undergraduate sees their record's current values")
  t.equal((await callers.una({ method: 'GET', url: `/api/people/${encodeURIComponent(ids.una)}` })).statusCode, 404, 'which GET /api/people/:id still keeps from them')
})

t.test('a user linked to no Person gets a 404 saying so; no credential gets a 401', async (t) => {
  const { admin, app } = await department(t)
  for (const method of ['GET', 'PUT'] as const) {
    const res = await admin({ method, url, ...(method === 'PUT' ? { payload: { phone: '1' } } : {}) })
    t.equal(res.statusCode, 404)
    t.equal(res.json().code, 'ADKS_PERSON_NOT_LINKED')
    t.equal((await app.inject({ method, url, ...(method === 'PUT' ? { payload: {} } : {}) })).statusCode, 401)
  }
})

t.test("an API key never acts as a person on their own record, not even its owner's key", async (t) => {
  const { callers, app } = await department(t)
  const created = await callers.fay({ method: 'POST', url: '/api/api-keys', payload: { name: 'mine', permissions: ['read_people'] } })
  t.equal(created.statusCode, 201)
  const key = created.json().key as string
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { 'x-api-key': key } })
  t.equal(me.statusCode, 401, 'as /api/auth/me refuses it')
  for (const method of ['GET', 'PUT'] as const) {
    const res = await app.inject({ method, url, headers: { 'x-api-key': key }, ...(method === 'PUT' ? { payload: { phone: '1' } } : {}) })
    t.equal(res.statusCode, me.statusCode, `${method} with a key is refused the same way`)
    t.equal(res.json().code, me.json().code)
  }
  const fay = (await callers.fay({ method: 'GET', url })).json()
  t.equal(fay.phone, '555-0001', 'nothing written')
})

t.test("the route reaches only the caller's own record: no id, no other person's fields", async (t) => {
  const { callers, admin, ids } = await department(t)
  const res = await callers.una({ method: 'PUT', url, payload: { phone: '555-0102' } })
  t.equal(res.statusCode, 200)
  t.equal(res.json()._id, ids.una)
  t.equal(res.json().phone, '555-0102')
  const fay = (await admin({ method: 'GET', url: `/api/people/${encodeURIComponent(ids.fay)}` })).json()
  t.equal(fay.phone, '555-0001', "another's record is untouched")
  const aimed = await callers.una({ method: 'PUT', url, payload: { _id: ids.fay, phone: 'x' } })
  t.equal(aimed.statusCode, 400, 'naming another id is refused')
  t.match(aimed.json().error, /'_id'/)
  t.equal((await callers.una({ method: 'GET', url: `${url}?id=${encodeURIComponent(ids.fay)}` })).statusCode, 400, 'no query names another person')
  t.equal((await admin({ method: 'GET', url: `/api/people/${encodeURIComponent(ids.fay)}` })).json().phone, '555-0001')
})

t.test("only the caller's class's self-editable fields change; others are a 400 naming the field", async (t) => {
  const { callers, admin, ids } = await department(t)
  const refusals: [keyof typeof callers, Record<string, unknown>, RegExp][] = [
    ['una', { first_name: 'Unaa' }, /'first_name'/],
    ['una', { email: 'x@dept.edu', phone: '1' }, /'email'/],
    ['una', { advisors: [] }, /'advisors'/],
    ['una', { research_interests: ['graphs'] }, /'research_interests'/],
    ['fay', { title: 'Dean' }, /'title'/],
    ['stu', { type: 'Faculty' }, /'type'/],
  ]
  for (const [who, payload, field] of refusals) {
    const res = await callers[who]({ method: 'PUT', url, payload })
    t.equal(res.statusCode, 400, `${who} sending ${Object.keys(payload).join(', ')}`)
    t.equal(res.json().code, 'ADKS_VALIDATION_FAILED')
    t.match(res.json().error, field)
  }
  const una = (await admin({ method: 'GET', url: `/api/people/${encodeURIComponent(ids.una)}` })).json()
  t.equal(una.first_name, 'Una', 'nothing refused was written')
  t.equal(una.phone, '555-0002')
  const own = await callers.fay({ method: 'PUT', url, payload: { research_interests: ['graphs'], office: 'Room 12' } })
  t.equal(own.statusCode, 200, "a faculty member edits their class's own fields")
  t.same(own.json().research_interests, ['graphs'])
})

t.test('the update is conditional on the version, as other writes', async (t) => {
  const { callers } = await department(t)
  const read = await callers.gina({ method: 'GET', url })
  const version = read.json()._version as number
  const first = await callers.gina({ method: 'PUT', url, headers: { 'if-match': `"${version}"` }, payload: { phone: '555-0103' } })
  t.equal(first.statusCode, 200)
  t.equal(first.headers.etag, `"${version + 1}"`)
  const stale = await callers.gina({ method: 'PUT', url, headers: { 'if-match': `"${version}"` }, payload: { phone: '555-0104' } })
  t.equal(stale.statusCode, 409)
  t.equal(stale.json().code, 'ADKS_VERSION_CONFLICT')
  const staleBody = await callers.gina({ method: 'PUT', url, payload: { phone: '555-0105', _version: version } })
  t.equal(staleBody.statusCode, 409, '_version in the body too')
  t.equal((await callers.gina({ method: 'GET', url })).json().phone, '555-0103')
})

t.test('every read and edit is audited, and the history names the person who wrote', async (t) => {
  const { callers, admin, ids } = await department(t)
  await callers.una({ method: 'GET', url })
  await callers.una({ method: 'PUT', url, payload: { phone: '555-0106' } })
  await callers.una({ method: 'PUT', url, payload: { first_name: 'No' } })
  const entries = (await admin({ method: 'GET', url: `/api/admin/audit?resourceId=${encodeURIComponent(ids.una)}&limit=10` })).json().items as Record<string, unknown>[]
  const mine = entries.filter((e) => e.resourceType === 'person').reverse()
  t.same(mine.map((e) => [e.action, e.success, e.statusCode, e.userId, e.basis, e.route]), [
    ['view', true, 200, userIdForEmail('una@dept.edu'), 'self', url],
    ['update', true, 200, userIdForEmail('una@dept.edu'), 'self', url],
    ['update', false, 400, userIdForEmail('una@dept.edu'), 'self', url],
  ])
  const history = (await admin({ method: 'GET', url: `/api/people/${encodeURIComponent(ids.una)}/history` })).json()
  const latest = (history.items ?? history)[0] as Record<string, unknown>
  t.equal(latest.actor, userIdForEmail('una@dept.edu'), 'the change is written as the undergraduate')
})
