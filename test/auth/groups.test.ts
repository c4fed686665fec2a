import t from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'

const course = (n: number) => ({ course_code: `CS ${n}`, title: `Topics ${n}` })

t.test('a group\'s permissions reach its members on their next request, and leave with them', async (t) => {
  const { as } = await buildTestApp(t)
  const admin = as('admin@dept.example.edu', 'admin')
  const student = as('sam@dept.example.edu', 'student')
  const bystander = as('bo@dept.example.edu', 'student')
  const samId = userIdForEmail('sam@dept.example.edu')
  // Users exist once they have made a request.
  t.equal((await student({ method: 'GET', url: '/api/auth/me' })).statusCode, 200)
  t.equal((await bystander({ method: 'GET', url: '/api/auth/me' })).statusCode, 200)
  t.equal((await student({ method: 'POST', url: '/api/courses', payload: course(101) })).statusCode, 403, 'before: no write_courses')

  const created = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Course editors', description: 'May edit the catalog', permissions: ['write_courses'], members: [samId] } })
  t.equal(created.statusCode, 201)
  const group = created.json()
  t.match(group, { _id: /^Group\//, type: 'Group', name: 'Course editors', permissions: ['write_courses'], members: [samId], _version: 1 })
  const url = `/api/groups/${encodeURIComponent(group._id)}`

  const granted = await student({ method: 'GET', url: '/api/auth/permissions' })
  t.same(granted.json().groups, [{ id: group._id, name: 'Course editors', permissions: ['write_courses'] }])
  t.ok(granted.json().permissions.includes('write_courses'))
  t.equal(granted.json().role, 'student', 'the role is unchanged')
  t.ok((await student({ method: 'GET', url: '/api/auth/me' })).json().permissions.includes('write_courses'), '/me agrees')
  t.equal((await student({ method: 'POST', url: '/api/courses', payload: course(102) })).statusCode, 201, 'the member may now write')
  t.equal((await bystander({ method: 'POST', url: '/api/courses', payload: course(103) })).statusCode, 403, 'a non-member may not')
  t.same((await bystander({ method: 'GET', url: '/api/auth/permissions' })).json().groups, [])

  const byMember = await admin({ method: 'GET', url: `/api/groups?member=${encodeURIComponent(samId)}` })
  t.same(byMember.json().items.map((g: { _id: string }) => g._id), [group._id], 'groups can be listed by member')

  t.equal((await admin({ method: 'PUT', url, payload: { permissions: ['write_courses', 'write_labs'] } })).statusCode, 200)
  t.ok((await student({ method: 'GET', url: '/api/auth/me' })).json().permissions.includes('write_labs'), 'a permission added to the group arrives at once')

  t.equal((await admin({ method: 'PUT', url, payload: { members: [] } })).statusCode, 200)
  const removed = await student({ method: 'GET', url: '/api/auth/permissions' })
  t.same(removed.json().groups, [])
  t.notOk(removed.json().permissions.includes('write_courses'))
  t.equal((await student({ method: 'POST', url: '/api/courses', payload: course(104) })).statusCode, 403, 'removed from the group: refused on the next request')

  t.equal((await admin({ method: 'PUT', url, payload: { members: [samId] } })).statusCode, 200)
  t.equal((await student({ method: 'POST', url: '/api/courses', payload: course(105) })).statusCode, 201, 'back in the group')
  const deleted = await admin({ method: 'DELETE', url })
  t.equal(deleted.statusCode, 200)
  t.same(deleted.json(), { id: group._id, message: `${group._id} deleted` })
  t.equal((await student({ method: 'POST', url: '/api/courses', payload: course(106) })).statusCode, 403, 'group deleted: refused on the next request')
  t.equal((await admin({ method: 'GET', url })).statusCode, 404)
})

t.test('every signed-in user reads groups; only holders of manage_groups create, update or delete them', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.example.edu', 'admin')
  const group = (await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Readers', permissions: ['read_people'], members: [] } })).json()
  const url = `/api/groups/${encodeURIComponent(group._id)}`
  const reads = [{ method: 'GET', url: '/api/groups' }, { method: 'GET', url }] as const
  const writes = [
    { method: 'POST', url: '/api/groups', payload: { name: 'Mine', permissions: ['manage_jobs'], members: [] } },
    { method: 'PUT', url, payload: { permissions: ['manage_jobs'] } },
    { method: 'DELETE', url },
  ] as const
  for (const role of ['faculty', 'staff', 'student', 'user'] as const) {
    for (const call of reads) t.equal((await as(`${role}@dept.example.edu`, role)(call)).statusCode, 200, `${role} ${call.method} ${call.url}`)
    for (const call of writes) {
      const res = await as(`${role}@dept.example.edu`, role)(call)
      t.equal(res.statusCode, 403, `${role} ${call.method} ${call.url}`)
      t.equal(res.json().error, 'Permission denied: needs manage_groups')
      t.equal(res.json().code, 'ADKS_PERMISSION_DENIED')
    }
  }
  for (const call of [...reads, ...writes]) t.equal((await app.inject(call)).statusCode, 401, `anonymous ${call.method} ${call.url}`)
  const after = (await admin({ method: 'GET', url })).json()
  t.same([after.permissions, after._version], [['read_people'], 1], 'the refused writes changed nothing')

  // manage_groups itself can come from a group: its members then manage groups without being admins.
  const facultyId = userIdForEmail('faculty@dept.example.edu')
  t.equal((await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Group managers', permissions: ['manage_groups'], members: [facultyId] } })).statusCode, 201)
  const faculty = as('faculty@dept.example.edu', 'faculty')
  t.equal((await faculty({ method: 'GET', url: '/api/groups' })).json().total, 2)
  t.equal((await faculty({ method: 'PUT', url, payload: { description: 'People readers' } })).statusCode, 200)
})

t.test('a group is checked like any record: permissions, members, names and fields', async (t) => {
  const { as } = await buildTestApp(t)
  const admin = as('admin@dept.example.edu', 'admin')
  const post = (payload: object) => admin({ method: 'POST', url: '/api/groups', payload })

  const unknownPermission = await post({ name: 'A', permissions: ['superuser'], members: [] })
  t.equal(unknownPermission.statusCode, 400)
  t.match(unknownPermission.json().error, /permissions/)
  t.equal(unknownPermission.json().code, 'ADKS_VALIDATION_FAILED')

  const ghost = userIdForEmail('ghost@dept.example.edu')
  const unknownMember = await post({ name: 'B', permissions: [], members: [ghost] })
  t.equal(unknownMember.statusCode, 400)
  t.match(unknownMember.json().error, ghost, 'names the missing member')
  t.equal(unknownMember.json().code, 'ADKS_REFERENCE_NOT_FOUND')

  t.equal((await post({ name: 'C', permissions: [], members: [] })).statusCode, 201)
  const duplicate = await post({ name: 'C', permissions: [], members: [] })
  t.equal(duplicate.statusCode, 409)
  t.match(duplicate.json().error, /name/)
  t.equal(duplicate.json().code, 'ADKS_DUPLICATE_RECORD')

  const extra = await post({ name: 'D', permissions: [], members: [], role: 'admin' })
  t.equal(extra.statusCode, 400)
  t.match(extra.json().error, /role/)
  t.equal(extra.json().code, 'ADKS_VALIDATION_FAILED')

  t.equal((await post({ permissions: [], members: [] })).statusCode, 400, 'name is required')
})
