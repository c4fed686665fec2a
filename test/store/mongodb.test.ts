import t from 'tap'
import { MongoStore } from '../../src/store/mongo/store.js'
import { storeContract } from './contract.js'

const url = process.env.MONGODB_URL

if (!url) {
  console.log('# MongoDB half of the store contract not run: set MONGODB_URL (see README) to run it')
  t.comment('MongoDB half of the store contract not run: MONGODB_URL is not set')
} else {
  let n = 0
  storeContract(t, async (t) => {
    const store = await MongoStore.open(url, `adks_contract_${process.pid}_${n++}`)
    t.teardown(async () => {
      await store.dropDatabase()
      await store.close()
    })
    return store
  })
}
