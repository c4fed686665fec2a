import t from 'tap'
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
