import { stat } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { BackupInvalid, BackupNotFound, hasStatus } from '../errors.js'
import type { Enqueued, JobDriver } from '../jobs/port.js'
import { BackupError, readArchive, readHeader } from './archive.js'
import { backupFiles, backupsCollection, recordOf, unreadRecord, type BackupRecord, type MadeBy } from './catalog.js'
import { backupFilePattern } from './files.js'
import { enqueueBackup, nextBackup, pendingBackup, scheduleBackups, type BackupDeps } from './jobs.js'
import { keysForReading } from './keys.js'

/** One file of BACKUP_DIR as the admins see it; what only its record or a verification tells is null without one. */
export interface BackupEntry {
  readonly file: string
  readonly bytes: number
  readonly created_at: string
  readonly encrypted: boolean | null
  readonly documents: number | null
  readonly collections: Readonly<Record<string, number>> | null
  readonly made_by: MadeBy | null
  readonly job_id: string | null
  readonly verified_at: string | null
  readonly verify_error: string | null
}

export interface BackupList {
  readonly items: BackupEntry[]
  readonly settings: { readonly dir: string; readonly keep: number; readonly every: number }
  readonly next_run: string | null
  readonly running_job: string | null
}

/** Backups as an operation of the running service (docs/operations.md): start one, list them, verify one. */
export class Backups {
  private readonly now: () => Date

  constructor(private readonly deps: BackupDeps & { readonly jobs: JobDriver }) {
    this.now = deps.now ?? (() => new Date())
  }

  private get records() {
    return this.deps.store.collection<BackupRecord>(backupsCollection)
  }

  private get dir(): string {
    return this.deps.config.backups.dir
  }

  start(by: { readonly user: string; readonly email: string }): Promise<Enqueued> {
    return enqueueBackup(this.deps.jobs, by)
  }

  /** Sets up (or, with BACKUP_EVERY=0, removes) the scheduled backup; where the maintenance jobs are scheduled. */
  schedule(): Promise<void> {
    return scheduleBackups(this.deps.jobs, this.deps.config)
  }

  async list(): Promise<BackupList> {
    const names = await backupFiles(this.dir)
    const records = new Map((names.length ? await this.records.find({ _id: { $in: names } }) : []).map((r) => [r._id, r]))
    const entries = await Promise.all(names.map((name) => this.entry(name, records.get(name) ?? null)))
    const { keep, everyMs } = this.deps.config.backups
    return {
      items: entries.filter((e) => e !== null),
      settings: { dir: this.dir, keep, every: everyMs },
      next_run: await known(() => nextBackup(this.deps.jobs)),
      running_job: await known(() => pendingBackup(this.deps.jobs)),
    }
  }

  /**
   * Reads the whole file with the keys this service holds, checking every checksum (archive.ts), and
   * records the outcome. A file that does not check is a 422 naming what is wrong.
   */
  async verify(file: string): Promise<BackupEntry> {
    const path = this.pathOf(file)
    const size = await stat(path).then((s) => (s.isFile() ? s.size : null), () => null)
    if (size === null) throw new BackupNotFound(`No backup named ${file} in BACKUP_DIR`)
    const kept = await this.records.findById(file)
    try {
      const manifest = await readArchive(path, await keysForReading(this.deps.config))
      const record = recordOf(file, size, manifest, { made_by: kept?.made_by ?? null, job: kept?.job ?? null, verified_at: this.now().toISOString() })
      await this.records.upsertOne({ _id: file }, record)
      return entryOf(record, size)
    } catch (error) {
      if (!(error instanceof BackupError)) throw error
      const reason = error.message.split(`${this.dir}${sep}`).join('')
      const refused = { ...kept ?? unreadRecord(file, size, await encryptedOf(path)), verified_at: null, verify_error: reason }
      await this.records.upsertOne({ _id: file }, refused)
      throw new BackupInvalid(reason)
    }
  }

  private pathOf(file: string): string {
    // The route's pattern admits only backup names; checked again here, as this joins it to a path.
    if (!backupFilePattern.test(file)) throw new BackupNotFound(`${file} is not the name of a backup`)
    return join(this.dir, file)
  }

  private async entry(name: string, record: BackupRecord | null): Promise<BackupEntry | null> {
    const path = join(this.dir, name)
    const size = await stat(path).then((s) => s.size, () => null)
    if (size === null) return null
    return entryOf(record ?? unreadRecord(name, size, await encryptedOf(path)), size)
  }
}

/** Whether the file's header says it is encrypted; null when it has no header of a backup. */
function encryptedOf(path: string): Promise<boolean | null> {
  return readHeader(path).then(({ header }) => header.encryption !== null, () => null)
}

function entryOf(record: BackupRecord, bytes: number): BackupEntry {
  return {
    file: record._id, bytes, created_at: record.created_at, encrypted: record.encrypted, documents: record.documents,
    collections: record.collections, made_by: record.made_by, job_id: record.job, verified_at: record.verified_at, verify_error: record.verify_error,
  }
}

/** What the job queue says, or null while it cannot say (Redis down): the list of files does not depend on it. */
async function known<T>(ask: () => Promise<T | null>): Promise<T | null> {
  try {
    return await ask()
  } catch (error) {
    if (hasStatus(error, 503)) return null
    throw error
  }
}
