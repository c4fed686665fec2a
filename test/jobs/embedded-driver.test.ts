import t from 'tap'
import { EmbeddedJobDriver } from '../../src/jobs/embedded/driver.js'
import type { JobDriver, QueueName } from '../../src/jobs/port.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { tempDir } from '../helpers/temp-dir.js'
import { jobContract } from './contract.js'

const log = { info: () => {}, warn: () => {}, error: () => {} }

jobContract(t, {
  kind: 'embedded',
  async backing(t) {
    const drivers: JobDriver[] = []
    let store: EmbeddedStore | undefined
    const dir = await tempDir(t, async () => {
      for (const driver of drivers) await driver.close()
      await store?.close()
    })
    store = await EmbeddedStore.open(dir)
    const opened = store
    return {
      async open(handlers, tuning = {}) {
        const driver = await EmbeddedJobDriver.open(opened, { log, pollMs: 20, leaseMs: 500, closeGraceMs: tuning.closeGraceMs ?? 2000 })
        for (const [queue, map] of Object.entries(handlers)) driver.register(queue as QueueName, map)
        await driver.start()
        drivers.push(driver)
        return driver
      },
    }
  },
  fixtureEnv: () => ({ JOBS_DRIVER: 'embedded' }),
})
