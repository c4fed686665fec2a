import t from 'tap'
import type { AuditFacts } from '../../src/privacy/audit-entry.js'
import { AuditLog, auditCollection } from '../../src/privacy/audit-log.js'
import { buildTestApp } from '../helpers/app.js'
import { testActor } from '../helpers/actor.js'

function facts(n: number): AuditFacts {
  return {
    userId: null, resourceType: 'enrollment', resourceId: `Enrollment/e${n}`, action: 'create', ipAddress: '', success: true, statusCode: 201,
    reason: null, authMethod: 'none', apiKeyId: null, apiKeyPrefix: null, role: null, basis: 'campus-sync', method: 'JOB', route: 'campus-sync',
    requestId: `run-${n}`, userAgent: null,
  }
}

t.test('enrollments created in a batch follow the rules of one created alone', async (t) => {
  const { app } = await buildTestApp(t)
  const { records, enrollments } = app
  const cs101 = await records.create('Course', { course_code: 'CS 101', title: 'Intro' }, { actor: testActor })
  const cs201 = await records.create('Course', { course_code: 'CS 201', title: 'Data Structures' }, { actor: testActor })
  const section = await records.create('Section', { course: cs101._id, term: '25F', section_number: '01' }, { actor: testActor })
  const [otto, una] = [
    await records.create('UndergraduateStudent', { first_name: 'Otto', last_name: 'Student' }, { actor: testActor }),
    await records.create('UndergraduateStudent', { first_name: 'Una', last_name: 'Student' }, { actor: testActor }),
  ]
  const held = await enrollments.create({ student: una._id, course: cs201._id, term: '25F', status: 'enrolled' }, { actor: testActor })
  const base = { student: otto._id, course: cs101._id, term: '25F', status: 'completed' }
  const outcomes = await enrollments.createMany([
    { ...base, section: section._id, grade: 'B-' },
    { ...base, course: cs201._id, section: section._id },
    { ...base, term: '25S', grade: 'A', grade_points: 3 },
    { ...base, student: 'UndergraduateStudent/nobody' },
    { ...base, student: una._id, course: cs201._id },
    { ...base, term: '26S', grade: 'P' },
  ], { actor: testActor })
  t.same(outcomes.map((o) => o.error && [o.error.statusCode, o.error.message]), [
    undefined,
    [400, `'section' is a section of ${cs101._id} in 25F, not of this enrollment's course and term`],
    [400, "'grade_points' disagrees with the grade scale; leave it out and it is filled in from the grade"],
    [400, "'student' refers to UndergraduateStudent/nobody, which does not exist"],
    [409, `${held._id} already exists`],
    undefined,
  ])
  t.match(outcomes[0]!.record, { grade: 'B-', grade_points: 2.7, section: section._id }, 'grade points filled in from the scale')
  t.equal(outcomes[5]!.record?.grade_points, undefined, 'a P carries no grade points')
  t.same((await enrollments.ofStudent(otto._id)).map((e) => e._id), [outcomes[0]!.record!._id, outcomes[5]!.record!._id], 'the two written, no more')
  await t.rejects(enrollments.create({ ...base, course: cs201._id, section: section._id }, { actor: testActor }), { message: outcomes[1]!.error!.message }, 'create refuses it alike')
})

t.test('entries appended together chain on from the log and keep it intact', async (t) => {
  const { app } = await buildTestApp(t)
  const log = app.auditLog
  await log.append(facts(1))
  const before = app.store.writeCounts!.of(auditCollection)
  const batch = await log.appendMany([2, 3, 4, 5, 6].map(facts))
  t.same(batch.map((e) => e.seq), [2, 3, 4, 5, 6])
  t.equal(app.store.writeCounts!.of(auditCollection) - before, app.store.kind === 'embedded' ? 1 : 5, 'one store write where the batch insert is all or nothing')
  await log.append(facts(7))
  t.same(await log.appendMany([]), [])
  const report = await log.verify()
  t.same([report.intact, report.checked], [true, 7])
  const listed = await log.list({ resourceType: 'enrollment', limit: 10, offset: 0 })
  t.same(listed.items.map((e) => e.requestId), ['run-7', 'run-6', 'run-5', 'run-4', 'run-3', 'run-2', 'run-1'])
  t.same(listed.items.find((e) => e.seq === 4), { ...batch[2] }, 'stored as returned')
})

t.test('two logs on one store appending at once leave one intact chain holding every entry', async (t) => {
  const { app } = await buildTestApp(t)
  const other = new AuditLog(app.store)
  await app.auditLog.append(facts(0))
  await other.append(facts(100))
  await Promise.all([
    app.auditLog.appendMany([1, 2, 3, 4, 5, 6, 7, 8].map(facts)),
    other.append(facts(101)), other.append(facts(102)),
    other.appendMany([103, 104, 105].map(facts)),
    app.auditLog.appendMany([9, 10, 11].map(facts)),
  ])
  const report = await app.auditLog.verify()
  t.same([report.intact, report.checked], [true, 18])
  const listed = await app.auditLog.list({ limit: 100, offset: 0 })
  const ours = listed.items.map((e) => Number(e.requestId.slice(4))).filter((n) => n < 100).reverse()
  t.same(ours, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], "one log's entries keep their order")
})
