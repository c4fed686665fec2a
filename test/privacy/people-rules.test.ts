import t, { type Test } from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'

async function department(t: Test) {
  const setup = await buildTestApp(t)
  const admin = setup.as('admin@dept.edu', 'admin')
  const create = async (body: Record<string, unknown>) => {
    const res = await admin({ method: 'POST', url: '/api/people', payload: body })
    t.equal(res.statusCode, 201, `created ${body.email}`)
    return res.json().id as string
  }
  const advisor = await create({ type: 'Faculty', first_name: 'Fay', last_name: 'Advisor', email: 'fay@dept.edu' })
  const other = await create({ type: 'Faculty', first_name: 'Gus', last_name: 'Other', email: 'gus@dept.edu' })
  const undergrad = await create({ type: 'UndergraduateStudent', first_name: 'Una', last_name: 'Under', email: 'una@dept.edu', advisors: [advisor] })
  const grad = await create({ type: 'GraduateStudent', first_name: 'Gina', last_name: 'Grad', email: 'gina@dept.edu', advisors: [advisor] })
  const staff = await create({ type: 'Staff', first_name: 'Stu', last_name: 'Staff', email: 'stu@dept.edu' })
  return { ...setup, admin, ids: { advisor, other, undergrad, grad, staff } }
}

const url = (id: string) => `/api/people/${encodeURIComponent(id)}`

t.test('who may read one student record', async (t) => {
  const { as, admin, ids } = await department(t)
  const callers = {
    admin,
    advisor: as('fay@dept.edu', 'faculty'),
    other: as('gus@dept.edu', 'faculty'),
    undergrad: as('una@dept.edu', 'student'),
    grad: as('gina@dept.edu', 'student'),
    staff: as('stu@dept.edu', 'staff'),
  }
  const expected: Record<string, Record<keyof typeof callers, number>> = {
    undergrad: { admin: 200, advisor: 404, other: 404, undergrad: 404, grad: 404, staff: 404 },
    grad: { admin: 200, advisor: 200, other: 404, undergrad: 404, grad: 200, staff: 404 },
    advisor: { admin: 200, advisor: 200, other: 200, undergrad: 200, grad: 200, staff: 200 },
  }
  for (const [record, row] of Object.entries(expected)) {
    for (const [caller, status] of Object.entries(row)) {
      const res = await callers[caller as keyof typeof callers]({ method: 'GET', url: url(ids[record as keyof typeof ids]) })
      t.equal(res.statusCode, status, `${caller} reading the ${record} record`)
      if (status === 404) t.notMatch(res.body, /Una|Gina/, 'a hidden record leaks nothing')
    }
  }
  const related = await callers.other({ method: 'GET', url: `${url(ids.undergrad)}/publications` })
  t.equal(related.statusCode, 404, 'related lists of a hidden record are hidden too')
})

t.test('lists leave student records out for everyone but admins', async (t) => {
  const { as, admin } = await department(t)
  const names = async (inject: typeof admin, query: string) =>
    (await inject({ method: 'GET', url: `/api/people?${query}` })).json().items.map((p: { first_name: string }) => p.first_name).sort()
  t.same(await names(admin, ''), ['Fay', 'Gina', 'Gus', 'Stu', 'Una'])
  const faculty = as('fay@dept.edu', 'faculty')
  t.same(await names(faculty, ''), ['Fay', 'Gus', 'Stu'], 'even an advisor does not list students')
  t.same(await names(as('gina@dept.edu', 'student'), ''), ['Fay', 'Gus', 'Stu'], 'nor does the student')
  t.same(await names(faculty, 'type=GraduateStudent'), [], 'a type filter does not bring them back')
  t.same(await names(faculty, 'type=Student'), [])
  t.same(await names(faculty, 'search=gina'), [])
  t.equal((await faculty({ method: 'GET', url: '/api/people?search=gina' })).json().total, 0, 'the total does not count them either')
})

t.test('a non-admin edits only the self-editable fields of their own profile', async (t) => {
  const { as, admin, ids } = await department(t)
  const fay = as('fay@dept.edu', 'faculty')
  const una = as('una@dept.edu', 'student')
  const put = (inject: typeof fay, id: string, payload: object) => inject({ method: 'PUT', url: url(id), payload })

  const own = await put(fay, ids.advisor, { bio: 'Studies graphs', research_interests: ['graphs'] })
  t.equal(own.statusCode, 200)
  t.equal(own.json().bio, 'Studies graphs')
  t.equal((await put(una, ids.undergrad, { bio: 'Sophomore' })).statusCode, 200, 'an undergraduate edits their own profile too')

  const refusals: [typeof fay, string, object, number, RegExp][] = [
    [fay, ids.advisor, { first_name: 'Faye' }, 403, /'first_name'/],
    [fay, ids.advisor, { email: 'x@dept.edu' }, 403, /'email'/],
    [fay, ids.advisor, { campus_id: 'root' }, 403, /'campus_id'/],
    [fay, ids.advisor, { type: 'Faculty', bio: 'x' }, 403, /'type'/],
    [fay, ids.advisor, { _id: ids.advisor, bio: 'x' }, 403, /'_id'/],
    [fay, ids.advisor, { title: 'Dean' }, 403, /'title'/],
    [fay, ids.advisor, { role: 'admin' }, 400, /'role'/],
    [fay, ids.other, { bio: 'not mine' }, 403, /own profile/],
    [una, ids.undergrad, { advisors: [ids.other] }, 403, /'advisors'/],
    [una, ids.undergrad, { class_year: 2030 }, 403, /'class_year'/],
    [fay, ids.advisor, { bio: 'stale', _version: 1 }, 409, /version/],
  ]
  const codes: Record<number, string> = { 400: 'ADKS_VALIDATION_FAILED', 403: 'ADKS_PERMISSION_DENIED', 409: 'ADKS_VERSION_CONFLICT' }
  for (const [inject, id, payload, status, message] of refusals) {
    const res = await put(inject, id, payload)
    t.equal(res.statusCode, status, JSON.stringify(payload))
    t.match(res.json().error, message)
    t.equal(res.json().code, codes[status], `${JSON.stringify(payload)}: code`)
  }
  const after = (await admin({ method: 'GET', url: url(ids.advisor) })).json()
  t.equal(after.first_name, 'Fay')
  t.equal(after.email, 'fay@dept.edu')
  t.equal(after.bio, 'Studies graphs', 'refused updates changed nothing')
  t.equal(after.title, undefined)
  t.same((await admin({ method: 'GET', url: url(ids.undergrad) })).json().advisors, [ids.advisor])
  t.equal((await admin({ method: 'GET', url: url(ids.other) })).json().bio, undefined)
})

t.test('manage_profiles edits anyone\'s profile fields, still not identity fields; write_people edits all', async (t) => {
  const { as, admin, ids } = await department(t)
  const stu = as('stu@dept.edu', 'staff')
  t.equal((await stu({ method: 'PUT', url: url(ids.other), payload: { bio: 'too early' } })).statusCode, 403, 'not before joining the group')
  const group = await admin({
    method: 'POST', url: '/api/groups',
    payload: { name: 'Web editors', permissions: ['manage_profiles'], members: [userIdForEmail('stu@dept.edu')] },
  })
  t.equal(group.statusCode, 201)
  t.equal((await stu({ method: 'PUT', url: url(ids.other), payload: { bio: 'Edited by the web team' } })).statusCode, 200)
  const identity = await stu({ method: 'PUT', url: url(ids.other), payload: { last_name: 'Renamed' } })
  t.equal(identity.statusCode, 403)
  t.equal((await admin({ method: 'PUT', url: url(ids.other), payload: { last_name: 'Renamed', title: 'Professor' } })).statusCode, 200)
  t.equal((await admin({ method: 'GET', url: url(ids.other) })).json().last_name, 'Renamed')
})
