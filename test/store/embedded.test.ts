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
