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

t.test('a schedule upserted again unchanged keeps its next time: a restart does not run a daily job again', async (t) => {
  let driver: EmbeddedJobDriver | undefined
  let store: EmbeddedStore | undefined
  const dir = await tempDir(t, async () => {
    await driver?.close()
    await store?.close()
  })
  store = await EmbeddedStore.open(dir)
  driver = await EmbeddedJobDriver.open(store, { log, pollMs: 20, leaseMs: 500, closeGraceMs: 2000 })
  const day = 24 * 60 * 60 * 1000
  const runs = async () => (await driver!.list({ queue: 'maintenance', limit: 100, offset: 0 })).items.filter((job) => job.name === 'daily').length
  const next = async () => (await driver!.schedulers('maintenance')).find((s) => s.id === 'daily')!.next_run
  // A new interval fires at once, as on BullMQ; wait until that run is enqueued and the next is a day away.
  await driver.upsertScheduler('maintenance', { id: 'daily', every: day })
  for (let i = 0; i < 3000 && (await runs() < 1 || Date.parse(await next() ?? '') <= Date.now()); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  const scheduled = await next()
  t.equal(await runs(), 1, 'the new schedule ran once')
  // What every start of the service does.
  await driver.upsertScheduler('maintenance', { id: 'daily', every: day })
  await driver.upsertScheduler('maintenance', { id: 'daily', every: day })
  t.equal(await next(), scheduled, 'upserted again unchanged: the next run stays where it was')
  await driver.close()
  driver = await EmbeddedJobDriver.open(store, { log, pollMs: 20, leaseMs: 500, closeGraceMs: 2000 })
  await driver.upsertScheduler('maintenance', { id: 'daily', every: day })
  t.equal(await runs(), 1, 'and no second run was enqueued')
  await driver.upsertScheduler('maintenance', { id: 'daily', pattern: '0 3 * * *' })
  t.not(await next(), scheduled, 'a changed schedule is scheduled anew')
})
