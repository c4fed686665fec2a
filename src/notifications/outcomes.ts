import { backupJob } from '../backups/jobs.js'
import type { JobDriver, JobView } from '../jobs/port.js'
import type { Carried, EventLog, OutcomeEvent } from './event-log.js'

/** An outcome addressed to the department admins: they are named when it is written. */
export type AdminEvent = Omit<OutcomeEvent, 'recipients'>

/** Where the features write their outcome events; each feature declares the shape it writes. */
export interface OutcomeSinks {
  /** Campus syncs' events (completed, refused), to the department admins, carried by their SyncRun record. */
  readonly syncs: { carry(event: AdminEvent): Promise<Carried> }
  /** Publication imports' events, each naming its own recipients, carried by their PublicationImportRun record. */
  readonly imports: { carry(event: OutcomeEvent): Carried }
  /** Records' restores and runs' reverts (docs/history.md), to the department admins. */
  readonly records: { record(event: AdminEvent): Promise<void> }
  /** Backups made or failed (docs/operations.md), to the department admins. */
  readonly backups: { record(event: AdminEvent): Promise<void> }
}

/**
 * The notifications queue's own sends are left out: their failures are kept on their deliveries (the
 * email status, the webhook log), and a notice of them would go out through the same channels that
 * failed, feeding itself.
 */
const untold: ReadonlySet<string> = new Set(['notifications'])

/** Jobs that tell their own failure, with more than `job.failed` says (backup.failed names the reason). */
const toldByThemselves: ReadonlySet<string> = new Set([`maintenance/${backupJob}`])

/**
 * The event of a job that failed for good. Never its error text, which may quote whatever the job read;
 * the admins read it on the job's page. The key is the job and when it failed, so a job an admin retried
 * that fails again is told again, and one failure is told once.
 */
export function jobFailedEvent(job: JobView): AdminEvent {
  const failedAt = job.finished_at ? Date.parse(job.finished_at) : undefined
  return {
    key: failedAt === undefined ? job.id : `${job.id}@${failedAt}`,
    type: 'job.failed', source: '/api/admin/jobs', subject: job.id,
    title: `Job ${job.queue}/${job.name} failed`,
    link: '/admin/jobs',
    data: { job: job.id, queue: job.queue, name: job.name, attempts: job.attempts },
  }
}

/**
 * Wires the outcome events (docs/notifications.md) into the event log: a job failing for good (told by the job
 * driver of the process that ran it), and the sinks the features write their runs' events to.
 */
export function wireOutcomes(log: EventLog, jobs: JobDriver, admins: () => Promise<string[]>): OutcomeSinks {
  const toAdmins = async (event: AdminEvent) => log.record({ ...event, recipients: await admins() })
  jobs.onFailed(async (job) => {
    if (!untold.has(job.queue) && !toldByThemselves.has(`${job.queue}/${job.name}`)) await toAdmins(jobFailedEvent(job))
  })
  const carried = async (event: AdminEvent) => log.carry('SyncRun', [{ ...event, recipients: await admins() }])
  return { syncs: { carry: carried }, imports: { carry: (event) => log.carry('PublicationImportRun', [event]) }, records: { record: toAdmins }, backups: { record: toAdmins } }
}
