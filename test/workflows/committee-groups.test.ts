import t, { type Test } from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'
import { department } from '../privacy/department.js'

const url = (id: string) => `/api/groups/${encodeURIComponent(id)}`
const rule = /only admins create or change a committee group/

async function setup(t: Test) {
  const built = await buildTestApp(t)
  const admin = built.as('admin@dept.edu', 'admin')
  // A staff member given manage_groups through a group, as a department office might.
  const gm = built.as('gm@dept.edu', 'staff')
  const gmId = userIdForEmail('gm@dept.edu')
  t.equal((await gm({ method: 'GET', url: '/api/auth/me' })).statusCode, 200, 'the user exists once they have made a request')
  const managers = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Group managers', permissions: ['manage_groups'], members: [gmId] } })
  t.equal(managers.statusCode, 201)
  return { ...built, admin, gm, gmId }
}

t.test('a group a workflow names by name (the fellowship committee) changes only through an admin', async (t) => {
  const { app, admin, gm, gmId } = await setup(t)
  const created = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Fellowship committee', permissions: [], members: [] } })
  t.equal(created.statusCode, 201)
  const committee = created.json()._id as string

  const join = await gm({ method: 'PUT', url: url(committee), payload: { members: [gmId] } })
  t.equal(join.statusCode, 403, 'a manage_groups holder cannot add themselves to it')
  t.match(join.json().error, rule)
  t.equal(join.json().code, 'ADKS_PERMISSION_DENIED')
  t.match(join.json().error, /Fellowship committee/, 'the message names the group')
  t.equal((await gm({ method: 'PUT', url: url(committee), payload: { description: 'x' } })).statusCode, 403, 'nor change anything else on it')
  t.equal((await gm({ method: 'DELETE', url: url(committee) })).statusCode, 403, 'nor delete it')
  const stored = await app.store.collection('groups').findById(committee)
  t.same([stored?.members, stored?._version], [[], 1], 'the refused writes changed nothing')

  const second = await gm({ method: 'POST', url: '/api/groups', payload: { name: 'Awards committee', permissions: [], members: [gmId] } })
  t.equal(second.statusCode, 403, 'nor create the awards committee, whose members would decide nominations')
  t.match(second.json().error, rule)
  t.equal(second.json().code, 'ADKS_PERMISSION_DENIED')
  const ordinary = await gm({ method: 'POST', url: '/api/groups', payload: { name: 'Seminar helpers', permissions: [], members: [gmId] } })
  t.equal(ordinary.statusCode, 201, 'creating an ordinary group is fine')
  const rename = await gm({ method: 'PUT', url: url(ordinary.json()._id), payload: { name: 'awards committee' } })
  t.equal(rename.statusCode, 403, 'and renaming one into a committee (whatever the case) is refused')

  t.equal((await admin({ method: 'PUT', url: url(committee), payload: { members: [gmId] } })).statusCode, 200, 'an admin may')
  t.same((await app.store.collection('groups').findById(committee))?.members, [gmId])
})

t.test('a group a definition\'s stage names, in any version, changes only through an admin; an ordinary one through manage_groups', async (t) => {
  const { admin, gm, gmId } = await setup(t)
  const readers = await gm({ method: 'POST', url: '/api/groups', payload: { name: 'Thesis readers', permissions: [], members: [] } })
  t.equal(readers.statusCode, 201)
  const groupId = readers.json()._id as string
  t.equal((await gm({ method: 'PUT', url: url(groupId), payload: { members: [gmId] } })).statusCode, 200, 'ordinary so far: its manager changes it')

  const stage = (key: string, extra: object) => ({ key, name: key, policy: 'all', due_in_days: 14, ...extra })
  const definition = (stages: object[]) => ({ domain: 'graduate_milestones', name: 'Milestone approval', stages })
  const named = await admin({ method: 'POST', url: '/api/workflows', payload: definition([
    stage('advisor', { approver_role: 'advisor' }),
    stage('readers', { approver_role: 'committee_member', group: groupId }),
    stage('department', { approver_role: 'department_admin', policy: 'any' }),
  ]) })
  t.equal(named.statusCode, 201, `a definition naming the group: ${named.body}`)

  const leave = await gm({ method: 'PUT', url: url(groupId), payload: { members: [] } })
  t.equal(leave.statusCode, 403, 'now a committee: refused')
  t.match(leave.json().error, rule)
  t.equal(leave.json().code, 'ADKS_PERMISSION_DENIED')
  t.match(leave.json().error, /Thesis readers.*Milestone approval/)
  t.equal((await gm({ method: 'DELETE', url: url(groupId) })).statusCode, 403)

  const newer = await admin({ method: 'POST', url: '/api/workflows', payload: definition([
    stage('advisor', { approver_role: 'advisor' }),
    stage('department', { approver_role: 'department_admin', policy: 'any' }),
  ]) })
  t.equal(newer.statusCode, 201, 'a newer version names no group')
  t.equal((await gm({ method: 'PUT', url: url(groupId), payload: { members: [] } })).statusCode, 403,
    'still a committee: instances may still run on the version that names it')

  t.equal((await admin({ method: 'PUT', url: url(groupId), payload: { members: [] } })).statusCode, 200, 'an admin may')
  const other = await gm({ method: 'POST', url: '/api/groups', payload: { name: 'Lab helpers', permissions: [], members: [] } })
  t.equal((await gm({ method: 'PUT', url: url(other.json()._id), payload: { members: [gmId] } })).statusCode, 200, 'an ordinary group stays its manager\'s')
  t.equal((await gm({ method: 'DELETE', url: url(other.json()._id) })).statusCode, 200)
})

t.test('every signed-in user reads groups; API keys and anonymous callers do not', async (t) => {
  const { admin, callers, userIds } = await department(t)
  for (const caller of ['advisor', 'staff', 'student'] as const) await callers[caller]({ method: 'GET', url: '/api/auth/me' })
  const created = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Course editors', description: 'Edit the catalog', permissions: ['write_courses'], members: [userIds.staff] } })
  t.equal(created.statusCode, 201)
  const id = created.json()._id as string
  for (const caller of ['advisor', 'staff', 'student', 'admin'] as const) {
    const list = await callers[caller]({ method: 'GET', url: '/api/groups' })
    t.equal(list.statusCode, 200, `${caller} lists groups`)
    t.same(list.json().items.map((g: { name: string }) => g.name), ['Course editors'])
    const one = await callers[caller]({ method: 'GET', url: url(id) })
    t.equal(one.statusCode, 200, `${caller} reads one`)
    t.match(one.json(), { _id: id, name: 'Course editors', description: 'Edit the catalog', permissions: ['write_courses'], members: [userIds.staff] })
  }
  const byMember = await callers.student({ method: 'GET', url: `/api/groups?member=${encodeURIComponent(userIds.staff!)}` })
  t.equal(byMember.json().total, 1, 'filtered by member')
  t.equal((await callers.student({ method: 'GET', url: url('Group/none') })).statusCode, 404)
  for (const caller of ['advisor', 'staff', 'student'] as const) {
    const write = await callers[caller]({ method: 'PUT', url: url(id), payload: { description: 'x' } })
    t.equal(write.statusCode, 403, `${caller} still cannot write one`)
    t.equal(write.json().error, 'Permission denied: needs manage_groups')
    t.equal(write.json().code, 'ADKS_PERMISSION_DENIED')
  }

  for (const path of ['/api/groups', url(id)]) {
    t.equal((await callers.anonymous({ method: 'GET', url: path })).statusCode, 401, `anonymous ${path}`)
    const keyed = await callers.apiKey({ method: 'GET', url: path })
    t.equal(keyed.statusCode, 403, `an API key ${path}: groups are administration, never open to keys`)
    t.equal(keyed.json().code, 'ADKS_API_KEY_NOT_ALLOWED')
  }
})
