import type { Config } from '../config.js'
import { connectRequestPathRedis } from '../redis/client.js'
import type { Store } from '../store/port.js'
import type { DriverLogger, JobDriver } from './port.js'

export interface JobsOptions {
  /** False: enqueue and answer only (the API with REDIS_URL and WORKERS off); true: also run jobs. */
  readonly runJobs: boolean
  /** How long closing waits for running jobs to reach a checkpoint. */
  readonly closeGraceMs: number
}

/**
 * The job driver the configuration asks for: BullMQ when REDIS_URL is set (its request-path client fails
 * fast, so a Redis outage answers 503 at once), else the embedded driver on the store. Each driver is
 * loaded only when used: BullMQ alone takes a noticeable part of start-up.
 */
export async function openJobs(config: Config, store: Store, log: DriverLogger, options: JobsOptions): Promise<JobDriver> {
  if (config.redisUrl) {
    const { BullJobDriver } = await import('./bullmq/driver.js')
    const client = await connectRequestPathRedis(config.redisUrl, 'jobs', { commandTimeout: 2000 })
    return new BullJobDriver({
      client, ownsClient: true, redisUrl: config.redisUrl, prefix: `${config.redisPrefix}bull`, log, runJobs: options.runJobs, closeGraceMs: options.closeGraceMs,
    })
  }
  const { EmbeddedJobDriver } = await import('./embedded/driver.js')
  return EmbeddedJobDriver.open(store, { log, runJobs: options.runJobs, closeGraceMs: options.closeGraceMs })
}
