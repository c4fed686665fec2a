import { mkdir } from 'node:fs/promises'
import { join, sep } from 'node:path'
import type { Config } from '../config.js'
import { checkpoint } from '../jobs/checkpoint.js'
import { PermanentJobError, type Enqueued, type JobContext, type JobDriver } from '../jobs/port.js'
import type { CompiledSchema } from '../schema/index.js'
import type { Store } from '../store/port.js'
import { BackupError } from './archive.js'
import { backupsCollection, countsOf, pruneBackups, recordOf, type BackupRecord, type MadeBy } from './catalog.js'
import { completedEvent, failedEvent, type BackupEvent } from './events.js'
import { backupFileName } from './files.js'
import { keyForWriting } from './keys.js'
import { takeBackup } from './take.js'

/** The job, and its scheduler's id, on the maintenance queue. */
export const backupJob = 'backup'
const queue = 'maintenance'

export interface BackupDeps {
  readonly store: Store
  readonly schema: CompiledSchema
  readonly config: Config
  readonly events?: { record(event: BackupEvent): Promise<void> }
  readonly now?: () => Date
}

/** Who asked: an admin's run carries them in its data; a scheduled run carries nothing. */
function madeBy(data: Record<string, unknown>): MadeBy {
  return typeof data.requested_by === 'string'
    ? { kind: 'admin', user: data.requested_by, email: typeof data.email === 'string' ? data.email : null }
    : { kind: 'schedule', user: null, email: null }
}

/**
 * What a failure says to the admins: the backup's own one line (a key, the file) or the file system's
 * (a full disk, a directory that cannot be written), paths inside BACKUP_DIR by their file name. Any
 * other fault's text could quote what it read, so only the job's error and the log carry it.
 */
export function reasonOf(error: unknown, dir: string): string {
  const system = typeof (error as NodeJS.ErrnoException).syscall === 'string'
  const text = error instanceof BackupError || system ? (error as Error).message : 'an unexpected fault; the job and the log say more'
  return text.split(`${dir}${sep}`).join('').replace(/\s+/g, ' ').slice(0, 300)
}

/**
 * Writes a backup of the running service's store into BACKUP_DIR, its progress the documents written,
 * then keeps the newest BACKUP_KEEP files. A failure is not retried (the file is begun anew by the next
 * run or by an admin): the job fails at once and the admins are told why.
 */
export function backupHandler(deps: BackupDeps) {
  const now = deps.now ?? (() => new Date())
  return async (context: JobContext): Promise<Record<string, unknown>> => {
    const { dir, keep } = deps.config.backups
    const startedAt = now()
    const file = backupFileName(startedAt)
    try {
      await mkdir(dir, { recursive: true })
      const { store } = deps
      const taken = await takeBackup({ kind: store.kind, snapshot: () => store.snapshot(), store }, {
        file: join(dir, file), key: await keyForWriting(deps.config), schema: deps.schema,
        progress: async (done, total) => {
          checkpoint(context.signal)
          await context.progress(total ? Math.floor((100 * done) / total) : 0, `${done} of ${total} documents written`, { processed: done, total })
        },
      })
      const record = recordOf(file, taken.bytes, taken.manifest, { made_by: madeBy(context.data), job: context.id, verified_at: null })
      await store.collection<BackupRecord>(backupsCollection).upsertOne({ _id: file }, record)
      const removed = await pruneBackups(store, dir, keep, now())
      const { documents } = countsOf(taken.manifest)
      await context.progress(100, `${documents} documents written${removed.length ? `; ${removed.length} older backups removed` : ''}`, { processed: documents, total: documents })
      const { encrypted } = taken.manifest
      await deps.events?.record(completedEvent({ file, documents, bytes: taken.bytes, encrypted }))
      return { file, bytes: taken.bytes, documents, encrypted, removed }
    } catch (error) {
      // Stopped by a shutdown: the job goes back to the queue and begins a new file when it runs again.
      if (context.signal.aborted) throw error
      const reason = reasonOf(error, dir)
      context.log.error('the backup failed', { err: error })
      // The job's own failure is what matters; an event that cannot be written is only logged.
      await deps.events?.record(failedEvent({ job: context.id, startedAt, reason }))
        .catch((eventError: unknown) => context.log.error('the backup.failed event could not be written', { err: eventError }))
      throw new PermanentJobError((error as Error).message ?? String(error))
    }
  }
}

export function registerBackupJobs(jobs: JobDriver, deps: BackupDeps): void {
  jobs.register(queue, { [backupJob]: backupHandler(deps) })
}

/** An admin's backup; asking again while one waits or runs gets that job. */
export function enqueueBackup(jobs: JobDriver, by: { readonly user: string; readonly email: string }): Promise<Enqueued> {
  return jobs.enqueue(queue, backupJob, { requested_by: by.user, email: by.email }, { dedupKey: backupJob })
}

/**
 * The scheduled backup, every BACKUP_EVERY, upserted beside the maintenance jobs at start-up (server.ts,
 * worker.ts); BACKUP_EVERY=0 removes one an earlier start scheduled.
 */
export async function scheduleBackups(jobs: JobDriver, config: Config): Promise<void> {
  if (config.backups.everyMs > 0) await jobs.upsertScheduler(queue, { id: backupJob, every: config.backups.everyMs })
  else await jobs.removeScheduler(queue, backupJob)
}

/** When the scheduled backup runs next; null when none is scheduled. */
export async function nextBackup(jobs: JobDriver): Promise<string | null> {
  return (await jobs.schedulers(queue)).find((s) => s.id === backupJob)?.next_run ?? null
}

/** The backup job waiting or running, if any. */
export async function pendingBackup(jobs: JobDriver): Promise<string | null> {
  for (const state of ['active', 'waiting', 'delayed'] as const) {
    const { items } = await jobs.list({ queue, state, limit: 100, offset: 0 })
    const found = items.find((job) => job.name === backupJob)
    if (found) return found.id
  }
  return null
}
