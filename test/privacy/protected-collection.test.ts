import t from 'tap'
import { department, path } from './department.js'

/** The routes that serve enrollments on purpose, each under the access rule and the audit. */
const protectedRoutes = new Set([
  '/api/students/{id}/enrollments', '/api/students/{id}/transcript', '/api/sections/{id}/enrollments', '/api/admin/audit', '/api/admin/audit/verify',
  '/api/students/{id}/degree-progress', '/api/student-progress/{studentId}',
  // Protected records' histories (docs/history.md): the same access rule, every read audited.
  '/api/students/{id}/enrollments/{enrollmentId}/history', '/api/student-plans/{id}/history',
  // One's own Person record: it serves no enrollment, but every read of it is audited (docs/auth.md, "One's own record").
  '/api/auth/me/person',
])

/** One department for the whole file: the tests below run in order and account for what earlier ones did. */
const dept = await department(t)

t.test('no other GET route serves an enrollment, whatever id it is given, even to an admin', async (t) => {
  const { app, admin, ids, auditEntries } = dept
  const una = (await admin({ method: 'GET', url: `/api/students/${path(ids.una)}/enrollments` })).json().items as { _id: string }[]
  const enrollmentIds = una.map((e) => e._id)
  t.equal(enrollmentIds.length, 3)
  const spec = (await app.inject({ method: 'GET', url: '/documentation/json' })).json() as { paths: Record<string, Record<string, unknown>> }
  const gets = Object.keys(spec.paths).filter((p) => spec.paths[p]!.get && !protectedRoutes.has(p))
  t.ok(gets.length > 10, `${gets.length} GET routes to try`)
  t.ok(gets.includes('/api/people/{id}/publications') && gets.includes('/api/schemas/{entityType}'), 'related lists and schemas among them')
  const candidates = [ids.una, ids.cs101, ids.section, ids.enrollment, 'Enrollment']
  const auditedBefore = (await auditEntries()).length
  let requests = 0
  for (const route of gets) {
    const urls = route.includes('{') ? candidates.map((id) => route.replace(/\{[^}]+\}/g, path(id))) : [route]
    for (const url of urls) {
      const res = await admin({ method: 'GET', url })
      requests++
      for (const id of enrollmentIds) t.notOk(res.body.includes(id), `GET ${url} does not name ${id}`)
      t.notMatch(res.body, /"grade":"/, `GET ${url} carries no grade`)
    }
  }
  t.ok(requests > gets.length, `${requests} requests made`)
  t.equal((await auditEntries()).length, auditedBefore, 'none of them is a protected access')
})

t.test('enrollment ids and paths are refused by the generic routes', async (t) => {
  const { admin, ids } = dept
  t.equal((await admin({ method: 'GET', url: `/api/people/${path(ids.enrollment)}` })).statusCode, 400)
  t.equal((await admin({ method: 'GET', url: `/api/courses/${path(ids.enrollment)}` })).statusCode, 400)
  t.equal((await admin({ method: 'GET', url: '/api/enrollments' })).statusCode, 404, 'no list of enrollments')
  t.equal((await admin({ method: 'GET', url: `/api/enrollments/${path(ids.enrollment)}` })).statusCode, 404, 'no generic detail either')
  const listed = (await admin({ method: 'GET', url: '/api/schemas' })).json().items.map((s: { name: string }) => s.name)
  t.ok(listed.includes('Enrollment'), 'the class itself is described in /api/schemas')
})

t.test('a delete refused because enrollments refer to the record does not name them', async (t) => {
  const { admin, ids } = dept
  const course = await admin({ method: 'DELETE', url: `/api/courses/${path(ids.cs101)}` })
  t.equal(course.statusCode, 409)
  t.match(course.json().error, new RegExp(`^${ids.cs101} is still referenced by ${ids.section} and 1 more;`), 'the section is named, the enrollment only counted')
  t.equal(course.json().code, 'ADKS_RECORD_REFERENCED', 'the section is named, the enrollment only counted')
  const student = await admin({ method: 'DELETE', url: `/api/people/${path(ids.una)}` })
  t.equal(student.statusCode, 409)
  t.equal(student.json().error, `${ids.una} is still referenced by 3 protected records; remove those references first`)
  t.equal(student.json().code, 'ADKS_RECORD_REFERENCED')
  t.notMatch(student.body, /Enrollment\//)
})
