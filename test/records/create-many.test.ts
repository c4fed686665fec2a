import t from 'tap'
import { ValidationFailed } from '../../src/errors.js'
import type { CreateOutcome } from '../../src/records/service.js'
import { buildTestApp } from '../helpers/app.js'
import { testActor } from '../helpers/actor.js'

const ids = (outcomes: readonly CreateOutcome[]) => outcomes.map((o) => o.record?._id)
const refusals = (outcomes: readonly CreateOutcome[]) => outcomes.map((o) => o.error && [o.error.statusCode, o.error.message])

t.test('a batch is written as create writes each record: defaults, stamps, derived fields, ids and change events', async (t) => {
  const { app } = await buildTestApp(t)
  const changes: string[] = []
  app.records.onChange((change) => changes.push(`${change.kind} ${change.id}`))
  const outcomes = await app.records.createMany('Course', [
    { input: { course_code: 'CS 101', title: 'Intro' } },
    { input: { course_code: 'CS 201', title: 'Data Structures', credits: 4 } },
    { input: { course_code: 'CS 301', title: 'Algorithms' }, key: 'algorithms' },
  ], { actor: testActor })
  t.same(ids(outcomes), ['Course/CS-101', 'Course/CS-201', 'Course/algorithms'])
  t.same(refusals(outcomes), [undefined, undefined, undefined])
  const stored = await app.records.get('Course/CS-201')
  t.match(stored, { type: 'Course', course_code: 'CS 201', credits: 4, prerequisites: [], _version: 1 })
  t.same(outcomes[1]!.record, stored, 'the outcome is the record as a read gives it')
  await app.records.create('Course', { course_code: 'CS 401', title: 'Intro' }, { actor: testActor })
  const raw = (id: string) => app.store.collection('courses').findById(id)
  const [batched, single] = [(await raw('Course/CS-101'))!, (await raw('Course/CS-401'))!]
  t.match(batched, { _subject: 'CS', _level: 101, _search: ['cs', '101', 'intro', 'cs101'] }, 'the lookup fields are derived')
  t.same(Object.keys(batched).sort(), Object.keys(single).sort(), 'the same fields as a record made by create')
  t.same(changes, ['create Course/CS-101', 'create Course/CS-201', 'create Course/algorithms', 'create Course/CS-401'])
})

t.test('a record create would refuse gets that refusal in its place, and the others are written', async (t) => {
  const { app } = await buildTestApp(t)
  await app.records.create('Faculty', { first_name: 'Ada', last_name: 'Held', email: 'held@campus.example.edu' }, { actor: testActor })
  const person = (n: number, extra: Record<string, unknown> = {}) => ({ input: { first_name: `P${n}`, last_name: 'Batch', email: `p${n}@campus.example.edu`, ...extra } })
  const outcomes = await app.records.createMany('Faculty', [
    person(1),
    person(2, { nickname: 'Two' }),
    person(3, { email: 'held@campus.example.edu' }),
    { ...person(4), key: 'not a key!' },
    { ...person(5), key: 'five' },
    { ...person(6), key: 'five' },
    person(7),
  ], { actor: testActor })
  t.same(refusals(outcomes), [
    undefined,
    [400, "unknown field 'nickname'"],
    [409, 'another Person already has this email'],
    [400, "'not a key!' is not a valid identifier"],
    undefined,
    [409, 'Faculty/five already exists'],
    undefined,
  ])
  t.equal(outcomes[4]!.record?._id, 'Faculty/five')
  const stored = await app.records.find(app.schema.class('Faculty')!, { last_name: 'Batch' })
  t.same(stored.map((p) => p.first_name).sort(), ['P1', 'P5', 'P7'])
  await t.rejects(app.records.create('Faculty', person(3, { email: 'held@campus.example.edu' }).input, { actor: testActor }), { statusCode: 409, message: 'another Person already has this email' }, 'create refuses it alike')
})

t.test('a unique value twice in one batch: the first is written, the second refused, the rest written once', async (t) => {
  const { app } = await buildTestApp(t)
  const person = (n: number, email: string) => ({ input: { first_name: `P${n}`, last_name: 'Twice', email } })
  const outcomes = await app.records.createMany('Staff', [person(1, 'a@campus.example.edu'), person(2, 'same@campus.example.edu'), person(3, 'same@campus.example.edu'), person(4, 'b@campus.example.edu')], { actor: testActor })
  t.same(refusals(outcomes), [undefined, undefined, [409, 'another Person already has this email'], undefined])
  const stored = await app.records.find(app.schema.class('Staff')!, { last_name: 'Twice' })
  t.same(stored.map((p) => [p.first_name, p._version]).sort(), [['P1', 1], ['P2', 1], ['P4', 1]])
  t.same(stored.map((p) => p._id).sort(), ids(outcomes).filter(Boolean).sort())
})

t.test('references are checked against the store, each refusal naming the field and the id', async (t) => {
  const { app } = await buildTestApp(t)
  const course = await app.records.create('Course', { course_code: 'CS 101', title: 'Intro' }, { actor: testActor })
  const faculty = await app.records.create('Faculty', { first_name: 'Fay', last_name: 'Teach' }, { actor: testActor })
  const section = (n: string, extra: Record<string, unknown> = {}) => ({ input: { course: course._id, term: '25F', section_number: n, ...extra } })
  const outcomes = await app.records.createMany('Section', [
    section('01', { instructors: [faculty._id] }),
    section('02', { course: 'Course/CS-999' }),
    section('03', { instructors: [faculty._id, 'Faculty/nobody'] }),
    section('04', { course: 'not-an-id' }),
  ], { actor: testActor })
  t.same(refusals(outcomes), [
    undefined,
    [400, "'course' refers to Course/CS-999, which does not exist"],
    [400, "'instructors[1]' refers to Faculty/nobody, which does not exist"],
    [400, "'course' must be the id of a Course (<Type>/<identifier>)"],
  ])
  t.same((await app.records.get(outcomes[0]!.record!._id))?.instructors, [faculty._id])
  await t.rejects(app.records.create('Section', section('02', { course: 'Course/CS-999' }).input, { actor: testActor }), { message: "'course' refers to Course/CS-999, which does not exist" })
})

t.test("the class's write checks judge each record; an unknown class refuses the whole call", async (t) => {
  const { app } = await buildTestApp(t)
  app.records.addCheck('Course', async (record) => {
    if (record.title === 'Refused') throw new ValidationFailed('a course may not be called Refused')
  })
  const outcomes = await app.records.createMany('Course', [{ input: { course_code: 'CS 101', title: 'Refused' } }, { input: { course_code: 'CS 102', title: 'Fine' } }], { actor: testActor })
  t.same(refusals(outcomes), [[400, 'a course may not be called Refused'], undefined])
  t.same(await app.records.createMany('Course', [], { actor: testActor }), [])
  await t.rejects(app.records.createMany('Nonsense', [{ input: {} }], { actor: testActor }), { statusCode: 400, message: 'unknown record type Nonsense' })
})
