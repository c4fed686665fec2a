import t from 'tap'
import { department, path, type CallerKind } from './department.js'

/** One department for the whole file: the tests below run in order and account for what earlier ones did. */
const dept = await department(t)

t.test('an admin records, changes and deletes an enrollment; each write is audited with its action', async (t) => {
  const { admin, ids, auditEntries } = dept
  const last = async () => (await auditEntries()).at(-1)!

  const created = await admin({ method: 'POST', url: '/api/enrollments', payload: { student: ids.otto, course: ids.cs101, section: ids.section, term: '25F', status: 'completed', grade: 'B-' } })
  t.equal(created.statusCode, 201)
  const enrollment = created.json()
  t.match(enrollment, { student: ids.otto, grade: 'B-', grade_points: 2.7, _version: 1 }, 'grade points filled in from the scale')
  t.equal(created.headers.location, `/api/enrollments/${path(enrollment._id)}`)
  t.match(await last(), { action: 'create', resourceType: 'enrollment', resourceId: enrollment._id, success: true, statusCode: 201, basis: null })

  const url = `/api/enrollments/${path(enrollment._id)}`
  const changed = await admin({ method: 'PUT', url, payload: { grade: 'P' }, headers: { 'if-match': '"1"' } })
  t.equal(changed.statusCode, 200)
  t.equal(changed.json().grade_points, undefined, 'a P carries no grade points')
  t.equal(changed.headers.etag, '"2"')
  t.match(await last(), { action: 'update', resourceId: enrollment._id, success: true })
  const stale = await admin({ method: 'PUT', url, payload: { grade: 'A' }, headers: { 'if-match': '"1"' } })
  t.equal(stale.statusCode, 409)
  t.match(await last(), { action: 'update', resourceId: enrollment._id, success: false, statusCode: 409, reason: /version/ })
  t.equal((await admin({ method: 'PUT', url, payload: { grade: 'A' } })).json().grade_points, 4)
  t.equal((await admin({ method: 'PUT', url, payload: { grade: null, status: 'enrolled' } })).json().grade_points, undefined, 'no grade, no points')

  const otto = async () => (await admin({ method: 'GET', url: `/api/students/${path(ids.otto)}/enrollments` })).json().total
  t.equal(await otto(), 1)
  const deleted = await admin({ method: 'DELETE', url })
  t.same(deleted.json(), { id: enrollment._id, message: `${enrollment._id} deleted` })
  t.match(await last(), { action: 'delete', resourceId: enrollment._id, success: true })
  t.equal(await otto(), 0)
  t.equal((await admin({ method: 'DELETE', url })).statusCode, 404)
  t.match(await last(), { action: 'delete', resourceId: enrollment._id, success: false, statusCode: 404 })
})

t.test('bad enrollment writes are refused with a message naming the problem, and audited', async (t) => {
  const { admin, ids, auditEntries } = dept
  const base = { student: ids.otto, course: ids.math150, term: '25F', status: 'completed' }
  const refusals: [string, 'POST' | 'PUT', string, object, number, RegExp][] = [
    ['points that disagree with the grade', 'POST', '/api/enrollments', { ...base, grade: 'A', grade_points: 3 }, 400, /'grade_points' disagrees with the grade scale/],
    ['points on a pass', 'POST', '/api/enrollments', { ...base, grade: 'P', grade_points: 4 }, 400, /'grade_points' must be left out/],
    ['a grade off the scale', 'POST', '/api/enrollments', { ...base, grade: 'Z+' }, 400, /'grade' must match the pattern/],
    ['an unknown status', 'POST', '/api/enrollments', { ...base, status: 'audited' }, 400, /'status' must be one of: enrolled, completed, dropped, withdrawn/],
    ['a section of another course', 'POST', '/api/enrollments', { ...base, section: ids.section }, 400, /'section' is a section of Course\/CS-101 in 25F/],
    ['a faculty member as the section', 'POST', '/api/enrollments', { ...base, section: ids.fay }, 400, /'section' must be the id of a Section/],
    ['a faculty member as the student', 'POST', '/api/enrollments', { ...base, student: ids.fay }, 400, /'student' must be the id of a Student/],
    ['a student that does not exist', 'POST', '/api/enrollments', { ...base, student: 'UndergraduateStudent/nobody' }, 400, /'student' refers to UndergraduateStudent\/nobody, which does not exist/],
    ['an unknown field', 'POST', '/api/enrollments', { ...base, notes: 'x' }, 400, /unknown field 'notes'/],
    ['the same course twice in a term', 'POST', '/api/enrollments', { ...base, student: ids.una }, 409, /already exists/],
    ['a change of student', 'PUT', `/api/enrollments/${path(ids.enrollment)}`, { student: ids.otto }, 400, /'student' is part of the record's id/],
    ['a faculty id as the enrollment', 'PUT', `/api/enrollments/${path(ids.fay)}`, { grade: 'A' }, 400, /'id' must be the id of an Enrollment/],
    ['an enrollment that does not exist', 'PUT', '/api/enrollments/Enrollment%2Fnone', { grade: 'A' }, 404, /Enrollment\/none not found/],
  ]
  const codes: Record<number, string> = { 400: 'ADKS_VALIDATION_FAILED', 404: 'ADKS_RECORD_NOT_FOUND', 409: 'ADKS_DUPLICATE_RECORD' }
  for (const [label, method, url, payload, status, message] of refusals) {
    const before = (await auditEntries()).length
    const res = await admin({ method, url, payload })
    t.equal(res.statusCode, status, label)
    t.match(res.json().error, message, label)
    t.equal(res.json().code, label === 'a student that does not exist' ? 'ADKS_REFERENCE_NOT_FOUND' : codes[status], `${label}: code`)
    const added = (await auditEntries()).slice(before)
    t.equal(added.length, 1, `${label}: audited once`)
    t.match(added[0], { action: method === 'POST' ? 'create' : 'update', success: false, statusCode: status }, label)
    t.notOk(JSON.stringify(added[0]).includes('Z+'), `${label}: the audit entry carries no submitted grade`)
  }
})

t.test('only admins write enrollments: not faculty, staff, students, groups or API keys', async (t) => {
  const { callers, admin, ids, auditEntries, userIds } = dept
  await callers.staff({ method: 'GET', url: '/api/auth/me' })
  const group = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Registrar', permissions: ['write_people', 'write_courses', 'manage_jobs'], members: [userIds.staff] } })
  t.equal(group.statusCode, 201, 'staff hold every catalog write permission through a group')
  const payload = { student: ids.otto, course: ids.cs101, term: '25F', status: 'completed', grade: 'A' }
  const expected: [CallerKind, number][] = [['advisor', 403], ['instructor', 403], ['staff', 403], ['student', 403], ['apiKey', 403], ['anonymous', 401]]
  for (const [caller, status] of expected) {
    const before = (await auditEntries()).length
    const res = await callers[caller]({ method: 'POST', url: '/api/enrollments', payload })
    t.equal(res.statusCode, status, caller)
    t.match((await auditEntries()).slice(before), [{ action: 'create', success: false, statusCode: status }], `${caller}: audited`)
    const change = await callers[caller]({ method: 'PUT', url: `/api/enrollments/${path(ids.enrollment)}`, payload: { grade: 'F' } })
    t.equal(change.statusCode, status, `${caller} changing a grade`)
  }
  const una = (await admin({ method: 'GET', url: `/api/students/${path(ids.una)}/enrollments` })).json()
  t.equal(una.items.find((e: { _id: string }) => e._id === ids.enrollment).grade, 'A-', 'no grade was changed')
  t.equal((await admin({ method: 'GET', url: `/api/students/${path(ids.otto)}/enrollments` })).json().total, 0, 'nothing was recorded')
})

t.test('the transcript follows the writes: term and cumulative figures, a retake replacing a failure', async (t) => {
  const { admin, callers, ids } = dept
  const transcript = async () => (await callers.student({ method: 'GET', url: `/api/students/${path(ids.una)}/transcript` })).json()
  const first = await transcript()
  t.same(first.student, { _id: ids.una, type: 'UndergraduateStudent', first_name: 'Una', last_name: 'Under' })
  t.same(first.terms.map((term: { term: string }) => term.term), ['25F', '26S'])
  t.match(first.terms[0], { credits: 7, credits_earned: 7, gpa: 3.53 }, '(3.7×4 + 3.3×3) / 7 = 3.528…')
  t.match(first.terms[1], { credits: 0, gpa: null, courses: [{ course_code: 'CS 201', grade: null, status: 'enrolled' }] })
  t.same(first.cumulative, { credits_attempted: 7, credits_earned: 7, gpa: 3.53 })

  const failed = await admin({ method: 'POST', url: '/api/enrollments', payload: { student: ids.una, course: ids.cs201, term: '25F', status: 'completed', grade: 'F' } })
  t.equal(failed.statusCode, 201)
  t.same((await transcript()).cumulative, { credits_attempted: 10, credits_earned: 7, gpa: 2.47 }, 'an F: (14.8 + 9.9 + 0) / 10')
  const spring = (await admin({ method: 'GET', url: `/api/students/${path(ids.una)}/enrollments` })).json().items.find((e: { term: string }) => e.term === '26S')
  t.equal((await admin({ method: 'PUT', url: `/api/enrollments/${path(spring._id)}`, payload: { status: 'completed', grade: 'B' } })).statusCode, 200)
  const after = await transcript()
  t.equal(after.terms[0].courses.find((c: { course_code: string }) => c.course_code === 'CS 201').repeated, true, 'the failed attempt is replaced')
  t.same(after.cumulative, { credits_attempted: 10, credits_earned: 10, gpa: 3.37 }, '(14.8 + 9.9 + 3.0×3) / 10')
})
