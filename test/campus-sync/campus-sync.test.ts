import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import { campus, counts, fullPass, kindCounts, provider, restConfig, sync, syncDeps, writes } from './support.js'
import { testActor } from '../helpers/actor.js'

const schemaDir = fileURLToPath(new URL('../../schema/', import.meta.url))
const later = (day: number) => `2025-10-${String(day).padStart(2, '0')}T10:00:00Z`

t.test('a first sync creates every record, links teachers as instructors and audits enrollment writes', async (t) => {
  const test = await buildTestApp(t)
  const p = await provider(t)
  const deps = syncDeps(test, restConfig(p))
  const [courses, sections, people] = await fullPass(deps)
  t.same(counts(courses!), { created: 2, updated: 0, unchanged: 0, deactivated: 0, skipped: 0, errors: 0, status: 'completed' })
  t.same(counts(sections!), { created: 2, updated: 0, unchanged: 0, deactivated: 0, skipped: 0, errors: 0, status: 'completed' })
  t.same(people!.by_kind.person, kindCounts(4, { created: 4 }))
  t.same(people!.by_kind.enrollment, kindCounts(3, { created: 2, skipped: 1 }), "the teacher's enrollment is skipped as no student record")
  t.same(people!.instructors, { updated: 1, unchanged: 1, errors: 0 }, 'section instructors are counted apart from rows')
  t.same(people!.errors, [])

  const { records, schema } = test.app
  const faculty = await records.find(schema.class('Faculty')!, { campus_id: 'net-F1' })
  t.equal(faculty.length, 1)
  t.same(faculty[0]!.source, { system: 'oneroster', sourced_id: 'F1' })
  const grad = await records.find(schema.class('Person')!, { type: 'GraduateStudent' })
  t.same(grad.map((g) => g.campus_id), ['net-S2'])
  t.equal((await records.find(schema.class('Person')!, { type: 'Staff' })).length, 1)
  const section = (await records.find(schema.class('Section')!, { section_number: '01' }))[0]!
  t.same(section.instructors, [faculty[0]!._id], 'the teacher enrollment made the teacher an instructor')
  t.equal(section.term, '25F')
  const enrollments = await records.find(schema.class('Enrollment')!, {})
  t.same(enrollments.map((e) => [e.term, e.status, (e.source as { sourced_id: string }).sourced_id]).sort(), [['25F', 'enrolled', 'E2'], ['25F', 'enrolled', 'E3']])
  const audit = await test.app.auditLog.list({ resourceType: 'enrollment', limit: 10, offset: 0 })
  t.same(audit.items.map((e) => [e.action, e.basis, e.resourceId]).sort(), enrollments.map((e) => ['create', 'campus-sync', e._id]).sort())
  t.same(await test.app.auditLog.verify(), { intact: true, checked: 2, head: { seq: 2, hash: audit.items[0]!.hash } }, 'the entries written together chain intact')
  const runs = await records.find(schema.class('SyncRun')!, {})
  t.same(runs.map((r) => [r.kind, r.status, r.created]).sort(), [['courses', 'completed', 2], ['people', 'completed', 6], ['sections', 'completed', 2]])
  const enrollmentReads = p.requests.filter((u) => u.pathname.endsWith('/enrollments') && u.searchParams.get('offset') === '0')
  t.equal(enrollmentReads.length, 1, 'enrollments read once: with no faculty synced yet, the sections run has no teacher to link')
})

t.test('a sections run links the teachers already synced to a new section', async (t) => {
  const test = await buildTestApp(t)
  const p = await provider(t)
  const deps = syncDeps(test, restConfig(p))
  await fullPass(deps)
  p.feed.classes.push({ sourcedId: 'K3', status: 'active', dateLastModified: later(1), title: 'CSX 201-03', classCode: '03', course: { sourcedId: 'C2' }, terms: [{ sourcedId: 'T1' }] })
  p.feed.enrollments.push({ sourcedId: 'E9', status: 'active', dateLastModified: later(1), role: 'teacher', primary: 'true', user: { sourcedId: 'F1' }, class: { sourcedId: 'K3' } })
  const result = await sync(deps, { kind: 'sections' })
  t.same([result.created, result.updated, result.unchanged], [1, 0, 0])
  const { records, schema } = test.app
  const teacher = (await records.find(schema.class('Faculty')!, { campus_id: 'net-F1' }))[0]!
  t.same((await records.find(schema.class('Section')!, { section_number: '03' }))[0]!.instructors, [teacher._id])
})

t.test('a second run with nothing changed asks only for changes and writes nothing', async (t) => {
  const test = await buildTestApp(t)
  const p = await provider(t)
  const deps = syncDeps(test, restConfig(p))
  await fullPass(deps)
  const before = writes(test)
  p.requests.length = 0
  const again = await fullPass(deps)
  for (const result of again) t.same([result.created, result.updated, result.deactivated, result.errors.length, result.status], [0, 0, 0, 0, 'completed'])
  t.same(writes(test), before, 'no record, audit entry or watermark written')
  const users = p.requests.find((u) => u.pathname.endsWith('/users'))!
  t.equal(users.searchParams.get('filter'), "dateLastModified>'2025-09-01T10:00:00Z'", 'the delta starts at the newest dateLastModified the source reported')
})

t.test('a bulk run over what is already on record reports every record unchanged', async (t) => {
  const test = await buildTestApp(t)
  const p = await provider(t)
  await fullPass(syncDeps(test, restConfig(p)))
  await test.app.store.collection('sync_watermarks').deleteMany({})
  const before = writes(test)
  const [courses, sections, people] = await fullPass(syncDeps(test, restConfig(p)))
  t.same([courses!.unchanged, sections!.unchanged, people!.by_kind.person?.unchanged, people!.by_kind.enrollment?.unchanged], [2, 2, 4, 2])
  t.same(writes(test).people, before.people)
  t.same(writes(test).enrollments, before.enrollments)
})

t.test('a delta run applies exactly the changed, new and tobedeleted rows', async (t) => {
  const test = await buildTestApp(t)
  const p = await provider(t)
  const deps = syncDeps(test, restConfig(p, { maxDeactivatePercent: 30 }))
  await fullPass(deps)
  const users = p.feed.users
  Object.assign(users.find((u) => u.sourcedId === 'S1')!, { familyName: 'Renamed', dateLastModified: later(1) })
  Object.assign(users.find((u) => u.sourcedId === 'S2')!, { status: 'tobedeleted', dateLastModified: later(2) })
  users.push({ ...users.find((u) => u.sourcedId === 'S1')!, sourcedId: 'S3', identifier: 'net-S3', email: 's3@campus.example.edu', familyName: 'New', dateLastModified: later(3) })
  const before = writes(test)
  const result = await sync(deps, { kind: 'people' })
  t.same(result.by_kind.person, kindCounts(3, { created: 1, updated: 1, deactivated: 1 }))
  t.equal(writes(test).people! - before.people!, 3, 'three people written, no more')
  const { records, schema } = test.app
  t.same((await records.find(schema.class('Person')!, { campus_id: 'net-S1' }))[0]!.last_name, 'Renamed')
  t.equal((await records.find(schema.class('Person')!, { campus_id: 'net-S2' }))[0]!.active, false, 'deactivated, not deleted')
  t.equal((await records.find(schema.class('Person')!, { campus_id: 'net-S3' })).length, 1)
  const next = await sync(deps, { kind: 'people' })
  t.same([next.created, next.updated, next.deactivated], [0, 0, 0])
  t.equal(p.requests.filter((u) => u.pathname.endsWith('/users')).at(-1)!.searchParams.get('filter'), `dateLastModified>'${later(3)}'`)
})

t.test('bad rows are reported with their row and sourcedId and skipped; the rest is synced', async (t) => {
  const test = await buildTestApp(t)
  const feed = campus()
  feed.courses.push({ sourcedId: 'C3', status: 'active', title: 'Bad', courseCode: 'not a code!' }, { sourcedId: 'C1', status: 'active', title: 'Again', courseCode: 'CSX 999' })
  feed.users.push({ sourcedId: 'X1', status: 'active', givenName: 'No', familyName: 'Id', roles: [{ roleType: 'primary', role: 'student' }] })
  feed.users.push({ sourcedId: 'X2', status: 'active', givenName: 'Bad', familyName: 'Role', identifier: 'net-X2', roles: [{ roleType: 'primary', role: 'overlord' }] })
  const p = await provider(t, feed)
  const [courses, , people] = await fullPass(syncDeps(test, restConfig(p)))
  t.equal(courses!.created, 2)
  t.same(courses!.errors.map((e) => [e.row, e.sourced_id]), [[3, 'C3'], [4, 'C1']])
  t.match(courses!.errors[0]!.message, /courseCode "not a code!"/)
  t.match(courses!.errors[1]!.message, /duplicate sourcedId, first seen on row 1/)
  t.same(people!.by_kind.person, kindCounts(6, { created: 5, errors: 1 }), 'a user without identifier lands; the unknown role does not')
  t.same(people!.errors.map((e) => [e.row, e.sourced_id]), [[6, 'X2']])
  t.match(people!.errors[0]!.message, /unknown role "overlord"/)
  t.same(courses!.by_kind.course, kindCounts(4, { created: 2, errors: 2 }))
  t.equal(people!.status, 'completed')
})

t.test('a taken email lands the person without it, with a warning; a row the record service refuses on writing is reported and the rest of its page is written', async (t) => {
  const test = await buildTestApp(t)
  const { records, schema } = test.app
  await records.create('Staff', { first_name: 'Held', last_name: 'Address', campus_id: 'net-held', email: 's1@campus.example.edu' }, { actor: testActor })
  const feed = campus()
  feed.users.push({ ...feed.users[3]!, sourcedId: 'S3', identifier: 'net-S3', email: 'S2@campus.example.edu' })
  feed.users.push({ ...feed.users[3]!, sourcedId: 'S4', identifier: 'net-S4', email: 's4@localhost' })
  feed.enrollments.push({ ...feed.enrollments[1]!, sourcedId: 'E4', user: { sourcedId: 'S4' } })
  const p = await provider(t, feed)
  const [, , people] = await fullPass(syncDeps(test, restConfig(p)))
  t.equal(people!.status, 'completed')
  t.same(people!.warnings.map((e) => [e.row, e.sourced_id, e.message]), [
    [3, 'S1', 'another person record already has this email (s1@campus.example.edu); landed without it'],
    [5, 'S3', 'another person record already has this email (s2@campus.example.edu); landed without it'],
  ])
  t.same(people!.errors.map((e) => [e.row, e.sourced_id]), [[6, 'S4'], [4, 'E4']])
  t.match(people!.errors[0]!.message, /email/)
  t.equal(people!.errors[1]!.message, 'student S4 is not on record')
  t.same(people!.by_kind.person, kindCounts(6, { created: 5, errors: 1 }))
  t.same(people!.by_kind.enrollment, kindCounts(4, { created: 2, skipped: 1, errors: 1 }))
  const landed = await records.find(schema.class('Person')!, { campus_id: { $in: ['net-S1', 'net-S2', 'net-S3', 'net-S4'] } }, { sort: [['campus_id', 1]] })
  t.same(landed.map((p) => [p.campus_id, p.email]), [['net-S1', undefined], ['net-S2', 's2@campus.example.edu'], ['net-S3', undefined]])
  t.same((await records.find(schema.class('Enrollment')!, {})).map((e) => (e.source as { sourced_id: string }).sourced_id).sort(), ['E2', 'E3'])
  t.same((await test.app.auditLog.verify()).checked, 2, 'only the enrollments written are audited')
  const [run] = await records.find(schema.class('SyncRun')!, { kind: 'people' })
  t.same([run!.warnings, run!.rows, run!.accounted], [people!.warnings, 10, true], 'the run record keeps the warnings and says every row is accounted for')
})

t.test('people of a class the schema does not store are reported row by row; the run goes on', async (t) => {
  const dir = await tempDir(t)
  for (const name of (await readdir(schemaDir)).filter((n) => n.endsWith('.json'))) await copyFile(join(schemaDir, name), join(dir, name))
  const people = JSON.parse(await readFile(join(schemaDir, 'people.json'), 'utf8')) as { '@id': string }[]
  await writeFile(join(dir, 'people.json'), JSON.stringify(people.filter((c) => c['@id'] !== 'Staff')))
  const test = await buildTestApp(t, { SCHEMA_DIR: dir })
  const p = await provider(t)
  const [, , result] = await fullPass(syncDeps(test, restConfig(p)))
  t.equal(result!.status, 'completed')
  t.same(result!.errors.map((e) => [e.row, e.sourced_id, e.message]), [[2, 'A1', 'unknown record type Staff']])
  t.same([result!.by_kind.person?.created, result!.by_kind.enrollment?.created], [3, 2])
})

t.test('the mass-deactivation guard stops a run before any write', async (t) => {
  const test = await buildTestApp(t)
  const p = await provider(t)
  const deps = syncDeps(test, restConfig(p))
  await fullPass(deps)
  for (const id of ['S1', 'S2']) Object.assign(p.feed.users.find((u) => u.sourcedId === id)!, { status: 'tobedeleted', dateLastModified: later(5) })
  Object.assign(p.feed.users.find((u) => u.sourcedId === 'F1')!, { familyName: 'Changed too', dateLastModified: later(5) })
  const before = writes(test)
  const result = await sync(deps, { kind: 'people' })
  t.equal(result.status, 'refused')
  t.match(result.message, /would deactivate 2 of 4 active person records synced from oneroster \(50%\), more than the 10% allowed; nothing was written/)
  t.same(writes(test), before, 'not even the unrelated change was written')
  const runs = await test.app.records.find(test.app.schema.class('SyncRun')!, { status: 'refused' })
  t.equal(runs.length, 1)
})

t.test('a dry run answers the diff and writes no record', async (t) => {
  const test = await buildTestApp(t)
  const p = await provider(t)
  const deps = syncDeps(test, restConfig(p))
  await sync(deps, { kind: 'courses' })
  p.feed.courses[0]!.title = 'Retitled'
  p.feed.courses[0]!.dateLastModified = later(1)
  const before = writes(test)
  const result = await sync(deps, { kind: 'courses', dryRun: true })
  t.equal(result.dry_run, true)
  t.equal(result.updated, 1)
  t.same(result.diff?.course?.update.map((u) => u.set), [{ title: 'Retitled' }])
  t.same(writes(test), before)
  t.equal((await test.app.records.find(test.app.schema.class('Course')!, { course_code: 'CSX 101' }))[0]!.title, 'Intro to Computing')
})

t.test('a feed answering 500 mid-way leaves the pages before it applied and fails the run with the reason', async (t) => {
  const test = await buildTestApp(t)
  const feed = campus()
  for (let n = 1; n <= 3; n++) feed.users.push({ ...feed.users[2]!, sourcedId: `S9${n}`, identifier: `net-S9${n}`, email: `s9${n}@campus.example.edu` })
  const p = await provider(t, feed)
  p.failAt = { collection: 'users', offset: 4 }
  const deps = syncDeps(test, restConfig(p))
  await sync(deps, { kind: 'courses' })
  const result = await sync(deps, { kind: 'people' })
  t.equal(result.status, 'failed')
  t.match(result.message, /OneRoster users at offset 4: provider answered HTTP 500/)
  t.equal(result.by_kind.person?.created, 4, 'the two pages before the failure were written')
  t.equal(result.deactivated, 0, 'nothing read as absent')
  t.equal(await test.app.store.collection('sync_watermarks').count({ collection: 'users' }), 0, 'the watermark does not move past a failed run')
  const run = (await test.app.records.find(test.app.schema.class('SyncRun')!, { kind: 'people' }))[0]!
  t.same([run.status, run.created], ['failed', 4])
  t.match(run.message, /HTTP 500/)
  p.failAt = undefined
  const resumed = await sync(deps, { kind: 'people' })
  t.same([resumed.status, resumed.by_kind.person?.created, resumed.by_kind.person?.unchanged], ['completed', 3, 4])
})

t.test('an expired OAuth token is renewed once and the run goes on', async (t) => {
  const test = await buildTestApp(t)
  const p = await provider(t)
  const deps = syncDeps(test, restConfig(p))
  await sync(deps, { kind: 'courses' })
  t.equal(p.tokenRequests, 1)
  p.valid.clear()
  const result = await sync(deps, { kind: 'sections' })
  t.equal(result.status, 'completed')
  t.equal(result.created, 2)
  t.equal(p.tokenRequests, 2, 'one renewal')
})

t.test('a person matched by campus id is adopted and keeps their own bio and research interests', async (t) => {
  const test = await buildTestApp(t)
  const { records, schema } = test.app
  const existing = await records.create('Faculty', { first_name: 'Old', last_name: 'Name', campus_id: 'net-F1', bio: 'I study feeds.', research_interests: ['rostering'], phone: '555-0100' }, { actor: testActor })
  const p = await provider(t)
  const result = await sync(syncDeps(test, restConfig(p)), { kind: 'people' })
  t.equal(result.by_kind.person?.updated, 1)
  t.equal(result.by_kind.person?.created, 3)
  const after = await records.get(existing._id)
  t.same([after!.first_name, after!.bio, after!.research_interests, after!.phone], ['Given-F1', 'I study feeds.', ['rostering'], '555-0100'])
  t.same(after!.source, { system: 'oneroster', sourced_id: 'F1' })
  t.equal((await records.find(schema.class('Person')!, { campus_id: 'net-F1' })).length, 1, 'no second record for the same campus id')
})

t.test('a stop request is honoured at a checkpoint and a later run completes the work', async (t) => {
  const test = await buildTestApp(t)
  const p = await provider(t)
  const deps = syncDeps(test, restConfig(p))
  const controller = new AbortController()
  controller.abort(new Error('the process is shutting down'))
  const { runCampusSync } = await import('../../src/campus-sync/runner.js')
  const { jobContext } = await import('./support.js')
  await t.rejects(runCampusSync(deps, { kind: 'courses' }, jobContext(controller.signal)), /shutting down/)
  t.equal(await test.app.store.collection('courses').count({}), 0)
  t.equal((await sync(deps, { kind: 'courses' })).created, 2)
})
