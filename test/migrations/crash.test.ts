import { spawn } from 'node:child_process'
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import t from 'tap'
import { revisionsCollection } from '../../src/history/revision.js'
import { RecordService } from '../../src/records/service.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { generateSampleDepartment } from '../../scripts/sample/index.js'
import { seedDepartmentInBulk } from '../../scripts/sample/seed-bulk.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'

/** `npm run schema:migrate` as a process of its own; `until` ends it with SIGKILL at the first output line it accepts. */
function migrate(env: Record<string, string>, until?: (line: string) => boolean): Promise<{ code: number | null; signal: string | null; lines: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/schema-migrate.ts'], { env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] })
  const lines: string[] = []
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line)
    if (until?.(line)) child.kill('SIGKILL')
  })
  child.stderr.on('data', (chunk: Buffer) => lines.push(chunk.toString()))
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, lines })))
}

/** Enrollments as stored, less the stamp each write takes, and the migration's revisions of each. */
async function outcome(dataDir: string): Promise<{ records: string[]; revisions: Map<string, number> }> {
  const store = await EmbeddedStore.open(dataDir)
  try {
    const records = (await store.collection('enrollments').find({}, { sort: [['_id', 1]] })).map(({ _updated_at: _stamp, ...rest }) => JSON.stringify(rest))
    const revisions = new Map<string, number>()
    for (const r of await store.collection(revisionsCollection).find({ actor: 'migration:0001-enrollment-note' })) revisions.set(String(r.record), (revisions.get(String(r.record)) ?? 0) + 1)
    return { records, revisions }
  } finally {
    await store.close()
  }
}

t.test('a migration killed half-way resumes at the next run and ends exactly as one never interrupted', async (t) => {
  const dataDir = await tempDir(t)
  const { app } = await buildTestApp(t, { DATA_DIR: dataDir })
  await seedDepartmentInBulk(new RecordService(app.store, app.schema), generateSampleDepartment(1))
  await app.close()
  const control = await tempDir(t)
  await cp(dataDir, control, { recursive: true })

  // Enrollment gains a required note; the migration gives every stored enrollment one.
  const schemaDir = await tempDir(t)
  await cp('schema', schemaDir, { recursive: true })
  const file = join(schemaDir, 'records.json')
  const definitions = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[]
  const enrollment = definitions.find((d) => d['@id'] === 'Enrollment')!
  enrollment.note = 'xsd:string'
  ;(enrollment['@documentation'] as { '@properties': Record<string, string> })['@properties'].note = 'A note on the enrollment'
  await writeFile(file, JSON.stringify(definitions))
  await mkdir(join(schemaDir, 'migrations'))
  await writeFile(join(schemaDir, 'migrations', '0001-enrollment-note.json'), JSON.stringify({ operations: [{ op: 'create_property', class: 'Enrollment', property: 'note', default: 'none' }] }))

  const env = (dir: string) => ({ DATA_DIR: dir, SCHEMA_DIR: schemaDir, BACKUP_DIR: join(dir, 'backups') })
  const killed = await migrate(env(dataDir), (line) => /^migrating 0001-enrollment-note: \d+ records/.test(line))
  t.equal(killed.signal, 'SIGKILL', `the first run is killed during the migration (${killed.lines.join(' | ')})`)
  const half = await outcome(dataDir)
  t.ok(half.revisions.size > 0 && half.records.some((r) => !r.includes('"note"')), `it stopped half-way: ${half.revisions.size} of ${half.records.length} migrated`)

  const resumed = await migrate(env(dataDir))
  t.equal(resumed.code, 0, `the next run ends (${resumed.lines.at(-1)})`)
  t.match(resumed.lines.at(-1), /applied 0001-enrollment-note/)
  const uninterrupted = await migrate(env(control))
  t.equal(uninterrupted.code, 0, 'a run never interrupted ends too')

  const [after, expected] = [await outcome(dataDir), await outcome(control)]
  t.equal(after.records.length, 4720, 'every enrollment is there')
  t.same(after.records, expected.records, 'the records are exactly those of the uninterrupted run')
  t.ok(after.records.every((r) => r.includes('"note":"none"')), 'each has its note')
  t.same([...after.revisions.values()].filter((n) => n !== 1), [], 'each record changed once, with one revision')
  t.equal(after.revisions.size, expected.revisions.size, 'as many as the uninterrupted run wrote')
})
