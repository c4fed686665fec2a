import closeWithGrace from 'close-with-grace'
import { pino } from 'pino'
import { ConfigError, loadConfig } from './config.js'
import { scheduleMaintenanceJobs } from './jobs/maintenance.js'
import { compileSchema } from './schema/index.js'
import { createServices } from './services.js'

/**
 * The background worker (`npm run worker`): runs every queue's jobs from BullMQ in Redis, on the API's
 * MongoDB store, with the same services and handlers as the API process. It needs both: an embedded
 * store belongs to the one API process that opened it (which then runs the jobs itself), and the
 * queues and schedules live in Redis so that any number of workers share them.
 */
async function main(): Promise<void> {
  const config = loadConfig()
  if (!config.redisUrl) throw new ConfigError('REDIS_URL', 'is required by the worker (its queue lives in Redis)')
  if (!config.mongodbUrl) throw new ConfigError('MONGODB_URL', 'is required by the worker (an embedded store belongs to the API process)')
  const log = pino({ level: config.logLevel, name: 'worker' })
  const schema = await compileSchema(config.schemaDir)
  const { services, close } = await createServices({ ...config, workers: 'inline' }, schema, log)
  await scheduleMaintenanceJobs(services.jobs, services.maintenance, services.notifications.schedules)
  await services.backups.schedule()
  await services.jobs.start()
  services.notifications.startUpSweep()
  log.info('worker started')
  closeWithGrace({ delay: config.shutdownGraceMs }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'worker shutting down after an error')
    else log.info({ signal }, 'worker shutting down')
    await close()
  })
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message)
  else console.error(error)
  process.exit(1)
})
