import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import t from 'tap'
import { BullJobDriver } from '../../src/jobs/bullmq/driver.js'
import type { JobDriver, QueueName } from '../../src/jobs/port.js'
import { connectRequestPathRedis } from '../../src/redis/client.js'
import { jobContract } from './contract.js'

const redisUrl = 'redis://127.0.0.1:6379'
const log = { info: () => {}, warn: () => {}, error: () => {} }

/** Deletes every key under a prefix: each test keeps its queues under its own. */
async function removeKeys(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl)
  try {
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
      cursor = next
      if (keys.length) await redis.del(...keys)
    } while (cursor !== '0')
  } finally {
    redis.disconnect()
  }
}

jobContract(t, {
  kind: 'bullmq',
  async backing(t) {
    const prefix = `adks-test:${randomUUID()}:bull`
    const drivers: JobDriver[] = []
    const client = await connectRequestPathRedis(redisUrl, 'test-jobs')
    t.teardown(async () => {
      for (const driver of drivers) await driver.close()
      client.disconnect()
      await removeKeys(prefix)
    })
    return {
      async open(handlers, tuning = {}) {
        const driver = new BullJobDriver({
          client, redisUrl, prefix, log, runJobs: true, lockDuration: 1000, stalledInterval: 300, closeGraceMs: tuning.closeGraceMs ?? 2000,
        })
        for (const [queue, map] of Object.entries(handlers)) driver.register(queue as QueueName, map)
        await driver.start()
        drivers.push(driver)
        return driver
      },
    }
  },
  fixtureEnv(t) {
    const prefix = `adks-test:${randomUUID()}:bull`
    t.teardown(() => removeKeys(prefix))
    return { JOBS_DRIVER: 'bullmq', REDIS_URL: redisUrl, JOBS_PREFIX: prefix }
  },
})
