import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { BackupError } from '../../src/backups/archive.js'
import { restoreBackup } from '../../src/backups/restore.js'
import { takeBackup } from '../../src/backups/take.js'
import { loadMigrations } from '../../src/migrations/apply.js'
import { RecordService } from '../../src/records/service.js'
import { compileSchema } from '../../src/schema/index.js'
import type { Store } from '../../src/store/port.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { generateSampleDepartment } from '../../scripts/sample/index.js'
import { seedDepartmentInBulk } from '../../scripts/sample/seed-bulk.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'

/** The schema files with Faculty.orcid_verified required, and the migration that gives it a default. */
async function nextSchema(t: Test): Promise<string> {
  const dir = await tempDir(t)
  await cp('schema', dir, { recursive: true })
  const file = join(dir, 'people.json')
  const definitions = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[]
  const faculty = definitions.find((d) => d['@id'] === 'Faculty')!
  faculty.orcid_verified = 'xsd:boolean'
  ;(faculty['@documentation'] as { '@properties': Record<string, string> })['@properties'].orcid_verified = 'Whether the ORCID is verified'
  await writeFile(file, JSON.stringify(definitions))
  await mkdir(join(dir, 'migrations'))
  await writeFile(join(dir, 'migrations', '0001-orcid.json'), JSON.stringify({ operations: [{ op: 'create_property', class: 'Faculty', property: 'orcid_verified', default: false }] }))
  return dir
}

async function backupOf(store: Store, schemaDir: string, file: string): Promise<void> {
  await takeBackup({ kind: store.kind, snapshot: () => store.snapshot(), store }, { file, key: null, schema: await compileSchema(schemaDir) })
}

async function restoreInto(t: Test, file: string, schemaDir: string): Promise<string> {
  const dataDir = await tempDir(t)
  const store = await EmbeddedStore.open(dataDir)
  try {
    const schema = await compileSchema(schemaDir)
    await restoreBackup(store, { file, keys: [], schema, replace: false, migrations: await loadMigrations(schemaDir) })
  } finally {
    await store.close()
  }
  return dataDir
}

// Restores into data directories of the embedded store: the MongoDB pass has its own round trips.
if (!process.env.MONGODB_URL) t.test('a backup of an older schema is restored and brought forward by the migrations; one of a newer schema is refused', async (t) => {
  const files = await tempDir(t)
  const { app } = await buildTestApp(t)
  await seedDepartmentInBulk(new RecordService(app.store, app.schema), generateSampleDepartment(1))
  await backupOf(app.store, 'schema', join(files, 'old.backup'))

  const schemaDir = await nextSchema(t)
  const restored = await restoreInto(t, join(files, 'old.backup'), schemaDir)
  const next = await buildTestApp(t, { DATA_DIR: restored, SCHEMA_DIR: schemaDir, BACKUP_DIR: await tempDir(t) })
  const faculty = await next.app.store.collection('people').find({ type: 'Faculty' })
  t.equal(faculty.length, 40, 'the restored faculty are there')
  t.ok(faculty.every((f) => f.orcid_verified === false), 'brought forward by the migration at the start')

  await backupOf(next.app.store, schemaDir, join(files, 'new.backup'))
  const empty = await tempDir(t)
  const store = await EmbeddedStore.open(empty)
  try {
    const refused = await restoreBackup(store, { file: join(files, 'new.backup'), keys: [], schema: app.schema, replace: false, migrations: [] }).then(() => null, (error: unknown) => error)
    t.ok(refused instanceof BackupError, 'a backup of a newer schema is refused')
    t.match((refused as Error).message, /newer class schema .*0001-orcid/, 'naming the migration this service lacks')
    t.same(await store.collectionNames(), [], 'and nothing is written')
  } finally {
    await store.close()
  }
})
