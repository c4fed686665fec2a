import t, { type Test } from 'tap'
import { loadConfig } from '../../src/config.js'
import { RecordService } from '../../src/records/service.js'
import { compileSchema } from '../../src/schema/index.js'
import { openStore } from '../../src/store/open.js'
import type { Store } from '../../src/store/port.js'
import { generateSampleDepartment } from '../../scripts/sample/index.js'
import { seedDepartmentInBulk } from '../../scripts/sample/seed-bulk.js'
import { seedDepartment, SeedError } from '../../scripts/sample/seed-store.js'
import { tempDir } from '../helpers/temp-dir.js'

async function openSeedStore(t: Test) {
  let store: Store | undefined
  const dataDir = await tempDir(t, async () => store?.close())
  // Thousands of one-record commits: what is under test is what they write, not that each reaches the disk.
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SQLITE_SYNCHRONOUS: 'normal' })
  const schema = await compileSchema(config.schemaDir)
  store = await openStore(config, schema.collections.map((c) => c.name))
  for (const collection of schema.collections) await store.ensureIndexes(collection.name, collection.indexes)
  return { store, schema, records: new RecordService(store, schema) }
}

t.test('the department seeds through the record service without a single rejected record', async (t) => {
  const { store, schema, records } = await openSeedStore(t)
  const department = generateSampleDepartment(1)
  const written = await seedDepartment(records, department)
  t.same(written, department.counts, 'every record written')
  for (const [className, count] of Object.entries(department.counts)) {
    const collection = store.collection(schema.class(className)!.metadata.collection!)
    t.equal(await collection.count({ type: className }), count, `${className} in the store`)
  }
  const zoe = department.catalog.faculty.find((f) => /[^\x20-\x7e]/.test(`${f.body.first_name as string}${f.body.last_name as string}`))!
  const stored = await records.get(zoe.id)
  t.equal(stored?.last_name, zoe.body.last_name, 'accented names survive the store')
  t.equal(stored?._version, 1)
  const section = department.catalog.sections[0]!
  t.same((await records.get(section.id))?.instructors, section.body.instructors)
})

t.test('a rejected record stops the seed with its id and the reason', async (t) => {
  const { records } = await openSeedStore(t)
  const department = generateSampleDepartment(1)
  const [first] = department.stages[0]!
  const broken = { ...department, stages: [[{ ...first!, body: { ...first!.body, email: 'not an email' } }]] }
  const error: unknown = await seedDepartment(records, broken).catch((e: unknown) => e)
  t.type(error, SeedError)
  t.match((error as Error).message, new RegExp(`^${first!.id}: 'email'`))
  const dangling = { ...department, stages: [department.stages[1]!.filter((r) => r.className === 'Course' && (r.body.prerequisites as string[]).length)] }
  await t.rejects(seedDepartment(records, dangling), /prerequisites\[0\]' refers to Course\/.*which does not exist/)
})

t.test('the bulk seed stores the same documents as the record service, but for the time stamps', async (t) => {
  const one = await openSeedStore(t)
  const bulk = await openSeedStore(t)
  const department = generateSampleDepartment(1)
  await seedDepartment(one.records, department)
  const written = await seedDepartmentInBulk(bulk.records, department, { batch: 97 })
  t.same(written, department.counts, 'every record written')
  const stamps = (doc: Record<string, unknown>) => { const { _created_at: _c, _updated_at: _u, ...rest } = doc; return rest }
  for (const name of new Set(Object.keys(department.counts).map((c) => one.schema.class(c)!.metadata.collection!))) {
    const expected = (await one.store.collection(name).find({}, { sort: [['_id', 1]] })).map(stamps)
    const actual = (await bulk.store.collection(name).find({}, { sort: [['_id', 1]] })).map(stamps)
    t.same(actual, expected, `${name}: the same documents`)
  }
})

t.test('the bulk seed refuses what the record service refuses, naming the record', async (t) => {
  const { store, schema, records } = await openSeedStore(t)
  const department = generateSampleDepartment(1)
  const [first] = department.stages[0]!
  const broken = { ...department, stages: [[{ ...first!, body: { ...first!.body, email: 'not an email' } }]] }
  const error: unknown = await seedDepartmentInBulk(records, broken).catch((e: unknown) => e)
  t.type(error, SeedError)
  t.match((error as Error).message, new RegExp(`^${first!.id}: 'email'`))
  const dangling = { ...department, stages: [department.stages[1]!.filter((r) => r.className === 'Course' && (r.body.prerequisites as string[]).length)] }
  await t.rejects(seedDepartmentInBulk(records, dangling), /prerequisites\[0\]' refers to Course\/.*which does not exist/)
  t.equal(await store.collection(schema.class(first!.className)!.metadata.collection!).count({}), 0, 'nothing refused is written')
  const renamed = { ...department, stages: [[{ ...first!, id: `${first!.className}/someone-else` }]] }
  await t.rejects(seedDepartmentInBulk(records, renamed), /someone-else: was stored as /)
})
