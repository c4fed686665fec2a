import t from 'tap'
import type { Principal } from '../../src/auth/plugin.js'
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
