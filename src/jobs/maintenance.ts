import type { HandlerMap, JobDriver, QueueName, ScheduleSpec } from './port.js'

export const hour = 60 * 60 * 1000

/** A recurring housekeeping job a feature adds to the maintenance queue: how often it runs and what it does. */
export interface MaintenanceJob {
  readonly every: number
  /** Does the job's work as of `now`; what it returns becomes the job's result in the queue. */
  run(now: Date): Promise<Record<string, unknown>>
}

/** Maintenance jobs by name; the name is both the job's and its scheduler's. */
export type MaintenanceJobs = Readonly<Record<string, MaintenanceJob>>

/** The maintenance queue's handlers: one per job, each run as of the clock's time. */
export function maintenanceHandlers(tasks: MaintenanceJobs, now: () => Date = () => new Date()): HandlerMap {
  return Object.fromEntries(Object.entries(tasks).map(([name, task]) => [name, () => task.run(now())]))
}

/**
 * Upserts one scheduler per maintenance job (its id is the job's name) and the other recurring jobs
 * features ask for; running it again changes nothing.
 */
export async function scheduleMaintenanceJobs(jobs: JobDriver, tasks: MaintenanceJobs, others: readonly { readonly queue: QueueName; readonly spec: ScheduleSpec }[] = []): Promise<void> {
  for (const [name, { every }] of Object.entries(tasks)) await jobs.upsertScheduler('maintenance', { id: name, every })
  for (const { queue, spec } of others) await jobs.upsertScheduler(queue, spec)
}
