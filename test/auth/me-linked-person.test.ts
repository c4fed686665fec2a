import t from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'
import { testActor } from '../helpers/actor.js'

t.test('/api/auth/me gives a token user the campus id of the Person with their email', async (t) => {
  const { as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  // As `npm run token -- nel@dept.edu --role faculty` signs it: the user is created from the token.
  const nel = as('nel@dept.edu', 'faculty')
  const before = await nel({ method: 'GET', url: '/api/auth/me' })
  t.equal(before.statusCode, 200)
  t.match(before.json(), { id: userIdForEmail('nel@dept.edu'), email: 'nel@dept.edu', role: 'faculty', campusId: null, personId: null }, 'no Person, no campus id')

  const created = await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: 'Nel', last_name: 'New', email: 'nel@dept.edu', campus_id: 'nnew' } })
  t.equal(created.statusCode, 201)
  t.match((await nel({ method: 'GET', url: '/api/auth/me' })).json(), { campusId: 'nnew', personId: created.json().id }, 'linked by email on the next request')

  const url = `/api/people/${encodeURIComponent(created.json().id)}`
  t.equal((await admin({ method: 'PUT', url, payload: { campus_id: 'nnew2' } })).statusCode, 200)
  t.equal((await nel({ method: 'GET', url: '/api/auth/me' })).json().campusId, 'nnew2', 'the Person\'s campus id as it is now')
  t.equal((await admin({ method: 'PUT', url, payload: { email: 'someone.else@dept.edu' } })).statusCode, 200)
  t.match((await nel({ method: 'GET', url: '/api/auth/me' })).json(), { campusId: null, personId: null }, 'no longer linked once the email differs')

  const other = as('oz@dept.edu', 'staff')
  t.equal((await other({ method: 'GET', url: '/api/auth/me' })).json().campusId, null, 'another user is not linked to it')
})

t.test('a campus id on the user record itself is reported as it is', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const kim = as('kim@dept.edu', 'faculty')
  t.equal((await kim({ method: 'GET', url: '/api/auth/me' })).statusCode, 200)
  // Single sign-on sets a user's campus id (the NetID); the Person with that campus id is theirs.
  await app.records.update(userIdForEmail('kim@dept.edu'), { campus_id: 'kim7' }, { actor: testActor })
  const person = await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: 'Kim', last_name: 'Lee', email: 'k.lee@dept.edu', campus_id: 'kim7' } })
  t.equal(person.statusCode, 201)
  t.match((await kim({ method: 'GET', url: '/api/auth/me' })).json(), { campusId: 'kim7', personId: person.json().id })
  t.equal((await app.people.personOf({ kind: 'user', userId: userIdForEmail('kim@dept.edu'), email: 'kim@dept.edu', role: 'faculty', campusId: 'kim7', permissions: new Set(), groups: [] }))?._id, person.json().id,
    'linked by campus id though the emails differ')
})
