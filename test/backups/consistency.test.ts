import { join } from 'node:path'
import t, { type Test } from 'tap'
import type { CompiledSchema } from '../../src/schema/index.js'
import { takeBackup, type BackupSource } from '../../src/backups/take.js'
import type { StoreSnapshot } from '../../src/store/port.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import { archiveContents, envOf, mongodbUrl, newKey, runScript, type Contents } from './tools.js'
import { danglingReferences, revisionsAgree, Writer, writesIn, type Ack } from './writer.js'

/**
 * A backup taken while the service writes is consistent to one moment (docs/operations.md): every write
 * acknowledged before it began is in it, and nothing newer than its moment sits beside what it
 * references. On the embedded store the snapshot is one read transaction; with MONGODB_URL set, the
 * collections are read in turn and brought back to the moment through the revisions (backups/moment.ts).
 */

// A thousand writes through the routes, twice; on FerretDB each takes tens of milliseconds.
t.setTimeout(900_000)

const writes = 1000
const kind = mongodbUrl ? 'MongoDB' : 'embedded'
const { hex, key } = newKey()

async function department(t: Test) {
  const setup = await buildTestApp(t)
  const admin = setup.as('ops@dept.example.edu', 'admin')
  const people: string[] = []
  for (let i = 0; i < 12; i++) {
    people.push((await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: `F${i}`, last_name: 'Writer', email: `f${i}@dept.example.edu` } })).json().id as string)
  }
  const course = (await admin({ method: 'POST', url: '/api/courses', payload: { course_code: 'ZZ 100', title: 'Base', credits: 3 } })).json()._id as string
  return { ...setup, writer: new Writer(admin, people, course) }
}

function consistent(t: Test, contents: Contents, schema: CompiledSchema, acks: readonly Ack[], before: number, moment?: number): void {
  t.same(writesIn(contents, acks, before, moment), [], `each of the ${before} writes acknowledged before the backup began is in it, and each record is as a write answered it`)
  t.same(danglingReferences(contents, schema), [], 'every reference in it names a record in it')
  t.same(revisionsAgree(contents, schema), [], 'each record is what its revisions in it make, at their last version')
}

/** The snapshot, its reads held up before each collection and after each one's first document until `writer` has made `per` more writes. */
function pausing(snapshot: StoreSnapshot, writer: Writer, per: number): StoreSnapshot {
  return {
    ...snapshot,
    async *lines(collection: string) {
      await writer.more(per)
      let first = true
      for await (const line of snapshot.lines(collection)) {
        yield line
        if (first) await writer.more(per)
        first = false
      }
    },
  }
}

t.test(`a backup whose reads writes land between and within (${kind})`, async (t) => {
  const { app, writer } = await department(t)
  const file = join(await tempDir(t), 'during.backup')
  const writing = writer.run(writes)
  await writer.more(200)
  const before = writer.acks.length
  const store = app.store
  const source: BackupSource = { kind: store.kind, snapshot: async () => pausing(await store.snapshot(), writer, 10), ...(store.kind === 'mongodb' ? { store } : {}) }
  const taken = await takeBackup(source, { file, key, schema: app.schema })
  const after = writer.acks.length
  await writing
  t.ok(after - before >= 200, `${after - before} writes acknowledged while the backup read`)
  t.equal(taken.manifest.store, store.kind)
  consistent(t, await archiveContents(file, [key]), app.schema, writer.acks, before, Date.parse(taken.manifest.created_at))
})

t.test(`npm run backup beside the service on the ${kind} store while it writes`, async (t) => {
  const { app, config, writer } = await department(t)
  const file = join(await tempDir(t), 'beside.backup')
  let finished!: () => void
  const backedUp = new Promise<void>((resolve) => { finished = resolve })
  // The writer goes on until the script has exited, so the whole backup runs beside its writes.
  const writing = writer.run(writes, backedUp)
  await writer.more(200)
  const before = writer.acks.length
  const run = await runScript('backup', ['--out', file], { ...envOf(config), BACKUP_KEY: hex }).finally(finished)
  await writing
  t.equal(run.code, 0, run.stderr)
  t.ok(writer.acks.length >= writes, `${writer.acks.length} writes, ${writer.acks.length - before} of them after the script started`)
  consistent(t, await archiveContents(file, [key]), app.schema, writer.acks, before)
})
