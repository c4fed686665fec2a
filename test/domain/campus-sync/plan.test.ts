import { readFile } from 'node:fs/promises'
import t from 'tap'
import { mapCourses, mapSections } from '../../../src/domain/campus-sync/map-catalog.js'
import { mapEnrollments, mapPeople, teachersByClass } from '../../../src/domain/campus-sync/map-people.js'
import { planSync, type PlanOptions } from '../../../src/domain/campus-sync/plan.js'
import { mapTerms } from '../../../src/domain/campus-sync/terms.js'
import type { CurrentRecord } from '../../../src/domain/campus-sync/types.js'
import { applyPlan, course, enrollment, klass, session, user } from './rows.js'

const system = 'oneroster'

/** Every field some class of schema/people.json lets a person edit. */
async function selfEditable(): Promise<Set<string>> {
  const classes = JSON.parse(await readFile(new URL('../../../schema/people.json', import.meta.url), 'utf8')) as { '@metadata'?: { self_editable?: string[] } }[]
  return new Set(classes.flatMap((c) => c['@metadata']?.self_editable ?? []))
}

async function options(extra: Partial<PlanOptions> = {}): Promise<PlanOptions> {
  return { system, mode: 'bulk', deletePolicy: 'deactivate', maxDeactivatePercent: 10, selfEditable: await selfEditable(), ...extra }
}

const terms = mapTerms([session(1, { sourcedId: 't1', type: 'term', title: 'Fall 2025', startDate: '2025-08-25', endDate: '2025-12-15' })]).terms
const courseRows = [
  course(1, { sourcedId: 'c1', title: 'Data Structures', courseCode: 'CS 201' }),
  course(2, { sourcedId: 'c2', title: 'Intro', courseCode: 'CS101' }),
]
const userRows = [
  user(1, 'p1', 'teacher'), user(2, 'p2', 'aide'), user(3, 'p3', 'student', { grades: ['GR'] }), user(4, 'p4', 'student', { grades: ['13'] }),
  user(5, 'p5', 'administrator'), user(6, 'p6', 'parent'),
]
const classRows = [klass(1, { sourcedId: 'k1', course: { sourcedId: 'c1' }, classCode: 'CS201-01', terms: [{ sourcedId: 't1' }], location: 'Hall 2' })]
const enrollmentRows = [
  enrollment(1, { sourcedId: 'e1', user: { sourcedId: 'p1' }, class: { sourcedId: 'k1' }, role: 'teacher', status: 'active' }),
  enrollment(2, { sourcedId: 'e2', user: { sourcedId: 'p4' }, class: { sourcedId: 'k1' }, role: 'student', status: 'active' }),
]

t.test('a first run creates every kind; the same rows again change nothing', async (t) => {
  const opts = await options()
  const courses = planSync('course', [], mapCourses(courseRows, system), opts)
  t.same(courses.create.map((r) => r.values), [{ course_code: 'CS 201', title: 'Data Structures' }, { course_code: 'CS101', title: 'Intro' }])
  const people = planSync('person', [], mapPeople(userRows, system), opts)
  t.same(people.create.map((r) => [r.source.sourced_id, r.values['@type']]), [['p1', 'Faculty'], ['p2', 'Staff'], ['p3', 'GraduateStudent'], ['p4', 'UndergraduateStudent'], ['p5', 'Staff']])
  t.same(people.skipped, [{ row: 6, sourced_id: 'p6', reason: 'role parent is not a department member' }])
  t.same(people.create[0]!.values, { '@type': 'Faculty', first_name: 'Gp1', last_name: 'Fp1', email: 'p1@example.edu', campus_id: 'net-p1' })
  const faculty = new Set(people.create.filter((r) => r.values['@type'] === 'Faculty').map((r) => r.source.sourced_id))
  const sectionInput = () => mapSections(classRows, system, { knownCourses: new Set(['c1', 'c2']), terms, instructors: teachersByClass(enrollmentRows, faculty) })
  const sections = planSync('section', [], sectionInput(), opts)
  t.same(sections.create.map((r) => [r.values, r.refs]), [[{ term: '25F', section_number: '01', location: 'Hall 2' }, { course: { kind: 'course', sourced_id: 'c1' }, instructors: [{ kind: 'person', sourced_id: 'p1' }] }]])
  const students = new Set(people.create.filter((r) => String(r.values['@type']).endsWith('Student')).map((r) => r.source.sourced_id))
  const enrollInput = () => mapEnrollments(enrollmentRows, system, { classes: new Map([['k1', { course: 'c1', term: '25F' }]]), students })
  const enrollments = planSync('enrollment', [], enrollInput(), opts)
  t.same(enrollments.create.map((r) => [r.values, r.refs.student, r.refs.section]), [[{ term: '25F', status: 'enrolled' }, { kind: 'person', sourced_id: 'p4' }, { kind: 'section', sourced_id: 'k1' }]])
  t.same(enrollments.skipped.map((s) => s.sourced_id), ['e1'], "the teacher's enrollment is not a student record")

  for (const [kind, first, input] of [
    ['course', courses, () => mapCourses(courseRows, system)],
    ['person', people, () => mapPeople(userRows, system)],
    ['section', sections, sectionInput],
    ['enrollment', enrollments, enrollInput],
  ] as const) {
    const again = planSync(kind, applyPlan([], first, kind), input(), opts)
    t.same([again.create.length, again.update.length, again.deactivate.length, again.unchanged], [0, 0, 0, first.create.length], `${kind}: second run unchanged`)
  }
})

t.test('a delta run updates the changed, creates the new, deactivates tobedeleted and leaves the absent alone', async (t) => {
  const opts = await options({ mode: 'delta', maxDeactivatePercent: 50 })
  const current = applyPlan([], planSync('course', [], mapCourses([...courseRows, course(3, { sourcedId: 'c3', title: 'Networks', courseCode: 'CS 330' })], system), opts), 'course')
  const delta = mapCourses([
    course(1, { sourcedId: 'c1', title: 'Data Structures and Algorithms', courseCode: 'CS 201', status: 'active' }),
    course(2, { sourcedId: 'c9', title: 'Compilers', courseCode: 'CS 440', status: 'active' }),
    course(3, { sourcedId: 'c2', status: 'tobedeleted', title: 'Intro', courseCode: 'CS101' }),
    course(4, { sourcedId: 'c77', status: 'tobedeleted', title: 'Ghost', courseCode: 'CS 777' }),
  ], system)
  const plan = planSync('course', current, delta, opts)
  t.same(plan.update.map((u) => [u._id, u.set]), [['course-c1', { title: 'Data Structures and Algorithms' }]])
  t.same(plan.create.map((r) => r.source.sourced_id), ['c9'])
  t.same(plan.deactivate.map((d) => d._id), ['course-c2'])
  t.same(plan.skipped, [{ row: 4, sourced_id: 'c77', reason: 'tobedeleted and not on record' }])
  t.equal(plan.unchanged, 0, 'c3, absent from the delta, is not touched')
  t.equal(plan.refusal, undefined)

  const reactivated = planSync('course', applyPlan(current, plan, 'course'), mapCourses([courseRows[1]!], system), opts)
  t.same(reactivated.update.map((u) => u.set), [{ active: true }], 'a deactivated record that comes back is reactivated')
})

t.test('bulk deactivates synced records absent from the feed; keep leaves them; hand-entered ones are never touched', async (t) => {
  const handEntered: CurrentRecord = { _id: 'course-hand', values: { course_code: 'CS 999', title: 'Seminar' }, refs: {} }
  const current = [...applyPlan([], planSync('course', [], mapCourses(courseRows, system), await options()), 'course'), handEntered]
  const input = mapCourses([courseRows[0]!], system)
  const bulk = planSync('course', current, input, await options({ maxDeactivatePercent: 50 }))
  t.same(bulk.deactivate.map((d) => d._id), ['course-c2'])
  const keep = planSync('course', current, input, await options({ deletePolicy: 'keep', maxDeactivatePercent: 50 }))
  t.same(keep.deactivate, [])
  const tobedeleted = planSync('course', current, mapCourses([course(1, { sourcedId: 'c1', status: 'tobedeleted', title: 'x', courseCode: 'CS 201' })], system), await options({ mode: 'delta', deletePolicy: 'keep' }))
  t.same([tobedeleted.deactivate, tobedeleted.unchanged], [[], 1], 'keep leaves a tobedeleted record as it is')
})

t.test('bad rows are reported with row and sourcedId and skipped; the good rows still apply', async (t) => {
  const opts = await options({ maxDeactivatePercent: 100 })
  const courses = mapCourses([
    courseRows[0]!, course(2, { sourcedId: 'c2', title: 'No code' }), course(3, { sourcedId: 'c1', title: 'Again', courseCode: 'CS 202' }),
    course(4, { title: 'No id', courseCode: 'CS 203' }), course(5, { sourcedId: 'c5', title: 'Odd', courseCode: 'Robotics!' }),
  ], system)
  t.same(courses.errors, [
    { row: 2, sourced_id: 'c2', message: 'courseCode is missing' },
    { row: 3, sourced_id: 'c1', message: 'duplicate sourcedId, first seen on row 1' },
    { row: 4, sourced_id: '', message: 'sourcedId is missing' },
    { row: 5, sourced_id: 'c5', message: 'courseCode "Robotics!" is not subject letters and a number, like CS 101' },
  ])
  const current = applyPlan([], planSync('course', [], mapCourses(courseRows, system), opts), 'course')
  const plan = planSync('course', current, courses, opts)
  t.same([plan.create.length, plan.update.length, plan.unchanged, plan.errors.length], [0, 0, 1, 4])
  t.same(plan.deactivate, [], 'c2 has a bad row this time, which does not make it absent')

  const sections = mapSections([
    klass(1, { sourcedId: 'k1', course: { sourcedId: 'nope' }, classCode: '01', terms: [{ sourcedId: 't1' }] }),
    klass(2, { sourcedId: 'k2', course: { sourcedId: 'c1' }, classCode: '01', terms: [{ sourcedId: 'spring' }] }),
  ], system, { knownCourses: new Set(['c1']), terms })
  t.same(sections.errors.map((e) => e.message), ['unknown course nope', 'none of its terms (spring) is a known term'])

  const people = mapPeople([
    user(1, 'p1', 'teacher', { identifier: undefined }), user(2, 'p2', 'admin'), user(3, 'p3', 'student', { identifier: '<script>' }),
    user(4, 'p4', 'teacher', { identifier: undefined, userMasterIdentifier: 'master-4' }), user(5, 'p5', 'student', { roles: [] }),
  ], system)
  t.same(people.errors, [
    { row: 2, sourced_id: 'p2', message: 'unknown role "admin"' },
    { row: 5, sourced_id: 'p5', message: 'user has no role' },
  ])
  t.same(people.records.map((r) => [r.source.sourced_id, r.values.campus_id, r.source.identifier]), [['p1', undefined, undefined], ['p3', undefined, '<script>'], ['p4', 'master-4', undefined]],
    'a person without a campus id lands; an identifier that is none is kept on the source')
})

t.test('more deactivations than max_deactivate_percent of a kind refuse the run', async (t) => {
  const four = [...courseRows, course(3, { sourcedId: 'c3', title: 'C', courseCode: 'CS 300' }), course(4, { sourcedId: 'c4', title: 'D', courseCode: 'CS 400' })]
  const current = applyPlan([], planSync('course', [], mapCourses(four, system), await options()), 'course')
  const half = planSync('course', current, mapCourses(four.slice(0, 2), system), await options({ maxDeactivatePercent: 50 }))
  t.equal(half.refusal, undefined, 'exactly 50% is allowed at 50')
  t.equal(half.deactivate.length, 2)
  const most = planSync('course', current, mapCourses(four.slice(0, 1), system), await options({ maxDeactivatePercent: 50 }))
  t.same(most.refusal, {
    kind: 'course', would_deactivate: 3, active: 4, max_percent: 50,
    message: 'Refused: the sync would deactivate 3 of 4 active course records synced from oneroster (75%), more than the 50% allowed; nothing was written',
  })
  t.same(applyPlan(current, most, 'course'), current, 'a refused plan writes nothing')
  const byDefault = planSync('course', current, mapCourses(four.slice(0, 3), system), await options())
  t.equal(byDefault.refusal?.would_deactivate, 1, 'one of four is over the default 10%')
})

t.test('the guard counts only what the feed owns; hand-entered and other sources\' records are neither deactivated nor counted', async (t) => {
  const students = Array.from({ length: 10 }, (_, i) => user(i + 1, `s${i}`, 'student'))
  const owned = applyPlan([], planSync('person', [], mapPeople(students, system), await options()), 'person')
  const byHand: CurrentRecord[] = Array.from({ length: 90 }, (_, i) => ({ _id: `hand-${i}`, values: { '@type': 'Faculty', campus_id: `hand-${i}` }, refs: {} }))
  const other: CurrentRecord = { _id: 'banner-1', source: { system: 'banner', sourced_id: 'b1' }, values: { '@type': 'Staff', campus_id: 'net-b1' }, refs: {} }
  const current = [...owned, ...byHand, other]
  const ending = (ids: string[]) => mapPeople([...students.filter((u) => !ids.includes(u.sourcedId)), ...students.filter((u) => ids.includes(u.sourcedId)).map((u) => ({ ...u, status: 'tobedeleted' as const }))], system)

  const two = planSync('person', current, ending(['s0', 's1']), await options())
  t.match(two.refusal, { would_deactivate: 2, active: 10 }, '2 of the 10 synced students is 20%, whatever else is on record')
  t.match(two.refusal?.message, /2 of 10 active person records synced from oneroster \(20%\)/)
  const one = planSync('person', current, ending(['s0']), await options())
  t.equal(one.refusal, undefined, '1 of 10 is within 10%')
  t.same(one.deactivate.map((d) => d._id), ['person-s0'])

  const byKey = mapPeople([user(1, 'x1', 'teacher', { identifier: 'hand-3', status: 'tobedeleted' }), user(2, 'x2', 'aide', { identifier: 'net-b1', status: 'tobedeleted' })], system)
  const foreign = planSync('person', current, byKey, await options({ mode: 'delta', maxDeactivatePercent: 100 }))
  t.same(foreign.deactivate, [], 'a tobedeleted row matching a hand-entered or other-source record by campus id ends neither')
  t.same(foreign.skipped.map((s) => [s.sourced_id, s.reason]), [
    ['x1', 'tobedeleted, and the record on file was not synced from oneroster'],
    ['x2', 'tobedeleted, and the record on file was not synced from oneroster'],
  ])
  const bulk = planSync('person', current, mapPeople(students, system), await options({ maxDeactivatePercent: 100 }))
  t.same(bulk.deactivate, [], 'a bulk feed without them leaves them too')
})

t.test('people match by sourcedId, then campus_id, never by email alone; self-edited fields are kept', async (t) => {
  const opts = await options()
  t.ok(opts.selfEditable.has('phone') && opts.selfEditable.has('bio'), 'schema/people.json lists phone and bio as self-editable')
  const current: CurrentRecord[] = [
    { _id: 'a', values: { '@type': 'Faculty', first_name: 'Gp1', last_name: 'Fp1', campus_id: 'NET-P1', phone: '555-0100' }, refs: {} },
    { _id: 'b', values: { '@type': 'Staff', first_name: 'Other', last_name: 'Person', email: 'p2@example.edu', campus_id: 'someone-else' }, refs: {} },
  ]
  const plan = planSync('person', current, mapPeople([user(1, 'p1', 'teacher', { phone: '555-9999' }), user(2, 'p2', 'aide'), user(3, 'p3', 'student', { phone: '555-3333' })], system), opts)
  t.same(plan.update, [{ _id: 'a', row: 1, source: { system, sourced_id: 'p1' }, set: { email: 'p1@example.edu', campus_id: 'net-p1', source: { system, sourced_id: 'p1' } }, refs: {} }],
    'matched by campus_id without case; the phone the person set is kept')
  t.same(plan.create.map((r) => r.source.sourced_id), ['p2', 'p3'], 'the same email alone does not match')
  t.equal(plan.create[1]!.values.phone, '555-3333', 'a new record takes the feed phone')

  const twice = planSync('person', current, mapPeople([user(1, 'p1', 'teacher'), user(2, 'p9', 'teacher', { identifier: 'net-p1' })], system), opts)
  t.same(twice.errors, [{ row: 2, sourced_id: 'p9', message: 'matches the same record as p1 (row 1)' }])
})

t.test('terms take their code from a title like 25F or from the middle of their dates', async (t) => {
  const { terms: mapped, errors } = mapTerms([
    session(1, { sourcedId: 'a', type: 'term', title: 'Spring 2026', startDate: '2026-01-12', endDate: '2026-05-08' }),
    session(2, { sourcedId: 'b', type: 'semester', title: 'Summer', startDate: '2026-06-01', endDate: '2026-08-10' }),
    session(3, { sourcedId: 'c', type: 'term', title: '27W' }),
    session(4, { sourcedId: 'd', type: 'term', title: 'J-term', startDate: '2027-01-04', endDate: '2027-01-29' }),
    session(5, { sourcedId: 'y', type: 'schoolYear', title: '2025-26', startDate: '2025-08-01', endDate: '2026-07-31' }),
    session(6, { sourcedId: 'e', type: 'term', title: 'Someday' }),
  ])
  t.same(mapped.map((term) => [term.sourced_id, term.code]), [['a', '26S'], ['b', '26U'], ['c', '27W']])
  t.same(errors, [
    { row: 4, sourced_id: 'd', message: 'term "J-term" comes out as 27W, the code of "27W" (row 3); not offered' },
    { row: 6, sourced_id: 'e', message: 'term "Someday" has no title like 25F and no start and end dates to name it by' },
  ], 'two sessions never share a code')
})
