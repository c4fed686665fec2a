import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import t from 'tap'
import type { Principal } from '../../src/auth/principal.js'
import { buildTestApp } from '../helpers/app.js'

/** Every request's principal, as the handlers saw it, in the order the answers went out. */
function principalRecorder() {
  const seen: (Principal | null)[] = []
  const plugin = fp(async (app: FastifyInstance) => {
    app.addHook('onResponse', async (request) => { seen.push(request.principal) })
  })
  return { plugin, seen }
}

t.test('the People memo cannot outlive a request', async (t) => {
  const recorder = principalRecorder()
  const { app, as } = await buildTestApp(t, {}, { plugins: [recorder.plugin] })
  t.ok(app.store.writeCounts, 'the principal cache is on, so the same token is answered from it')
  const admin = as('admin@dept.edu', 'admin')
  const nel = as('nel@dept.edu', 'faculty')
  t.equal((await nel({ method: 'GET', url: '/api/auth/me' })).statusCode, 200)
  t.equal((await nel({ method: 'GET', url: '/api/auth/me' })).statusCode, 200)
  t.equal((await nel({ method: 'GET', url: '/api/auth/me' })).statusCode, 200)
  const [, second, third] = recorder.seen
  t.ok(second && third)
  t.same(second, third, 'the same caller both times')
  t.not(second, third, 'but each request has a principal object of its own, the key the memo is held under')

  // Within a request the lookup is made once: the memo answers for that principal object as it stood.
  t.equal(await app.people.personOf(third!), null, 'no Person has Nel\'s email yet')
  const created = await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: 'Nel', last_name: 'New', email: 'nel@dept.edu', campus_id: 'nnew' } })
  t.equal(created.statusCode, 201)
  t.equal(await app.people.personOf(third!), null, 'memoised for the request that asked')

  const me = await nel({ method: 'GET', url: '/api/auth/me' })
  t.equal(me.json().campusId, 'nnew', 'the next request finds the new Person')
  const next = recorder.seen.at(-1)!
  t.not(next, third)
  t.equal((await app.people.personOf(next))?._id, created.json().id)
})
