import t from 'tap'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { tempDir } from '../helpers/temp-dir.js'
import { storeContract } from './contract.js'

storeContract(t, async (t) => {
  let store: EmbeddedStore | undefined
  const dir = await tempDir(t, async () => store?.close())
  store = await EmbeddedStore.open(dir)
  return store
})

t.test('a loop of awaited store calls lets the event loop run: a timer fires before the loop ends', async (t) => {
  let store: EmbeddedStore | undefined
  const dir = await tempDir(t, async () => store?.close())
  store = await EmbeddedStore.open(dir)
  const things = store.collection('things')
  await things.insertOne({ _id: 'T/1', k: 1 })
  let fired = false
  setImmediate(() => { fired = true })
  // Each call settles synchronously; without the store giving the loop a turn, the timer would wait for all of them.
  const calls = 200_000
  let at = 0
  for (; at < calls && !fired; at++) await things.findById('T/1')
  t.ok(fired && at < calls, `the timer ran after ${at} of ${calls} calls`)
})

t.test('a remembered page and count follow every kind of write', async (t) => {
  let store: EmbeddedStore | undefined
  const dir = await tempDir(t, async () => store?.close())
  store = await EmbeddedStore.open(dir)
  await store.ensureIndexes('things', [{ fields: ['k', '_id'] }, { fields: ['tag'] }])
  const things = store.collection('things')
  await things.insertMany([{ _id: 'T/1', k: 1, tag: 'a' }, { _id: 'T/2', k: 2, tag: 'a' }, { _id: 'T/3', k: 3, tag: 'b' }])
  const sort = [['k', 1], ['_id', 1]] as const
  const page = async () => (await things.view({ tag: 'a' }, { sort, limit: 2 })).map((doc) => doc._id)
  const total = () => things.count({ tag: 'a' })
  // Each step reads the page and count twice (the second from what was remembered), writes, and reads again.
  const steps: [string, () => Promise<unknown>, string[], number][] = [
    ['insertOne', () => things.insertOne({ _id: 'T/0', k: 0, tag: 'a' }), ['T/0', 'T/1'], 3],
    ['updateOne', () => things.updateOne({ _id: 'T/0' }, { $set: { k: 9 } }), ['T/1', 'T/2'], 3],
    ['updateMany', () => things.updateMany({ tag: 'b' }, { $set: { tag: 'a', k: -1 } }), ['T/3', 'T/1'], 4],
    ['upsertOne', () => things.upsertOne({ _id: 'T/4' }, { _id: 'T/4', k: -5, tag: 'a' }), ['T/4', 'T/3'], 5],
    ['deleteOne', () => things.deleteOne({ _id: 'T/4' }), ['T/3', 'T/1'], 4],
    ['deleteMany', () => things.deleteMany({ k: { $lt: 2 } }), ['T/2', 'T/0'], 2],
    ['insertMany', () => things.insertMany([{ _id: 'T/5', k: 1, tag: 'a' }]), ['T/5', 'T/2'], 3],
  ]
  for (const [write, run, ids, count] of steps) {
    await page(); await total(); await page(); await total()
    await run()
    t.same(await page(), ids, `the page after ${write}`)
    t.equal(await total(), count, `the count after ${write}`)
  }
})
