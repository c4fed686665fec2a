import t from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'

t.test('manage_groups is no way to rights its holder lacks', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const gm = as('gm@dept.edu', 'staff')
  await gm({ method: 'GET', url: '/api/auth/me' })
  const managers = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Group managers', permissions: ['manage_groups'], members: [userIdForEmail('gm@dept.edu')] } })
  t.equal(managers.statusCode, 201)
  const auditors = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Operators', permissions: ['manage_jobs'], members: [] } })
  const auditorsId = auditors.json()._id as string
  const url = (id: string) => `/api/groups/${encodeURIComponent(id)}`

  const grantSelf = await gm({ method: 'POST', url: '/api/groups', payload: { name: 'Mine', permissions: ['manage_jobs'], members: [userIdForEmail('gm@dept.edu')] } })
  t.equal(grantSelf.statusCode, 403, 'creating a group with a permission the caller lacks')
  t.match(grantSelf.json().error, /manage_jobs/)
  t.equal(grantSelf.json().code, 'ADKS_PERMISSION_DENIED')
  const join = await gm({ method: 'PUT', url: url(auditorsId), payload: { members: [userIdForEmail('gm@dept.edu')] } })
  t.equal(join.statusCode, 403, 'joining a group that grants more')
  const widen = await gm({ method: 'PUT', url: url(managers.json()._id), payload: { permissions: ['manage_groups', 'manage_jobs'] } })
  t.equal(widen.statusCode, 403, 'widening a group to a permission the caller lacks')
  t.equal((await gm({ method: 'DELETE', url: url(auditorsId) })).statusCode, 403, 'deleting a group that grants more')

  const own = await gm({ method: 'POST', url: '/api/groups', payload: { name: 'Readers', permissions: ['read_people'], members: [] } })
  t.equal(own.statusCode, 201, 'a group within the caller\'s own rights is fine')
  t.same((await as('gm@dept.edu', 'staff')({ method: 'GET', url: '/api/auth/permissions' })).json().permissions.includes('manage_jobs'), false)
  t.same((await app.store.collection('groups').findById(auditorsId))?.members, [], 'the refused join changed nothing')
})

t.test('write_people through a group does not reach student records hidden from the caller', async (t) => {
  const { as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const editor = as('editor@dept.edu', 'staff')
  await editor({ method: 'GET', url: '/api/auth/me' })
  await admin({ method: 'POST', url: '/api/groups', payload: { name: 'People editors', permissions: ['write_people'], members: [userIdForEmail('editor@dept.edu')] } })
  const student = (await admin({ method: 'POST', url: '/api/people', payload: { type: 'UndergraduateStudent', first_name: 'Una', last_name: 'Under' } })).json().id as string
  const faculty = (await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: 'Fay', last_name: 'Prof' } })).json().id as string
  const url = (id: string) => `/api/people/${encodeURIComponent(id)}`
  t.equal((await editor({ method: 'DELETE', url: url(student) })).statusCode, 404, 'a hidden student cannot be deleted')
  t.equal((await editor({ method: 'PUT', url: url(student), payload: { bio: 'x' } })).statusCode, 404, 'nor changed')
  t.equal((await admin({ method: 'GET', url: url(student) })).statusCode, 200, 'it is still there')
  t.equal((await editor({ method: 'DELETE', url: url(faculty) })).statusCode, 200, 'visible records are the editor\'s to delete')
})
