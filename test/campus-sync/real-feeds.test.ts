/**
 * Packages written the way real exporters write them: CRLF line ends, a UTF-8 byte-order mark, quoted
 * multi-value cells, empty optional columns, columns in their own order with `ext_` columns, OneRoster
 * 1.1 (a `role` column) and 1.2 (`roles.csv`, `userProfiles.csv`), and academic sessions with a parent.
 * Fast enough to run on both store adapters (scripts/ferretdb.sh).
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import type { Filter } from '../../src/store/port.js'
import type { CampusSyncConfig } from '../../src/campus-sync/config.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import { admin } from '../routes/campus-sync/support.js'
import { kindCounts, sync, syncDeps } from './support.js'
import { testActor } from '../helpers/actor.js'

type Table = readonly (readonly string[])[]

/** RFC 4180 as spreadsheets write it: a cell with a comma, quote or line break is quoted. */
function csv(rows: Table): string {
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)
  return `\uFEFF${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`
}

async function writePackage(dir: string, files: Record<string, Table>): Promise<void> {
  for (const [name, rows] of Object.entries(files)) await writeFile(join(dir, name), csv(rows))
}

const manifest = (version: '1.1' | '1.2', extra: Table = []): Table => [
  ['propertyName', 'value'], ['manifest.version', '1.0'], ['oneroster.version', version],
  ['file.academicSessions', 'bulk'], ['file.courses', 'bulk'], ['file.classes', 'bulk'], ['file.users', 'bulk'], ['file.enrollments', 'bulk'],
  ['file.orgs', 'absent'], ['file.demographics', 'absent'], ...extra,
]

// A registrar's 1.1 export: the school year is exported as a `term` with the semesters under it, a retired
// semester is `inactive`, a summer term is on its way out, and an online fall session overlaps the fall.
const sessions11: Table = [
  ['sourcedId', 'status', 'dateLastModified', 'title', 'type', 'startDate', 'endDate', 'parentSourcedId', 'schoolYear'],
  ['Y2526', 'active', '', '2025-2026', 'term', '2025-08-01', '2026-07-31', '', '2026'],
  ['FA25', 'active', '', 'Fall 2025', 'semester', '2025-08-25', '2025-12-15', 'Y2526', '2026'],
  ['SP26', 'active', '', 'Spring 2026', 'semester', '2026-01-12', '2026-05-08', 'Y2526', '2026'],
  ['FA24', 'inactive', '', 'Fall 2024', 'semester', '2024-08-26', '2024-12-14', '', '2025'],
  ['SU25', 'tobedeleted', '', 'Summer 2025', 'term', '2025-06-02', '2025-08-08', '', '2025'],
  ['FA25-ONL', 'active', '', 'Fall 2025 Online', 'term', '2025-09-02', '2025-12-01', '', '2026'],
  ['FA25-Q1', 'active', '', 'Q1', 'gradingPeriod', '2025-08-25', '2025-10-15', 'FA25', '2026'],
]
// Columns in the exporter's order, with an ext_ column; the course code spaced as the registrar likes.
const courses11: Table = [
  ['title', 'courseCode', 'sourcedId', 'status', 'dateLastModified', 'schoolYearSourcedId', 'orgSourcedId', 'grades', 'subjects', 'ext_credits'],
  ['Introduction to Programming', 'CS101', 'C-101', '', '', 'Y2526', 'dept', '', 'Computer Science, General', '3'],
  ['Data Structures', 'cs  201', 'C-201', '', '', 'Y2526', 'dept', '', '', '4'],
]
const classes11: Table = [
  ['sourcedId', 'status', 'dateLastModified', 'title', 'grades', 'courseSourcedId', 'classCode', 'classType', 'location', 'schoolSourcedId', 'termSourcedIds', 'subjects', 'subjectCodes', 'periods'],
  ['K1', '', '', 'CS101 Lecture', '', 'C-101', 'CS101-01', 'scheduled', 'Hall 1, Room 2', 'dept', 'FA25', '', '', ''],
  ['K2', '', '', 'CS101 Year-long', '', 'C-101', 'CS101-02', 'scheduled', '', 'dept', 'SP26,FA25', '', '', '1,2'],
  ['K3', '', '', 'Old CS201', '', 'C-201', '01', 'scheduled', '', 'dept', 'FA24', '', '', ''],
  ['K4', '', '', 'Summer CS201', '', 'C-201', '02', 'scheduled', '', 'dept', 'SU25', '', '', ''],
  ['K5', 'tobedeleted', '2025-09-01', 'Gone CS201', '', 'C-201', '03', 'scheduled', '', 'dept', 'FA25', '', '', ''],
]
const users11: Table = [
  ['sourcedId', 'status', 'dateLastModified', 'enabledUser', 'orgSourcedIds', 'role', 'username', 'userIds', 'givenName', 'familyName', 'middleName', 'identifier', 'email', 'sms', 'phone', 'grades', 'password', 'ext_pronouns'],
  ['U1', '', '', 'true', 'dept', 'teacher', 'ada', '', 'Ada', 'Byron', '', 'abyron', 'ada@dept.example.edu', '', '', '', '', 'she/her'],
  ['U2', '', '', 'true', 'dept', 'student', 'ben', '', 'Ben', 'Okafor', '', '', 'ben@dept.example.edu', '', '', '13,UG', '', ''],
  ['U3', '', '', 'true', 'dept', 'parent', 'pat', '', 'Pat', 'Okafor', '', '', 'pat@home.example.com', '', '', '', '', ''],
]
const enrollments11: Table = [
  ['sourcedId', 'status', 'dateLastModified', 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role', 'primary', 'beginDate', 'endDate'],
  ['E1', '', '', 'K1', 'dept', 'U1', 'teacher', 'true', '', ''],
  ['E2', '', '', 'K1', 'dept', 'U2', 'student', 'false', '', ''],
  ['E3', '', '', 'K3', 'dept', 'U2', 'student', 'false', '', ''],
]

const package11 = { 'manifest.csv': manifest('1.1'), 'academicSessions.csv': sessions11, 'courses.csv': courses11, 'classes.csv': classes11, 'users.csv': users11, 'enrollments.csv': enrollments11 }

// A 1.2 export: roles in roles.csv, profiles in userProfiles.csv (which this service does not read),
// identifiers as the SIS keeps them: absent, a student number with spaces, a NetID in userMasterIdentifier.
const users12 = (rows: Table = []): Table => [
  ['sourcedId', 'status', 'dateLastModified', 'enabledUser', 'username', 'userIds', 'givenName', 'familyName', 'middleName', 'preferredFirstName', 'identifier', 'email', 'sms', 'phone', 'agentSourcedIds', 'grades', 'password', 'userMasterIdentifier', 'primaryOrgSourcedId', 'ext_campus'],
  ['P1', 'active', '2025-09-01T10:00:00Z', 'true', 'grace', '"{LDAP:grace}"', 'Grace', 'Hopper', '', '', '', 'grace@dept.example.edu', '', '', '', '', '', '', 'dept', 'main'],
  ['P2', 'active', '2025-09-01T10:00:00Z', 'true', 'alan', '', 'Alan', 'Turing', '', '', '12 345 678', 'alan@dept.example.edu', '', '', '', 'GR', '', '', 'dept', ''],
  ['P3', 'active', '2025-09-01T10:00:00Z', 'true', 'kat', '', 'Katherine', 'Johnson', '', 'Kat', 'S-0042', 'kat@dept.example.edu', '', '555-0100', '', '', '', 'kjohnson', 'dept', ''],
  ...rows,
]
const roles12 = (rows: Table = []): Table => [
  ['sourcedId', 'status', 'dateLastModified', 'userSourcedId', 'roleType', 'role', 'beginDate', 'endDate', 'orgSourcedId', 'userProfileSourcedId'],
  ['R1', 'active', '', 'P1', 'primary', 'teacher', '', '', 'dept', 'UP1'],
  ['R2', 'active', '', 'P2', 'primary', 'student', '', '', 'dept', ''],
  ['R3', 'active', '', 'P3', 'primary', 'aide', '', '', 'dept', ''],
  ['R3b', 'active', '', 'P3', 'secondary', 'teacher', '', '', 'dept', ''],
  ...rows,
]
const package12 = (users: Table = users12(), roles: Table = roles12()) => ({
  'manifest.csv': manifest('1.2', [['file.roles', 'bulk'], ['file.userProfiles', 'bulk']]),
  'academicSessions.csv': sessions11,
  'courses.csv': [courses11[0]!],
  'classes.csv': [classes11[0]!],
  'users.csv': users,
  'roles.csv': roles,
  'userProfiles.csv': [
    ['sourcedId', 'status', 'dateLastModified', 'userSourcedId', 'profileType', 'vendorId', 'applicationId', 'description', 'credentialType', 'username', 'password'],
    ['UP1', 'active', '', 'P1', 'lms', 'acme', '', 'LMS login, "primary"', 'password', 'grace', ''],
  ],
  'enrollments.csv': [enrollments11[0]!, ['E9', 'active', '', 'K1', 'dept', 'P1', 'teacher', 'true', '2025-08-25', '']],
})

async function setUp(t: Test, files: Record<string, Table>) {
  const dir = await tempDir(t)
  await writePackage(dir, files)
  const test = await buildTestApp(t)
  const config: CampusSyncConfig = { source: { type: 'oneroster-csv', path: dir }, terms: [], deletePolicy: 'deactivate', maxDeactivatePercent: 100 }
  return { dir, test, deps: syncDeps(test, config), rewrite: (changed: Record<string, Table>) => writePackage(dir, changed) }
}

const find = (test: TestApp, className: string, filter: Filter) => test.app.records.find(test.app.schema.class(className)!, filter)

t.test('1. a class whose course code is spaced otherwise finds its catalog course; the catalog keeps its spelling; an admin corrects a code, the id stays', async (t) => {
  const { test, deps, rewrite } = await setUp(t, package11)
  const catalog = await test.app.records.create('Course', { course_code: 'CS 101', title: 'Introduction to Programming' }, { actor: testActor })
  const courses = await sync(deps, { kind: 'courses' })
  t.same(courses.by_kind.course, kindCounts(2, { created: 1, updated: 1 }), 'CS101 is the catalog course CS 101 (adopted), cs  201 is new')
  t.same(courses.errors, [])
  const adopted = (await test.app.records.get(catalog._id))!
  t.same([adopted.course_code, adopted.source], ['CS 101', { system: 'oneroster', sourced_id: 'C-101' }], 'the catalog keeps its own spelling')
  t.same((await find(test, 'Course', { 'source.sourced_id': 'C-201' })).map((c) => c.course_code), ['cs 201'], 'inner spacing collapsed to what the schema allows')

  const sections = await sync(deps, { kind: 'sections' })
  t.same(sections.by_kind.section, kindCounts(5, { created: 2, skipped: 1, errors: 2 }))
  t.same(sections.errors.filter((e) => e.sourced_id.startsWith('K')).map((e) => [e.sourced_id, e.message]), [
    ['K3', 'none of its terms (FA24) is a known term'],
    ['K4', 'none of its terms (SU25) is a known term'],
  ], 'no section of CS101 is reported as an unknown course')
  const onCourse = await find(test, 'Section', { course: catalog._id })
  t.same(onCourse.map((s) => [s.section_number, s.term, s.location]).sort(), [['01', '25F', 'Hall 1, Room 2'], ['02', '26S', undefined]])
  const again = await sync(deps, { kind: 'courses' })
  t.same(again.by_kind.course, kindCounts(2, { unchanged: 2 }), 'a second run finds nothing to change')

  // An admin corrects the catalog code: the id stays, the sections still point at the course.
  const ops = test.as(admin, 'admin')
  const url = `/api/courses/${encodeURIComponent(catalog._id)}`
  const twin = await ops({ method: 'POST', url: '/api/courses', payload: { course_code: 'cs101', title: 'A second CS 101' } })
  t.equal(twin.statusCode, 409, 'one course per code, however it is spelled')
  t.match(twin.json().error, /another Course already has this course_code in another spelling \(CS 101, Course\/CS-101\)/)
  t.equal(twin.json().code, 'ADKS_DUPLICATE_RECORD')
  t.equal((await ops({ method: 'PUT', url, payload: { course_code: 'CS 201' } })).statusCode, 409, 'a correction cannot take another course\'s code (cs 201)')
  const corrected = await ops({ method: 'PUT', url, payload: { course_code: 'CS 110' } })
  t.equal(corrected.statusCode, 200, corrected.body)
  t.same([corrected.json()._id, corrected.json().course_code], [catalog._id, 'CS 110'])
  t.equal((await ops({ method: 'GET', url: `${url}/sections` })).json().total, 2, 'references follow: they name the id, which stayed')
  t.equal((await ops({ method: 'GET', url: '/api/courses?search=cs110' })).json().items[0]?._id, catalog._id, 'found by its new code')
  const editor = 'editor@dept.example.edu'
  const asEditor = test.as(editor, 'staff')
  t.equal((await asEditor({ method: 'GET', url: '/api/auth/me' })).statusCode, 200, 'the editor has signed in')
  t.equal((await ops({ method: 'POST', url: '/api/groups', payload: { name: 'Catalog editors', permissions: ['write_courses'], members: [userIdForEmail(editor)] } })).statusCode, 201)
  const byEditor = await asEditor({ method: 'PUT', url, payload: { course_code: 'CS 111' } })
  t.equal(byEditor.statusCode, 403, 'only an admin corrects a code')
  t.match(byEditor.json().error, /'course_code' is part of the record's id; only an admin may correct it/)
  t.equal(byEditor.json().code, 'ADKS_PERMISSION_DENIED')
  t.equal((await ops({ method: 'PUT', url: `/api/sections/${encodeURIComponent(onCourse[0]!._id)}`, payload: { term: '26S' } })).statusCode, 400, 'other id fields still cannot change')

  // The feed codes a course otherwise: the catalog keeps its code (the admin's to correct), and the run says so.
  await rewrite({ 'courses.csv': courses11.map((row) => (row[2] === 'C-201' ? ['Data Structures', 'CS 202', ...row.slice(2)] : row)) })
  const recoded = await sync(deps, { kind: 'courses' })
  t.same(recoded.by_kind.course, kindCounts(2, { unchanged: 2 }))
  t.same(recoded.warnings.map((w) => [w.sourced_id, w.message]), [
    ['C-101', "the feed's course_code CS101 differs from the record's CS 110; the record keeps its own (an admin corrects it)"],
    ['C-201', "the feed's course_code CS 202 differs from the record's cs 201; the record keeps its own (an admin corrects it)"],
  ])
  t.same((await find(test, 'Course', {})).map((c) => c.course_code).sort(), ['CS 110', 'cs 201'])
})

t.test('2. people land without a campus id: an identifier that is none is kept on the source; a NetID that arrives later is set; sign-in links by email', async (t) => {
  const { test, deps, rewrite } = await setUp(t, package12())
  const people = await sync(deps, { kind: 'people' })
  t.same(people.errors, [])
  t.same(people.by_kind.person, kindCounts(3, { created: 3 }), 'nobody refused for lack of a campus id')
  const byName = async (last: string) => (await find(test, 'Person', { last_name: last }))[0]!
  const grace = await byName('Hopper')
  t.same([grace.type, grace.campus_id, grace.source], ['Faculty', undefined, { system: 'oneroster', sourced_id: 'P1' }], 'no identifier: no campus id')
  const alan = await byName('Turing')
  t.same([alan.type, alan.campus_id, alan.source], ['GraduateStudent', undefined, { system: 'oneroster', sourced_id: 'P2', identifier: '12 345 678' }], 'a student number with spaces is kept as the source identifier')
  const kat = await byName('Johnson')
  t.same([kat.type, kat.campus_id, kat.phone], ['Staff', 'S-0042', '555-0100'], 'the NetID-shaped identifier is the campus id; the primary role decides the class')

  // Grace signs in: her record has no campus id, so she is linked by email and edits her own profile.
  const asGrace = test.as('grace@dept.example.edu', 'faculty')
  const own = await asGrace({ method: 'PUT', url: `/api/people/${encodeURIComponent(grace._id)}`, payload: { bio: 'Compilers.' } })
  t.equal(own.statusCode, 200, own.body)

  // The feed later gives Alan a NetID: it becomes his campus id, and he stays one person.
  await rewrite({ 'users.csv': users12().map((row) => (row[0] === 'P2' ? row.map((cell, i) => (i === 17 ? 'aturing' : cell)) : row)) })
  const later = await sync(deps, { kind: 'people' })
  t.same(later.by_kind.person, kindCounts(3, { updated: 1, unchanged: 2 }))
  const after = (await test.app.records.get(alan._id))!
  t.same([after.campus_id, after.source], ['aturing', { system: 'oneroster', sourced_id: 'P2', identifier: '12 345 678' }])
  t.equal((await find(test, 'Person', {})).length, 3)
  t.equal((await test.app.records.get(grace._id))!.bio, 'Compilers.', 'the sync leaves her own edit alone')
})

t.test('4. an email another record holds is a warning: the person lands without it, and a later run that brings a free one sets it', async (t) => {
  const shared = users12([
    ['P4', 'active', '2025-09-01T10:00:00Z', 'true', 'ann', '', 'Ann', 'Hopper', '', '', 'ahopper', 'GRACE@dept.example.edu', '', '', '', '', '', '', 'dept', ''],
  ])
  const { test, deps, rewrite } = await setUp(t, package12(shared, roles12([['R4', 'active', '', 'P4', 'primary', 'teacher', '', '', 'dept', '']])))
  const held = await test.app.records.create('Staff', { first_name: 'Front', last_name: 'Desk', email: 'kat@dept.example.edu' }, { actor: testActor })
  const first = await sync(deps, { kind: 'people' })
  t.same(first.errors, [])
  t.same(first.by_kind.person, kindCounts(4, { created: 4 }), 'everyone lands')
  t.same(first.warnings.map((w) => [w.row, w.sourced_id, w.message]), [
    [3, 'P3', 'another person record already has this email (kat@dept.example.edu); landed without it'],
    [4, 'P4', 'another person record already has this email (grace@dept.example.edu); landed without it'],
  ], 'a shared address, in the store or earlier in the same file, is reported')
  const [ann] = await find(test, 'Person', { campus_id: 'ahopper' })
  t.same([ann!.email, (await find(test, 'Person', { campus_id: 'S-0042' }))[0]!.email], [undefined, undefined])
  const [run] = await find(test, 'SyncRun', {})
  t.same(run!.warnings, first.warnings, 'the run record reports them too')

  await test.app.records.update(held._id, { email: 'desk@dept.example.edu' }, { actor: testActor })
  await rewrite({ 'users.csv': shared.map((row) => (row[0] === 'P4' ? row.map((cell) => (cell === 'GRACE@dept.example.edu' ? 'ann@dept.example.edu' : cell)) : row)) })
  const later = await sync(deps, { kind: 'people' })
  t.same(later.warnings, [])
  t.same(later.by_kind.person, kindCounts(4, { updated: 2, unchanged: 2 }))
  t.same([(await test.app.records.get(ann!._id))!.email, (await find(test, 'Person', { campus_id: 'S-0042' }))[0]!.email], ['ann@dept.example.edu', 'kat@dept.example.edu'], 'freed and new addresses are set')
})

t.test('5. terms are the live sessions: no inactive or tobedeleted session, no school year, and no two sessions share a code', async (t) => {
  const { dir, test, deps } = await setUp(t, package11)
  const ops = test.as(admin, 'admin')
  t.equal((await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: { type: 'oneroster-csv', path: dir } } })).statusCode, 200)
  const terms = await ops({ method: 'GET', url: '/api/campus-sync/terms' })
  t.equal(terms.statusCode, 200, terms.body)
  t.same(terms.json().items.map((term: { code: string; title: string }) => [term.code, term.title]), [['25F', 'Fall 2025'], ['26S', 'Spring 2026']])
  await sync(deps, { kind: 'courses' })
  const sections = await sync(deps, { kind: 'sections' })
  t.same(sections.errors.filter((e) => e.sourced_id.startsWith('FA25')).map((e) => [e.row, e.sourced_id, e.message]), [
    [6, 'FA25-ONL', 'term "Fall 2025 Online" comes out as 25F, the code of "Fall 2025" (row 2); not offered'],
  ], 'a second session of the same season is reported, not merged into the first')
  t.same((await find(test, 'Section', {})).map((s) => s.term).sort(), ['25F', '26S'])
  const narrowed = await ops({ method: 'POST', url: '/api/campus-sync/sections', payload: { term: '26W' } })
  t.equal(narrowed.statusCode, 400, 'the school year (it would have been 26W) is not a term to sync')
})

t.test('6. every row is accounted for, per kind, on both versions of the package', async (t) => {
  const { test, deps } = await setUp(t, package11)
  const [courses, sections, people] = [await sync(deps, { kind: 'courses' }), await sync(deps, { kind: 'sections' }), await sync(deps, { kind: 'people' })]
  t.same(courses.by_kind, { course: kindCounts(2, { created: 2 }) })
  t.same(sections.by_kind, { section: kindCounts(5, { created: 2, skipped: 1, errors: 2 }) }, 'the tobedeleted class is skipped, two in dead terms are errors')
  t.same(people.by_kind, {
    person: kindCounts(3, { created: 2, skipped: 1 }),
    enrollment: kindCounts(3, { created: 1, skipped: 1, errors: 1 }),
  }, "the parent is skipped; the teacher's enrollment is skipped; one in a section that never landed is an error")
  t.same(people.instructors, { updated: 1, unchanged: 1, errors: 0 })
  for (const run of [courses, sections, people]) t.same([run.accounted, run.status], [true, 'completed'], run.kind)
  const records = await find(test, 'SyncRun', {})
  t.same(records.map((r) => [r.kind, r.rows, r.accounted]).sort(), [['courses', 2, true], ['people', 6, true], ['sections', 5, true]])

  const narrowed = await sync(deps, { kind: 'sections', term: '26S' })
  t.same(narrowed.by_kind.section, kindCounts(5, { unchanged: 1, skipped: 4 }), 'classes of other terms are skipped, not lost')
  const again = await sync(deps, { kind: 'people' })
  t.same(again.by_kind.person, kindCounts(3, { unchanged: 2, skipped: 1 }))

  const v12 = await setUp(t, package12())
  const run12 = await sync(v12.deps, { kind: 'people' })
  t.same(run12.by_kind, { person: kindCounts(3, { created: 3 }), enrollment: kindCounts(1, { skipped: 1 }) })
})
