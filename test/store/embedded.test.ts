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
