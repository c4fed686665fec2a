import { join } from 'node:path'
import t from 'tap'
import { linesAsOfMoment } from '../../src/backups/moment.js'
import { revisionsCollection, type Revision } from '../../src/history/revision.js'
import { pendingField } from '../../src/history/writes.js'
import { RecordService } from '../../src/records/service.js'
import { compileSchema } from '../../src/schema/index.js'
import type { Doc, StoreSnapshot } from '../../src/store/port.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { tempDir } from '../helpers/temp-dir.js'
import { projectRoot } from '../process/server-process.js'
import { testActor } from '../helpers/actor.js'

/**
 * A store read collection by collection (MongoDB's snapshot) is brought back to its moment through the
 * revisions (backups/moment.ts), those a write still carries in its outbox (history/writes.ts) included:
 * MongoDB's states are made here on the embedded store, whose records the moment reads the same way.
 */

const stamps = ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:03.000Z']
const moment = new Date('2026-01-01T00:00:01.000Z')

t.test('a write after the moment whose revision is still in its outbox is walked back, or left out, by that revision', async (t) => {
  let store: EmbeddedStore | undefined
  const dir = await tempDir(t, async () => store?.close())
  const schema = await compileSchema(join(projectRoot, 'schema'))
  store = await EmbeddedStore.open(dir, schema.collections.map((c) => c.name))
  let clock = 0
  const records = new RecordService(store, schema, () => new Date(stamps[clock]!))
  const people = store.collection('people')
  const revisions = store.collection<Revision>(revisionsCollection)
  /** The revision of the record's last write moved back into the record, as a write cut short on MongoDB leaves it. */
  const unsettle = async (id: string, version: number) => {
    const revision = (await revisions.findById(`${id}@${version}`))!
    await revisions.deleteOne({ _id: revision._id })
    await people.updateOne({ _id: id }, { $set: { [pendingField]: revision } })
  }

  const ada = await records.create('Faculty', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@dept.example.edu' }, { actor: testActor })
  const kay = await records.create('Faculty', { first_name: 'Kay', last_name: 'Before', email: 'kay@dept.example.edu' }, { actor: testActor })
  const asAtMoment = await people.findById(ada._id)
  await unsettle(kay._id, 1)
  const kayCarrying = await people.findById(kay._id)
  clock = 1
  await records.update(ada._id, { phone: '555-0100' }, { actor: testActor })
  await unsettle(ada._id, 2)
  clock = 2
  const late = await records.create('Faculty', { first_name: 'Lee', last_name: 'Later', email: 'lee@dept.example.edu' }, { actor: testActor })
  await unsettle(late._id, 1)

  const exact = await store.snapshot()
  t.teardown(() => exact.close())
  const snapshot: StoreSnapshot = { ...exact, at: moment, exact: false }
  const read: Doc[] = []
  for await (const line of linesAsOfMoment(snapshot, store, schema, 'people')) read.push(JSON.parse(line) as Doc)
  const byId = new Map(read.map((doc) => [doc._id, doc]))
  t.same(byId.get(ada._id), asAtMoment, 'updated after the moment: as it was then, without the newer write\'s revision')
  t.notOk(byId.has(late._id), 'created after the moment: left out')
  t.same(byId.get(kay._id), kayCarrying, 'written before the moment: as read, its own revision still carried for the restored service to settle')
})
