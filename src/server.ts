import closeWithGrace from 'close-with-grace'
import { buildApp } from './app.js'
import { ConfigError, loadConfig } from './config.js'
import { scheduleMaintenanceJobs } from './jobs/maintenance.js'
import { SchemaError } from './schema/index.js'

async function main(): Promise<void> {
  const config = loadConfig()
  const app = await buildApp(config)
  // Stop accepting, let in-flight requests finish, then close the store and the rest via onClose hooks.
  closeWithGrace({ delay: config.shutdownGraceMs }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error')
    else app.log.info({ signal }, 'shutting down')
    await app.close()
  })
  await app.listen({ port: config.port, host: config.host })
  // On the embedded driver no worker process exists to set up the maintenance schedules (npm run worker
  // does on BullMQ); upserting them again at each start changes nothing.
  if (app.jobs.kind === 'embedded') await scheduleMaintenanceJobs(app.jobs, app.maintenance)
}

main().catch((error: unknown) => {
  // Configuration and schema faults are the operator's to fix: one clear line, no stack.
  if (error instanceof ConfigError || error instanceof SchemaError) console.error(error.message)
  else console.error(error)
  process.exit(1)
})
