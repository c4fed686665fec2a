import t from 'tap'
import type { AuditEntry } from '../../src/privacy/audit-entry.js'
import { auditCollection } from '../../src/privacy/audit-log.js'
import { buildTestApp } from '../helpers/app.js'
import { refused } from '../helpers/refusals.js'
import { inlined } from '../helpers/openapi.js'

const { app, as } = await buildTestApp(t)
const admin = as('admin@dept.edu', 'admin')
const post = async (url: string, payload: object) => {
  const res = await admin({ method: 'POST', url, payload })
  if (res.statusCode !== 201) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`)
  return (res.json()._id ?? res.json().id) as string
}
const enc = encodeURIComponent
const course = (code: string, credits = 3) => post('/api/courses', { course_code: code, title: code, credits })
const [cs310, cs320, cs330, cs340, cs101] = [await course('CS 310'), await course('CS 320'), await course('CS 330'), await course('CS 340'), await course('CS 101', 4)]

// The worked example of docs/degree-audit.md: first-fit satisfies two of the three rules.
const cs = await post('/api/degrees', { name: 'Computer Science', degree_type: 'BS' })
const rule = (body: object) => post('/api/requirement-rules', body)
const electives = await rule({ name: 'Two electives', rule_type: 'n_of', count: 2, courses: [cs310, cs320, cs330, cs340] })
const theory = await rule({ name: 'Theory', rule_type: 'n_of', count: 1, courses: [cs310, cs320] })
const systems = await rule({ name: 'Systems', rule_type: 'n_of', count: 1, courses: [cs330, cs340] })
const upper = await post('/api/requirement-groups', { name: 'Upper level', degree: cs, order: 1, rules: [electives, theory, systems] })

const minor = await post('/api/degrees', { name: 'Programming', degree_type: 'Minor' })
const intro = await rule({ name: 'Intro', rule_type: 'all_of', courses: [cs101] })
const credits = await rule({ name: 'Six credits', rule_type: 'credits', min_credits: 6, course_pattern: { subject: 'CS', min_level: 300 } })
const minorGroup = await post('/api/requirement-groups', { name: 'Minor', degree: minor, order: 1, rules: [intro, credits] })

const advisor = await post('/api/people', { type: 'Faculty', first_name: 'Fay', last_name: 'Advisor', email: 'fay@dept.edu' })
const student = (first: string, extra: object = {}) => post('/api/people', { type: 'UndergraduateStudent', first_name: first, last_name: 'S', email: `${first.toLowerCase()}@dept.edu`, advisors: [advisor], ...extra })
const ada = await student('Ada', { declared_majors: [cs, minor] })
const ned = await student('Ned')
for (const c of [cs310, cs320, cs330, cs340]) await post('/api/enrollments', { student: ada, course: c, term: '25F', status: 'completed', grade: 'A' })
const adaPlan = await post('/api/student-plans', { student: ada, plan_name: 'Main', target_degree: minor, planned_courses: [{ course: cs101, term: '26S' }] })
const nedPlan = await post('/api/student-plans', { student: ned, plan_name: 'Ned', target_degree: minor, planned_courses: [] })

const phd = await post('/api/degrees', { name: 'Computer Science', degree_type: 'PhD' })
const research = await rule({ name: 'Research', rule_type: 'all_of', courses: [cs101] })
await post('/api/requirement-groups', { name: 'Research', degree: phd, rules: [research] })
const program = await post('/api/academic-programs', { name: 'PhD in Computer Science', degree: phd })
const grad = await post('/api/people', { type: 'GraduateStudent', first_name: 'Gia', last_name: 'G', email: 'gia@dept.edu', program })
const unplaced = await post('/api/people', { type: 'GraduateStudent', first_name: 'Hal', last_name: 'G', email: 'hal@dept.edu' })

const audit = app.store.collection<AuditEntry & { _id: string }>(auditCollection)
/** A request, and the audit entries it added. */
async function audited(caller: ReturnType<typeof as>, url: string) {
  const before = await audit.count({})
  const res = await caller({ method: 'GET', url })
  const added = (await audit.find({}, { sort: [['_id', 1]] })).slice(before)
  return { res, added }
}

t.test('a first-fit trap through the endpoint comes out fully satisfied, shaped as docs/degree-audit.md shows', async (t) => {
  const { res, added } = await audited(as('ada@dept.edu', 'student'), `/api/students/${enc(ada)}/degree-progress`)
  t.equal(res.statusCode, 200)
  const body = res.json()
  t.same(Object.keys(body).sort(), ['degree', 'degree_source', 'explanation', 'groups', 'overall_progress', 'rules_satisfied', 'rules_total', 'student'])
  t.match(body, { student: { _id: ada, first_name: 'Ada' }, degree: { _id: cs, name: 'Computer Science', degree_type: 'BS' }, degree_source: 'declared_major' }, 'the first declared major')
  t.equal(body.overall_progress, 1, 'overall progress 1')
  t.same([body.rules_satisfied, body.rules_total], [3, 3], 'every rule satisfied, where first-fit meets two')
  t.equal(body.explanation.method, 'optimal')
  const [group] = body.groups
  t.same(Object.keys(group).sort(), ['_id', 'name', 'progress', 'rules', 'satisfied_rules'])
  t.match(group, { _id: upper, name: 'Upper level', progress: 1 })
  t.same(group.satisfied_rules.map((r: { _id: string }) => r._id), [electives, theory, systems])
  t.same(Object.keys(group.satisfied_rules[0]).sort(), ['_id', 'courses', 'name'])
  t.same(Object.keys(group.rules[0]).sort(), ['_id', 'courses', 'name', 'progress', 'remaining', 'rule_type', 'satisfied'])
  const placed = group.rules.flatMap((r: { courses: { course: string; extra: boolean }[] }) => r.courses.filter((c) => !c.extra).map((c) => c.course))
  t.same(placed.sort(), [cs310, cs320, cs330, cs340].sort(), 'each course counts once')
  t.equal(added.length, 1, 'one audit entry')
  t.match(added[0], { resourceType: 'degree-progress', resourceId: ada, action: 'view', success: true, basis: 'self', route: '/api/students/:id/degree-progress' })

  const same = await audited(as('fay@dept.edu', 'faculty'), `/api/student-progress/${enc(ada)}`)
  t.same(same.res.json(), body, '/api/student-progress answers the same')
  t.equal(same.added.length, 1)
  t.match(same.added[0], { resourceType: 'degree-progress', resourceId: ada, success: true, basis: 'advisor', route: '/api/student-progress/:studentId' })
  t.equal((await admin({ method: 'GET', url: `/api/student-progress/${ada}` })).statusCode, 200, 'the id as two path segments')
})

t.test('what-if: degree= audits another degree', async (t) => {
  const { res, added } = await audited(admin, `/api/students/${enc(ada)}/degree-progress?degree=${enc(minor)}`)
  t.equal(res.statusCode, 200)
  const body = res.json()
  t.match(body, { degree: { _id: minor, degree_type: 'Minor' }, degree_source: 'requested', rules_satisfied: 1, rules_total: 2 })
  t.same(body.groups.map((g: { _id: string }) => g._id), [minorGroup])
  const [introRule, creditRule] = body.groups[0].rules
  t.match(introRule, { _id: intro, satisfied: false, progress: 0, remaining: { count: 1, courses: [cs101], text: /CS 101/ } })
  t.match(creditRule, { _id: credits, satisfied: true, progress: 1, remaining: null })
  t.equal(body.overall_progress, 0.5)
  t.equal(added.length, 1)
})

t.test('plan= adds the projection with the plan\'s courses counted as passed', async (t) => {
  const { res, added } = await audited(as('ada@dept.edu', 'student'), `/api/student-progress/${enc(ada)}?degree=${enc(minor)}&plan=${enc(adaPlan)}`)
  t.equal(res.statusCode, 200)
  const body = res.json()
  t.equal(body.overall_progress, 0.5, 'the real progress is unchanged')
  t.equal(body.projected_progress, 1, 'the projected progress beside it')
  t.match(body.projection, { plan: { _id: adaPlan, plan_name: 'Main' }, overall_progress: 1, rules_satisfied: 2, rules_total: 2 })
  t.match(body.projection.groups[0].rules[0].courses, [{ enrollment: `${adaPlan}#0`, course: cs101, term: '26S' }], 'the planned course, named by its place in the plan')
  t.equal(added.length, 1)

  const without = (await admin({ method: 'GET', url: `/api/student-progress/${enc(ada)}` })).json()
  t.notOk('projected_progress' in without || 'projection' in without, 'no projection without plan=')
})

t.test('a graduate student is audited against their program\'s degree', async (t) => {
  const res = await admin({ method: 'GET', url: `/api/students/${enc(grad)}/degree-progress` })
  t.equal(res.statusCode, 200)
  t.match(res.json(), { degree: { _id: phd, degree_type: 'PhD' }, degree_source: 'program', overall_progress: 0 })
  t.equal((await as('gia@dept.edu', 'student')({ method: 'GET', url: `/api/student-progress/${enc(grad)}` })).statusCode, 200, 'and may see it')
})

t.test('no degree to audit, bad queries and other students\' plans are refused, each audited once', async (t) => {
  const cases: [string, ReturnType<typeof as>, string, number, RegExp, string][] = [
    ['an undergraduate with no major', admin, `/api/students/${enc(ned)}/degree-progress`, 404, /has no degree to audit \(no declared major\); name one with degree=/, ned],
    ['a graduate student with no program', admin, `/api/student-progress/${enc(unplaced)}`, 404, /no program leading to a degree/, unplaced],
    ['an unknown query field', admin, `/api/student-progress/${enc(ada)}?student=${enc(ned)}`, 400, /student/, ada],
    ['a degree that does not exist', admin, `/api/student-progress/${enc(ada)}?degree=Degree%2Fnope`, 400, /'degree' refers to Degree\/nope, which does not exist/, ada],
    ['a course id as degree', admin, `/api/student-progress/${enc(ada)}?degree=${enc(cs101)}`, 400, /degree/, ada],
    ['an operator in the query', admin, `/api/student-progress/${enc(ada)}?degree[$ne]=x`, 400, /degree|must/, ada],
    ['another student\'s plan', admin, `/api/student-progress/${enc(ada)}?plan=${enc(nedPlan)}`, 404, /is not a plan of/, ada],
    ['a plan that does not exist', as('ada@dept.edu', 'student'), `/api/student-progress/${enc(ada)}?plan=StudentPlan%2Fnope`, 404, /is not a plan of/, ada],
    ['a plan id of the wrong class', admin, `/api/student-progress/${enc(ada)}?plan=${enc(minor)}`, 400, /plan/, ada],
    ['a faculty id as the student', admin, `/api/student-progress/${enc(advisor)}`, 400, /studentId/, advisor],
    ['another student asking, with a what-if', as('ned@dept.edu', 'student'), `/api/students/${enc(ada)}/degree-progress?degree=${enc(minor)}`, 403, /^Permission denied/, ada],
  ]
  for (const [label, caller, url, status, mention, resourceId] of cases) {
    const { res, added } = await audited(caller, url)
    refused(t, res, status, mention, label)
    t.equal(added.length, 1, `${label}: one audit entry`)
    t.match(added[0], { resourceType: 'degree-progress', resourceId, success: false, statusCode: status }, label)
  }
  const whatIf = await admin({ method: 'GET', url: `/api/students/${enc(ned)}/degree-progress?degree=${enc(cs)}` })
  t.equal(whatIf.statusCode, 200, 'a student without a major may still be audited against a named degree')
  t.match(whatIf.json(), { degree_source: 'requested', overall_progress: 0 })
})

t.test('the OpenAPI document lists both endpoints with the progress schema', async (t) => {
  const doc = inlined((await app.inject({ method: 'GET', url: '/documentation/json' })).json())
  for (const path of ['/api/students/{id}/degree-progress', '/api/student-progress/{studentId}']) {
    const op = doc.paths[path].get
    t.same(op.tags, ['Student records'], path)
    const schema = op.responses['200'].content['application/json'].schema
    t.match(schema.properties, { overall_progress: {}, groups: { items: { properties: { satisfied_rules: {}, rules: {} } } }, projected_progress: {} }, path)
    t.same(op.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name).sort(), ['degree', 'plan'])
  }
})
