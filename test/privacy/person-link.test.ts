import t from 'tap'
import type { Principal } from '../../src/auth/principal.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { workflowIdsOfUsers } from '../../src/workflows/identity.js'
import { buildTestApp } from '../helpers/app.js'

function caller(email: string, campusId?: string): Principal {
  return { kind: 'user', userId: `User/${email}`, email, role: 'faculty', ...(campusId ? { campusId } : {}), permissions: new Set(), groups: [] }
}

t.test('a caller is linked by campus id, else by email, never to a record of another campus id', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const created = await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: 'Ada', last_name: 'Lo', email: 'ada@dept.edu', campus_id: 'alo' } })
  t.equal(created.statusCode, 201)
  const ada = created.json().id

  t.equal((await app.people.personOf(caller('ada@dept.edu', 'alo')))?._id, ada, 'by campus id')
  t.equal((await app.people.personOf(caller('ada@dept.edu')))?._id, ada, 'a caller without a campus id, by email')
  t.equal((await app.people.personOf(caller('someone@dept.edu', 'alo')))?._id, ada, 'the campus id wins over the email')
  t.equal(await app.people.personOf(caller('ada@dept.edu', 'mallory')), null, 'the same email under another campus id is not Ada')

  const bare = await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: 'Bo', last_name: 'Ng', email: 'bo@dept.edu' } })
  t.equal(bare.statusCode, 201)
  t.equal((await app.people.personOf(caller('bo@dept.edu', 'bng')))?._id, bare.json().id, 'a record without a campus id links by email')
})

t.test('an email links whatever its case: a faculty member signed in as jane.doe@ is the advisor Jane.Doe@', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const post = async (payload: object) => {
    const res = await admin({ method: 'POST', url: '/api/people', payload })
    t.equal(res.statusCode, 201)
    return res.json().id as string
  }
  const jane = await post({ type: 'Faculty', first_name: 'Jane', last_name: 'Doe', email: 'Jane.Doe@x.edu' })
  // A longer address that begins with hers is someone else.
  await post({ type: 'Faculty', first_name: 'Jane', last_name: 'Other', email: 'jane.doe@x.edu.au', campus_id: 'jother' })
  const una = await post({ type: 'UndergraduateStudent', first_name: 'Una', last_name: 'Under', email: 'una@x.edu', advisors: [jane] })

  const janeSignedIn = as('jane.doe@x.edu', 'faculty')
  const transcript = await janeSignedIn({ method: 'GET', url: `/api/students/${encodeURIComponent(una)}/transcript` })
  t.equal(transcript.statusCode, 200, `recognised as Una's advisor: ${transcript.body}`)
  const unaSignedIn = as('UNA@X.EDU', 'student')
  t.equal((await unaSignedIn({ method: 'GET', url: `/api/students/${encodeURIComponent(una)}/transcript` })).statusCode, 200, 'and Una as herself')

  t.equal((await admin({ method: 'PUT', url: `/api/people/${encodeURIComponent(jane)}`, payload: { campus_id: 'jdoe' } })).statusCode, 200)
  t.equal((await janeSignedIn({ method: 'GET', url: '/api/auth/me' })).json().campusId, 'jdoe', '/api/auth/me shows the linked Person\'s campus id')
  const janeUser = await app.users.byId(userIdForEmail('jane.doe@x.edu'))
  t.same(await workflowIdsOfUsers([janeUser!], app.records, app.schema), [jane], 'workflows name her by that Person too (committees, admins)')
  const someoneElse = as('jane.doe@x.edu.a', 'faculty')
  t.equal((await someoneElse({ method: 'GET', url: '/api/auth/me' })).json().campusId, null, 'a prefix of an address is not that address')
  t.equal((await someoneElse({ method: 'GET', url: `/api/students/${encodeURIComponent(una)}/transcript` })).statusCode, 403)
})

t.test('linking ignores case on either side, and keeps the campus id rule', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const post = async (payload: object) => (await admin({ method: 'POST', url: '/api/people', payload })).json().id as string
  const ada = await post({ type: 'Faculty', first_name: 'Ada', last_name: 'Lo', email: 'ada.lo@dept.edu', campus_id: 'alo' })
  const bo = await post({ type: 'Faculty', first_name: 'Bo', last_name: 'Ng', email: 'bo@dept.edu' })
  const boUpper = await post({ type: 'Faculty', first_name: 'Bo', last_name: 'Ng', email: 'BO@dept.edu' })

  t.equal((await app.people.personOf(caller('Ada.Lo@Dept.EDU')))?._id, ada, 'a caller without a campus id')
  t.equal((await app.people.personOf(caller('ADA.LO@DEPT.EDU', 'alo')))?._id, ada, 'the same campus id')
  t.equal(await app.people.personOf(caller('Ada.Lo@dept.edu', 'mallory')), null, 'under another campus id it is still not Ada')
  t.equal((await app.people.personOf(caller('BO@dept.edu')))?._id, boUpper, 'two records differing in case: the one spelled as the caller\'s')
  t.equal((await app.people.personOf(caller('Bo@dept.edu')))?._id, [bo, boUpper].sort()[0], 'else the first by id')
})
