import { readdir } from 'node:fs/promises'
import t from 'tap'
import { MigrationRefused } from '../../src/migrations/apply.js'
import { SchemaChangeRefused } from '../../src/migrations/reconcile.js'
import { revisionsCollection } from '../../src/history/revision.js'
import { schemaStateCollection, storedSchema, type AppliedChange } from '../../src/migrations/state.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import { addProperty, editedSchema, migration, seededDataDir, type Definition } from './schema-edits.js'

t.test('a new required property that stored records lack stops start-up, naming the class, the count and examples', async (t) => {
  const dataDir = await seededDataDir(t)
  const schemaDir = await editedSchema(t, (byId) => {
    addProperty(byId.get('Faculty')!, 'orcid_verified', 'xsd:boolean')
  })
  const refused = await buildTestApp(t, { DATA_DIR: dataDir, SCHEMA_DIR: schemaDir }).then(() => null, (error: unknown) => error)
  t.ok(refused instanceof SchemaChangeRefused, `start-up is refused (${String(refused)})`)
  const message = (refused as Error).message
  t.match(message, /Faculty\.orcid_verified: a new required property \(xsd:boolean\): breaks 40 records \(Faculty\/[^,]+, Faculty\/[^,]+, Faculty\/[^,]+, Faculty\/[^,]+, Faculty\/[^,]+, …\)/, 'the change, 40 faculty and five of them')
  t.match(message, /create_property Faculty\.orcid_verified with a default/, 'and the migration that resolves it')

  // Nothing changed: the service starts again on the schema it had.
  const { app } = await buildTestApp(t, { DATA_DIR: dataDir })
  t.equal((await storedSchema(app.store))?.hash, app.schema.hash, 'the store keeps its schema')
})

t.test('compatible changes apply at start-up and are recorded; /api/schemas names the version', async (t) => {
  const dataDir = await seededDataDir(t)
  const schemaDir = await editedSchema(t, (byId, files) => {
    addProperty(byId.get('Faculty')!, 'nickname', { '@type': 'Optional', '@class': 'xsd:string' })
    const degreeType = byId.get('DegreeType')!
    degreeType['@value'] = [...(degreeType['@value'] as string[]), 'EdD']
    files.get('research.json')!.push({ '@type': 'Class', '@id': 'Seminar', '@key': { '@type': 'Random' }, '@subdocument': [], '@documentation': { '@comment': 'A seminar talk', '@properties': { title: 'Its title' } }, title: 'xsd:string' })
  })
  const { app, as } = await buildTestApp(t, { DATA_DIR: dataDir, SCHEMA_DIR: schemaDir })
  const stored = await storedSchema(app.store)
  t.equal(stored?.hash, app.schema.hash, 'the store takes the new schema')
  const [change] = await app.store.collection<AppliedChange>(schemaStateCollection).find({ to: app.schema.hash })
  t.same([...change!.changes].sort(), ['DegreeType: new value EdD', 'Faculty.nickname: a new optional property (xsd:string)', 'Seminar: a new class'], 'with what changed')

  const list = await as('ada@dept.edu', 'admin')({ method: 'GET', url: '/api/schemas' })
  t.equal(list.json().version, app.schema.hash, 'the list names the version')
  t.equal(list.headers.etag, `"${app.schema.hash}"`, 'as its ETag')
  const one = await as('ada@dept.edu', 'admin')({ method: 'GET', url: '/api/schemas/Faculty' })
  t.equal(one.headers.etag, `"${app.schema.hash}"`, 'and each class schema too')
  t.ok('nickname' in (one.json().properties as object), 'which has the new property')
  const again = await as('ada@dept.edu', 'admin')({ method: 'GET', url: '/api/schemas', headers: { 'if-none-match': `"${app.schema.hash}"` } })
  t.equal(again.statusCode, 304, 'a client holding the version is told it is current')
})

t.test('a migration giving the new property a default applies at start-up, after a backup, with a revision for each record', async (t) => {
  const dataDir = await seededDataDir(t)
  const schemaDir = await editedSchema(t, (byId) => addProperty(byId.get('Faculty')!, 'orcid_verified', 'xsd:boolean'))

  // A default the new schema refuses leaves every record as it was.
  await migration(schemaDir, '0001-orcid', [{ op: 'create_property', class: 'Faculty', property: 'orcid_verified', default: 'yes' }])
  const refused = await buildTestApp(t, { DATA_DIR: dataDir, SCHEMA_DIR: schemaDir }).then(() => null, (error: unknown) => error)
  t.ok(refused instanceof MigrationRefused, `a migration that would leave records invalid is refused (${String(refused)})`)
  t.match((refused as Error).message, /would leave 40 records invalid \(Faculty\//)

  await migration(schemaDir, '0001-orcid', [{ op: 'create_property', class: 'Faculty', property: 'orcid_verified', default: false }])
  const off = await buildTestApp(t, { DATA_DIR: dataDir, SCHEMA_DIR: schemaDir, SCHEMA_MIGRATE: 'off' }).then(() => null, (error: unknown) => error)
  t.match(String(off), /0001-orcid are pending; apply them with npm run schema:migrate/, 'without SCHEMA_MIGRATE=auto start-up names the pending migration')

  const backupDir = await tempDir(t)
  const { app } = await buildTestApp(t, { DATA_DIR: dataDir, SCHEMA_DIR: schemaDir, BACKUP_DIR: backupDir })
  const faculty = await app.store.collection('people').find({ type: 'Faculty' })
  t.equal(faculty.length, 40)
  t.ok(faculty.every((f) => f.orcid_verified === false), 'every faculty member has the field')
  const revisions = await app.store.collection(revisionsCollection).find({ actor: 'migration:0001-orcid' })
  t.equal(revisions.length, 40, 'each with a revision by the migration')
  t.ok(revisions.every((r) => JSON.stringify(r.patch).includes('orcid_verified')))
  t.equal((await readdir(backupDir)).filter((f) => f.endsWith('.backup')).length, 1, 'a backup was taken first')
  t.equal((await storedSchema(app.store))?.hash, app.schema.hash, 'and the store takes the new schema')
  await app.close()

  // Applied once: a restart applies nothing again.
  const again = await buildTestApp(t, { DATA_DIR: dataDir, SCHEMA_DIR: schemaDir, BACKUP_DIR: backupDir })
  t.equal(await again.app.store.collection(revisionsCollection).count({ actor: 'migration:0001-orcid' }), 40, 'a restart writes nothing more')
})

t.test('rename, cast, delete and an enum mapped across records, in one migration', async (t) => {
  const dataDir = await seededDataDir(t)
  const schemaDir = await editedSchema(t, (byId) => {
    const faculty = byId.get('Faculty')!
    const person = byId.get('Person')!
    // office (Person) becomes room; Faculty.title is dropped; DegreeType's MS becomes MSc.
    // Wherever the class names the property (its documentation, its metadata's lists).
    const renamed = JSON.parse(JSON.stringify(person).replaceAll('"office"', '"room"')) as Definition
    for (const key of Object.keys(person)) delete person[key]
    Object.assign(person, renamed)
    delete faculty.title
    delete (faculty['@documentation'] as { '@properties': Record<string, string> })['@properties'].title
    const appointments = byId.get('AppointmentType')!
    appointments['@value'] = (appointments['@value'] as string[]).map((v) => (v === 'adjunct' ? 'affiliate' : v))
  })
  await migration(schemaDir, '0001-tidy', [
    { op: 'rename_property', class: 'Person', from: 'office', to: 'room' },
    { op: 'delete_property', class: 'Faculty', property: 'title' },
    { op: 'map_enum_values', enum: 'AppointmentType', values: { adjunct: 'affiliate' } },
  ])
  const { app } = await buildTestApp(t, { DATA_DIR: dataDir, SCHEMA_DIR: schemaDir, BACKUP_DIR: await tempDir(t) })
  const people = await app.store.collection('people').find({})
  t.notOk(people.some((p) => 'office' in p), 'no one keeps an office')
  t.ok(people.some((p) => typeof p.room === 'string'), 'the offices are rooms')
  t.notOk(people.some((p) => p.type === 'Faculty' && 'title' in p), 'faculty titles are gone')
  const faculty = people.filter((p) => p.type === 'Faculty')
  t.notOk(faculty.some((f) => f.appointment_type === 'adjunct'), 'no one is an adjunct')
  t.ok(faculty.some((f) => f.appointment_type === 'affiliate'), 'the adjuncts are affiliates')
  t.equal(await app.store.collection(revisionsCollection).count({ actor: 'migration:0001-tidy' }), people.filter((p) => 'room' in p || p.type === 'Faculty').length, 'one revision per record changed')
})
