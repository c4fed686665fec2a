/**
 * An indexed field of the embedded store that comes to hold arrays once documents are stored: its
 * conditions move to the keys table, which must then hold every stored document's values. A converted
 * data directory meets this at its first start (indexes are made after the documents went in), and any
 * collection does the first time an array is written into a field that held only scalars.
 */
import t, { type Test } from 'tap'
import type { Doc } from '../../src/store/port.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { tempDir } from '../helpers/temp-dir.js'

type Tagged = Doc & { tags?: string | string[] }

async function open(t: Test): Promise<EmbeddedStore> {
  let store: EmbeddedStore | undefined
  const dir = await tempDir(t, async () => store?.close())
  store = await EmbeddedStore.open(dir)
  return store
}

async function ids(store: EmbeddedStore, tag: string): Promise<string[]> {
  return (await store.collection<Tagged>('tagged').find({ tags: tag }, { sort: [['_id', 1]] })).map((doc) => doc._id)
}

t.test('an index made on a field stored documents already hold arrays in', async (t) => {
  const store = await open(t)
  await store.collection<Tagged>('tagged').insertMany([{ _id: 'a', tags: 'x' }, { _id: 'b', tags: ['x', 'y'] }])
  await store.ensureIndexes('tagged', [{ fields: ['tags'] }])
  t.same(await ids(store, 'x'), ['a', 'b'], 'finds the scalar and the array element')
  t.same(await ids(store, 'y'), ['b'])
})

t.test('an array written into an indexed field that held only scalars', async (t) => {
  const store = await open(t)
  await store.ensureIndexes('tagged', [{ fields: ['tags'] }])
  const tagged = store.collection<Tagged>('tagged')
  await tagged.insertOne({ _id: 'a', tags: 'x' })
  await tagged.insertOne({ _id: 'b', tags: ['x', 'y'] })
  t.same(await ids(store, 'x'), ['a', 'b'], 'the documents stored before it are still found')
  t.same(await ids(store, 'y'), ['b'])
})

t.test('a write refused after its array reached an indexed field leaves reads on the field as they were', async (t) => {
  const store = await open(t)
  await store.ensureIndexes('tagged', [{ fields: ['tags'] }])
  const tagged = store.collection<Tagged>('tagged')
  await tagged.insertOne({ _id: 'a', tags: 'x' })
  await t.rejects(tagged.insertOne({ _id: 'a', tags: ['y'] }), { name: 'DuplicateKeyError' }, 'the duplicate is refused as one')
  t.same(await ids(store, 'x'), ['a'], 'the stored document is still found by its value')
  t.equal(await tagged.count({ tags: 'x' }), 1)
})
