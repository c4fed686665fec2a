import closeWithGrace from 'close-with-grace'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { signInLink } from './auth/custom-token.js'
import { signingKeys } from './auth/keys.js'
import type { UserRecord } from './auth/users.js'
import { ConfigError, loadConfig, type Config } from './config.js'
import { scheduleMaintenanceJobs } from './jobs/maintenance.js'
import { SchemaEvolutionError } from './migrations/errors.js'
import { SchemaError } from './schema/index.js'
import { DataDirInUseError } from './store/port.js'

/**
 * On the embedded defaults without single sign-on, outside production, the last line is a sign-in link
 * for the sample department's admin, so a newcomer's first command ends with a way into the web app.
 */
async function announceSignIn(app: FastifyInstance, config: Config): Promise<void> {
  if (config.saml || config.nodeEnv === 'production' || config.mongodbUrl) return
  const admin = await app.store.collection<UserRecord>('users').findOne({ role: 'admin' })
  if (admin) console.log(`Sign in: ${signInLink(await signingKeys(config), config, { sub: admin._id, email: admin.email })}`)
}

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
  if (app.jobs.kind === 'embedded') {
    await scheduleMaintenanceJobs(app.jobs, app.maintenance, app.notifications.schedules)
    await app.backups.schedule()
  }
  await announceSignIn(app, config)
}

main().catch((error: unknown) => {
  // Configuration, schema and data-directory faults are the operator's to fix: one clear line, no stack.
  if (error instanceof ConfigError || error instanceof SchemaError || error instanceof DataDirInUseError || error instanceof SchemaEvolutionError) console.error(error.message)
  else console.error(error)
  process.exit(1)
})
