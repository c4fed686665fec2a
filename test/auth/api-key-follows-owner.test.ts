import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import t from 'tap'
import type { Principal } from '../../src/auth/principal.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import type { UserRecord } from '../../src/auth/users.js'
import { buildTestApp } from '../helpers/app.js'
import { listen, send } from './support.js'
import { testActor } from '../helpers/actor.js'

const enc = encodeURIComponent

/** The principal each request was answered as, last one last. */
function principalRecorder() {
  const seen: (Principal | null)[] = []
  const plugin = fp(async (app: FastifyInstance) => {
    app.addHook('onResponse', async (request) => { seen.push(request.principal) })
  })
  return { plugin, last: () => seen.at(-1) ?? null }
}

t.test('a change to the key owner\'s role, groups or the key itself counts on the key\'s next request', async (t) => {
  const recorder = principalRecorder()
  const { app, as } = await buildTestApp(t, {}, { plugins: [recorder.plugin] })
  t.ok(app.store.writeCounts, 'the principal cache is on')
  const port = await listen(app)
  const admin = as('admin@dept.edu', 'admin')
  const ada = as('ada@dept.edu', 'faculty')
  const adaId = userIdForEmail('ada@dept.edu')
  t.equal((await ada({ method: 'GET', url: '/api/auth/me' })).statusCode, 200, 'Ada exists')
  const group = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Editors', permissions: ['write_courses'], members: [adaId] } })
  t.equal(group.statusCode, 201)
  const groupUrl = `/api/groups/${enc(group.json()._id)}`
  const created = await ada({ method: 'POST', url: '/api/api-keys', payload: { name: 'Site', permissions: ['read_people', 'write_courses', 'write_publications'] } })
  t.equal(created.statusCode, 201, created.body)
  const { key, id } = created.json()

  const useKey = async () => {
    const res = await send(port, 'GET', '/api/people', { 'X-API-Key': key })
    const principal = recorder.last()
    return { status: res.status, principal, held: principal ? [...principal.permissions].sort() : [] }
  }
  for (const round of ['first', 'again, from the principal cache']) {
    const used = await useKey()
    t.equal(used.status, 200, round)
    t.same(used.held, ['read_people', 'write_courses', 'write_publications'], `${round}: everything granted, since Ada holds it`)
    t.equal(used.principal?.role, 'faculty')
  }

  t.equal((await admin({ method: 'PUT', url: groupUrl, payload: { members: [] } })).statusCode, 200)
  t.same((await useKey()).held, ['read_people', 'write_publications'], 'Ada left the group: the key loses write_courses at once')
  t.equal((await admin({ method: 'PUT', url: groupUrl, payload: { members: [adaId] } })).statusCode, 200)
  t.same((await useKey()).held, ['read_people', 'write_courses', 'write_publications'], 'back in the group')
  t.equal((await admin({ method: 'PUT', url: groupUrl, payload: { permissions: ['write_labs'] } })).statusCode, 200)
  t.same((await useKey()).held, ['read_people', 'write_publications'], 'the group no longer grants write_courses')

  // A role change, as the user administration makes it: a write to the user record.
  const user = await app.users.byId(adaId) as UserRecord
  await app.users.setRole(user, 'student', testActor)
  const demoted = await useKey()
  t.equal(demoted.principal?.role, 'student', 'the key speaks for the owner as the owner is now')
  t.same(demoted.held, ['read_people'], 'a student holds no write_publications')

  t.equal((await ada({ method: 'POST', url: `/api/api-keys/${enc(id)}/revoke` })).statusCode, 200)
  const revoked = await send(port, 'GET', '/api/people', { 'X-API-Key': key })
  t.equal(revoked.status, 401, 'revoked: refused on the very next request')
})

t.test('an API key never reaches student records, not even its owner\'s advisee\'s', async (t) => {
  const { app, as } = await buildTestApp(t)
  const port = await listen(app)
  const admin = as('admin@dept.edu', 'admin')
  const fay = as('fay@dept.edu', 'faculty')
  const create = async (body: object) => (await admin({ method: 'POST', url: '/api/people', payload: body })).json().id as string
  const advisor = await create({ type: 'Faculty', first_name: 'Fay', last_name: 'Advisor', email: 'fay@dept.edu' })
  const gina = await create({ type: 'GraduateStudent', first_name: 'Gina', last_name: 'Grad', email: 'gina@dept.edu', advisors: [advisor] })
  t.equal((await fay({ method: 'GET', url: `/api/people/${enc(gina)}` })).statusCode, 200, 'Fay herself may read her advisee')
  t.equal((await fay({ method: 'GET', url: `/api/students/${enc(gina)}/transcript` })).statusCode, 200)
  const key = (await fay({ method: 'POST', url: '/api/api-keys', payload: { name: 'Site', permissions: ['read_people'] } })).json().key as string
  const withKey = (url: string) => send(port, 'GET', url, { 'X-API-Key': key })

  const record = await withKey(`/api/people/${enc(gina)}`)
  t.equal(record.status, 404, 'the record')
  t.notMatch(record.body, /Gina/)
  const list = await withKey('/api/people?limit=100')
  t.equal(list.status, 200)
  t.same(list.json().items.map((p: { _id: string }) => p._id), [advisor], 'lists leave students out')
  t.equal(list.json().total, 1, 'and do not count them')
  for (const url of [`/api/students/${enc(gina)}/transcript`, `/api/students/${enc(gina)}/enrollments`, `/api/students/${enc(gina)}/degree-progress`]) {
    t.equal((await withKey(url)).status, 403, url)
  }
})
