import { Queue } from 'bullmq'
import { Redis } from 'ioredis'
import closeWithGrace from 'close-with-grace'
import { pino } from 'pino'
import { Revocations, revokedTokensCollection } from './auth/revocations.js'
import { usageCollection } from './auth/api-keys/usage.js'
import { ConfigError, loadConfig } from './config.js'
import { maintenanceQueue, maintenanceWorker, scheduleMaintenance } from './jobs/maintenance.js'
import { AuditLog, auditCollection } from './privacy/audit-log.js'
import { openStore } from './store/open.js'

/**
 * The background worker: runs the maintenance jobs (see src/jobs/maintenance.ts) from a BullMQ queue in
 * Redis, on the API's MongoDB store. It needs both: an embedded store belongs to the one API process that
 * opened it, and the schedule lives in Redis so that any number of workers share it.
 */
async function main(): Promise<void> {
  const config = loadConfig()
  if (!config.redisUrl) throw new ConfigError('REDIS_URL', 'is required by the worker (its queue lives in Redis)')
  if (!config.mongodbUrl) throw new ConfigError('MONGODB_URL', 'is required by the worker (an embedded store belongs to the API process)')
  const log = pino({ level: config.logLevel, name: 'worker' })
  const store = await openStore(config, [revokedTokensCollection, usageCollection, auditCollection])
  // BullMQ's blocking commands must wait for Redis as long as it takes, unlike the API's fail-fast client.
  const connection = new Redis(config.redisUrl, { maxRetriesPerRequest: null, connectionName: 'adks-worker' })
  const prefix = `${config.redisPrefix}bull`
  const queue = new Queue(maintenanceQueue, { connection, prefix })
  await scheduleMaintenance(queue)
  const revocations = new Revocations(store)
  const worker = maintenanceWorker(connection, prefix, {
    store, revocations, auditLog: new AuditLog(store), usageRetentionDays: config.keyUsageRetentionDays, log,
  })
  log.info({ queue: maintenanceQueue }, 'worker started')
  closeWithGrace({ delay: config.shutdownGraceMs }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'worker shutting down after an error')
    else log.info({ signal }, 'worker shutting down')
    await worker.close()
    await queue.close()
    revocations.close()
    await store.close()
    connection.disconnect()
  })
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message)
  else console.error(error)
  process.exit(1)
})
