import t from 'tap'
import { callerKinds, department, path, type CallerKind } from '../privacy/department.js'
import { refused } from '../helpers/refusals.js'
import { inlined } from '../helpers/openapi.js'

/** One department for the whole file: the tests below run in order. */
const dept = await department(t)
const { admin, callers, ids, app, auditEntries } = dept
const allowed: CallerKind[] = ['student', 'advisor', 'admin']
const statusFor = (caller: CallerKind, ok: number) => caller === 'anonymous' ? 401 : allowed.includes(caller) ? ok : 403
const plansOf = (student: string) => app.store.collection('student_plans').find({ student }, { sort: [['_id', 1]] })

const created = async (payload: object) => {
  const res = await admin({ method: 'POST', url: '/api/student-plans', payload })
  if (res.statusCode !== 201) throw new Error(`plan: ${res.statusCode} ${res.body}`)
  return res.json()
}
const put = async (url: string, payload: object) => {
  const res = await admin({ method: 'PUT', url, payload })
  if (res.statusCode !== 200) throw new Error(`PUT ${url}: ${res.statusCode} ${res.body}`)
  return res.json()
}
const newCourse = async (course_code: string, credits: number, prerequisites: string[] = []) =>
  (await admin({ method: 'POST', url: '/api/courses', payload: { course_code, title: course_code, credits, prerequisites } })).json()._id as string

// CS 201 needs CS 101 (Una passed it); CS 310 needs CS 201 (Una is taking it in 26S) and MATH 150 (passed).
await put(`/api/courses/${path(ids.cs201)}`, { prerequisites: [ids.cs101] })
const cs310 = await newCourse('CS 310', 4, [ids.cs201, ids.math150])
const cs410 = await newCourse('CS 410', 10, [cs310])
const cs420 = await newCourse('CS 420', 9)
const body = (extra: object = {}) => ({ student: ids.una, plan_name: 'Main plan', target_degree: ids.degree, planned_courses: [{ course: cs310, term: '26F', status: 'planned' }], ...extra })

t.test('each kind of caller: create, list, change and delete a plan of Una\'s; nothing is audited', async (t) => {
  const auditedBefore = (await auditEntries()).length
  for (const caller of callerKinds) {
    const label = (what: string) => `${what} as ${caller}`
    const post = await callers[caller]({ method: 'POST', url: '/api/student-plans', payload: body({ plan_name: `By ${caller}` }) })
    t.equal(post.statusCode, statusFor(caller, 201), label('create'), { body: post.body })
    if (post.statusCode === 201) {
      t.match(post.json(), { _id: /^StudentPlan\//, type: 'StudentPlan', student: ids.una, plan_name: `By ${caller}`, _version: 1, warnings: [] })
      t.equal(post.headers.location, `/api/student-plans/${path(post.json()._id)}`)
    } else {
      t.notMatch(post.body, /StudentPlan\//, label('a refused create names no plan'))
    }
    const list = await callers[caller]({ method: 'GET', url: `/api/student-plans/${path(ids.una)}` })
    t.equal(list.statusCode, statusFor(caller, 200), label('list'))
    if (list.statusCode === 200) t.ok(list.json().items.every((p: { student: string }) => p.student === ids.una), label('only Una\'s plans'))
    else t.notMatch(list.body, /Main plan|By /, label('a refused list shows no plan'))

    const target = await created(body({ plan_name: 'Target' }))
    const change = await callers[caller]({ method: 'PUT', url: `/api/student-plans/${path(target._id)}`, payload: { plan_name: 'Changed' } })
    t.equal(change.statusCode, statusFor(caller, 200), label('change'))
    const removal = await callers[caller]({ method: 'DELETE', url: `/api/student-plans/${path(target._id)}` })
    t.equal(removal.statusCode, statusFor(caller, 200), label('delete'))
    const stored = await app.store.collection('student_plans').findById(target._id)
    if (allowed.includes(caller)) t.equal(stored, null, label('deleted'))
    else t.match(stored, { plan_name: 'Target', _version: 1 }, label('a refused change or delete writes nothing'))
  }
  t.equal((await auditEntries()).length, auditedBefore, 'plans are not audited')
  const names = (await plansOf(ids.una)).map((p) => p.plan_name).filter((n) => String(n).startsWith('By ')).sort()
  t.same(names, ['By admin', 'By advisor', 'By student'], 'only the allowed creates were stored')
})

t.test('a plan cannot be moved to another student, nor made for one', async (t) => {
  const plan = await created(body({ plan_name: 'Mine' }))
  for (const caller of ['student', 'admin'] as const) {
    const moved = await callers[caller]({ method: 'PUT', url: `/api/student-plans/${path(plan._id)}`, payload: { student: ids.otto, plan_name: 'Stolen' } })
    refused(t, moved, 400, /'student' cannot change/, `moving as ${caller}`)
  }
  const same = await callers.student({ method: 'PUT', url: `/api/student-plans/${path(plan._id)}`, payload: { student: ids.una, plan_name: 'Still mine' } })
  t.equal(same.statusCode, 200, 'naming the same student is fine')
  t.match(await app.store.collection('student_plans').findById(plan._id), { student: ids.una, plan_name: 'Still mine', _version: 2 })
  refused(t, await callers.student({ method: 'POST', url: '/api/student-plans', payload: body({ student: ids.otto }) }), 403, /^Permission denied/, 'Una making a plan for Otto')
  refused(t, await callers.otherStudent({ method: 'PUT', url: `/api/student-plans/${path(plan._id)}`, payload: { student: ids.otto } }), 403, /^Permission denied/, 'Otto taking Una\'s plan')
  t.same((await plansOf(ids.otto)), [], 'Otto has no plans')
})

t.test('warnings: prerequisites, a course planned twice, a term over the load', async (t) => {
  const plan = await created(body({
    planned_courses: [
      { course: cs310, term: '26S' }, // CS 201 is only in progress in 26S itself
      { course: ids.cs201, term: '26S' }, // CS 101 passed: fine
      { course: cs410, term: '27S' }, // CS 310 planned earlier: fine
      { course: cs420, term: '27S' }, // 10 + 9 credits in 27S
      { course: cs310, term: '26F' },
    ],
  }))
  t.same(plan.warnings, [
    { kind: 'prerequisite', course: cs310, term: '26S', message: 'CS 310 is planned for 26S before its prerequisite CS 201: it is neither passed nor planned for an earlier term.' },
    { kind: 'duplicate', course: cs310, term: '26F', message: 'CS 310 is planned more than once (26S, 26F).' },
    { kind: 'credit_load', term: '27S', credits: 19, message: '27S plans 19 credits, above the load of 18 credits a term.' },
  ])
  const listed = (await callers.advisor({ method: 'GET', url: `/api/student-plans/${path(ids.una)}` })).json().items.find((p: { _id: string }) => p._id === plan._id)
  t.same(listed.warnings, plan.warnings, 'the list carries the same warnings')

  const fixed = await callers.student({ method: 'PUT', url: `/api/student-plans/${path(plan._id)}`, payload: { planned_courses: [{ course: cs310, term: '26F' }, { course: cs410, term: '27S' }] } })
  t.equal(fixed.statusCode, 200)
  t.same(fixed.json().warnings, [], 'a corrected plan has none')
  t.same(fixed.json().planned_courses, [{ course: cs310, term: '26F' }, { course: cs410, term: '27S' }], 'planned_courses is replaced whole')

  const gia = (await admin({ method: 'POST', url: '/api/people', payload: { type: 'GraduateStudent', first_name: 'Gia', last_name: 'G', email: 'gia@dept.edu', advisors: [ids.fay] } })).json().id
  const heavy = { planned_courses: [{ course: cs420, term: '26F' }, { course: cs310, term: '26F' }] }
  const loads = (plan: { warnings: { kind: string }[] }) => plan.warnings.filter((w) => w.kind === 'credit_load')
  t.same(loads(await created(body(heavy))), [], '13 credits is within an undergraduate load')
  t.match(loads(await created(body({ ...heavy, student: gia }))), [{ kind: 'credit_load', term: '26F', credits: 13, message: /above the load of 12 credits/ }], 'and above a graduate one')
})

t.test('bad input is refused naming the problem, and nothing is written', async (t) => {
  const before = await app.store.collection('student_plans').find({}, { sort: [['_id', 1]] })
  const plan = before.find((p) => p.student === ids.una)!
  const bad: [string, object, RegExp][] = [
    ['an unknown course', body({ planned_courses: [{ course: 'Course/NOPE-999', term: '26F' }] }), /Course\/NOPE-999/],
    ['an empty term', body({ planned_courses: [{ course: cs310, term: '' }] }), /term/],
    ['a malformed term', body({ planned_courses: [{ course: cs310, term: 'Fall 2026' }] }), /term/],
    ['a planned course without a term', body({ planned_courses: [{ course: cs310 }] }), /term/],
    ['an unknown status', body({ planned_courses: [{ course: cs310, term: '26F', status: 'dreaming' }] }), /status/],
    ['a faculty member as the student', body({ student: ids.fay }), /student/],
    ['a student that does not exist', body({ student: 'UndergraduateStudent/nobody' }), /UndergraduateStudent\/nobody/],
    ['an operator object as the student', body({ student: { $ne: null } }), /student/],
    ['an operator object as a course', body({ planned_courses: [{ course: { $ne: null }, term: '26F' }] }), /course/],
    ['a malformed id', body({ target_degree: 'no-slash' }), /target_degree/],
    ['an unknown degree', body({ target_degree: 'Degree/nope' }), /Degree\/nope/],
    ['an unknown field', body({ owner: ids.otto }), /owner/],
    ['planned_courses not a list', body({ planned_courses: 'CS 310' }), /planned_courses/],
    ['a missing plan name', { student: ids.una, target_degree: ids.degree, planned_courses: [] }, /plan_name/],
  ]
  for (const [label, payload, mention] of bad) refused(t, await admin({ method: 'POST', url: '/api/student-plans', payload }), 400, mention, `create: ${label}`)
  const update: [string, object, RegExp][] = [
    ['an unknown course', { planned_courses: [{ course: 'Course/NOPE-999', term: '26F' }] }, /Course\/NOPE-999/],
    ['a malformed term', { planned_courses: [{ course: cs310, term: '26X' }] }, /term/],
    ['an operator object', { plan_name: { $set: 'x' } }, /plan_name/],
    ['an unknown field', { warnings: [] }, /warnings/],
  ]
  for (const [label, payload, mention] of update) {
    refused(t, await callers.student({ method: 'PUT', url: `/api/student-plans/${path(plan._id)}`, payload }), 400, mention, `update: ${label}`)
  }
  refused(t, await admin({ method: 'PUT', url: `/api/student-plans/${path(ids.cs101)}`, payload: {} }), 400, /id/, 'a course id in place of a plan')
  refused(t, await admin({ method: 'GET', url: `/api/student-plans/${path(ids.fay)}` }), 400, /id/, 'a faculty id in place of a student')
  refused(t, await admin({ method: 'GET', url: `/api/student-plans/${path(ids.una)}?student=x` }), 400, /student/, 'an unknown query field')
  refused(t, await admin({ method: 'DELETE', url: '/api/student-plans/StudentPlan%2Fnope' }), 404, /StudentPlan\/nope not found/, 'a plan that does not exist')
  refused(t, await admin({ method: 'GET', url: '/api/student-plans/UndergraduateStudent%2Fnobody' }), 404, /not found/, 'a student that does not exist, as admin')
  t.same(await app.store.collection('student_plans').find({}, { sort: [['_id', 1]] }), before, 'nothing was written')
})

t.test('versions, the two id forms, and delete', async (t) => {
  const plan = await created(body({ plan_name: 'Versioned' }))
  const stale = await callers.student({ method: 'PUT', url: `/api/student-plans/${path(plan._id)}`, headers: { 'if-match': '"7"' }, payload: { plan_name: 'x' } })
  t.equal(stale.statusCode, 409)
  const fresh = await callers.student({ method: 'PUT', url: `/api/student-plans/${plan._id}`, headers: { 'if-match': '"1"' }, payload: { plan_name: 'Renamed' } })
  t.equal(fresh.statusCode, 200, 'the id as two path segments')
  t.equal(fresh.headers.etag, '"2"')
  t.equal((await callers.student({ method: 'GET', url: `/api/student-plans/${ids.una}` })).statusCode, 200)
  const gone = await callers.advisor({ method: 'DELETE', url: `/api/student-plans/${plan._id}` })
  t.same(gone.json(), { id: plan._id, message: `${plan._id} deleted` })
  t.equal((await callers.advisor({ method: 'DELETE', url: `/api/student-plans/${path(plan._id)}` })).statusCode, 404, 'deleting again')
  t.notOk((await callers.student({ method: 'GET', url: `/api/student-plans/${path(ids.una)}` })).json().items.some((p: { _id: string }) => p._id === plan._id))
})

t.test('the OpenAPI document lists the plan routes, tagged', async (t) => {
  const doc = inlined((await app.inject({ method: 'GET', url: '/documentation/json' })).json())
  t.same(doc.paths['/api/student-plans'].post.tags, ['Student planning'])
  for (const method of ['get', 'put', 'delete']) t.same(doc.paths['/api/student-plans/{id}'][method].tags, ['Student planning'], method)
  t.ok(doc.paths['/api/student-plans'].post.responses['201'].content['application/json'].schema.properties.warnings)
})
