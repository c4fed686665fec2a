import t from 'tap'
import { join } from 'node:path'
import type { Doc } from '../../src/store/port.js'
import { Datastore } from '../../src/store/nedb/datastore.js'
import type { NedbCollection } from '../../src/store/nedb/collection.js'
import { EmbeddedStore } from '../../src/store/nedb/store.js'
import { tempDir } from '../helpers/temp-dir.js'
import { storeContract } from './contract.js'

storeContract(t, async (t) => {
  let store: EmbeddedStore | undefined
  const dir = await tempDir(t, async () => store?.close())
  store = await EmbeddedStore.open(dir)
  return store
})

t.test('acknowledged writes are on disk when the store is opened again', async (t) => {
  const stores: EmbeddedStore[] = []
  const dir = await tempDir(t, () => Promise.all(stores.map((s) => s.close())))
  const first = await EmbeddedStore.open(dir)
  await first.ensureIndexes('things', [{ fields: ['k'], unique: true }])
  await first.collection('things').insertOne({ _id: 'T/1', k: 1 })
  await first.collection('things').updateOne({ _id: 'T/1' }, { $set: { k: 2 } })
  await first.collection('things').insertOne({ _id: 'T/2', k: 3 })
  await first.collection('things').deleteOne({ _id: 'T/2' })
  // No close(): a killed process never compacts, so reopening must replay the appended log.
  const second = await EmbeddedStore.open(dir)
  stores.push(second)
  t.same(await second.collection('things').find({}), [{ _id: 'T/1', k: 2 }])
})

t.test('the embedded store counts each collection\'s writes once they are visible', async (t) => {
  let store: EmbeddedStore | undefined
  const dir = await tempDir(t, async () => store?.close())
  store = await EmbeddedStore.open(dir)
  const counts = store.writeCounts
  const things = store.collection('things')
  t.equal(counts.of('things'), 0)
  await things.insertOne({ _id: 'T/1', k: 1 })
  t.equal(counts.of('things'), 1, 'insert')
  await things.updateOne({ _id: 'T/1' }, { $set: { k: 2 } })
  await things.updateMany({}, { $set: { k: 3 } })
  await things.upsertOne({ _id: 'T/2' }, { _id: 'T/2', k: 4 })
  await things.deleteOne({ _id: 'T/2' })
  await things.deleteMany({})
  t.ok(counts.of('things') >= 6, 'every kind of write moves the count')
  t.equal(counts.of('others'), 0, 'other collections keep theirs')
  const pending = things.insertOne({ _id: 'T/3', k: 5 })
  const seen = counts.of('things')
  await pending
  t.ok(counts.of('things') > seen, 'the count moves when the write settles')
  t.same(await things.find({}), [{ _id: 'T/3', k: 5 }])
})

t.test('each write chooses its documents once the writes issued before it have applied', async (t) => {
  let store: EmbeddedStore | undefined
  const dir = await tempDir(t, async () => store?.close())
  store = await EmbeddedStore.open(dir)
  const things = store.collection('things')
  await things.insertMany([{ _id: 'T/1', k: 1 }, { _id: 'T/2', k: 1 }])
  // Issued together, without waiting: MongoDB gives no such order to concurrent operations, the embedded store does.
  const results = await Promise.all([
    things.updateOne({ _id: 'T/1' }, { $set: { k: 2 } }),
    things.deleteMany({ k: 2 }),
    things.updateMany({ k: 1 }, { $set: { k: 3 } }),
    things.upsertOne({ k: 3 }, { _id: 'T/9', k: 4 }),
  ])
  t.same(results, [{ _id: 'T/1', k: 2 }, 1, 1, undefined])
  t.same(await things.find({}), [{ _id: 'T/2', k: 4 }])
})

t.test('nedb keeps trees only for the indexes it enforces; the others narrow reads all the same', async (t) => {
  let store: EmbeddedStore | undefined
  const dir = await tempDir(t, async () => store?.close())
  store = await EmbeddedStore.open(dir)
  await store.ensureIndexes('things', [{ fields: ['k'], unique: true }, { fields: ['tag'] }, { fields: ['tag', 'k'] }])
  const things = store.collection('things') as NedbCollection<Doc>
  // nedb's typings leave out its index table.
  t.same(Object.keys((things.db as unknown as { indexes: object }).indexes).sort(), ['_id', 'k'], 'nedb: _id and the unique index')
  t.same((await store.indexes('things')).map((i) => i.fields.join()), ['_id', 'k', 'tag'], 'the store reports what it keeps')
  await things.insertMany([{ _id: 'T/1', k: 1, tag: 'a' }, { _id: 'T/2', k: 2, tag: 'b' }])
  t.same(await things.find({ tag: 'b' }), [{ _id: 'T/2', k: 2, tag: 'b' }])
  await t.rejects(things.insertOne({ _id: 'T/3', k: 1, tag: 'c' }), { name: 'DuplicateKeyError' })
})

t.test('an index a file declares but nedb need not keep is dropped at the load', async (t) => {
  let store: EmbeddedStore | undefined
  const dir = await tempDir(t, async () => store?.close())
  const old = new Datastore<Doc>({ filename: join(dir, 'things.db') })
  await old.loadDatabaseAsync()
  await old.ensureIndexAsync({ fieldName: 'tag' })
  await old.ensureIndexAsync({ fieldName: 'k', unique: true })
  await old.insertAsync({ _id: 'T/1', k: 1, tag: 'a' })
  store = await EmbeddedStore.open(dir, ['things'])
  const things = store.collection('things') as NedbCollection<Doc>
  t.same(await things.find({ tag: 'a' }), [{ _id: 'T/1', k: 1, tag: 'a' }])
  t.same(Object.keys((things.db as unknown as { indexes: object }).indexes).sort(), ['_id', 'k'])
})
