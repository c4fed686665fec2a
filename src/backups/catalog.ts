import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Store } from '../store/port.js'
import type { Manifest } from './archive.js'
import { backupFilePattern } from './files.js'

/**
 * What the service knows of each backup beyond its file: who made it, its counts, when it was last
 * verified. Bookkeeping of the service's own, beside the records, so no revision or audit is kept of it.
 * The files in BACKUP_DIR are the truth; a record whose file is gone is left out of the list.
 */
export const backupsCollection = 'backups'

export interface MadeBy {
  /** `schedule`: the scheduled job; `admin`: POST /api/admin/backups. */
  readonly kind: 'schedule' | 'admin'
  readonly user: string | null
  readonly email: string | null
}

export type BackupRecord = {
  /** The file's name in BACKUP_DIR. */
  _id: string
  /** The moment the backup is consistent to (its manifest's). */
  created_at: string
  bytes: number
  /** These three are null for a file only known to be refused: its manifest was never read. */
  encrypted: boolean | null
  documents: number | null
  collections: Record<string, number> | null
  /** Null for a file the service found (made by `npm run backup`, or copied in) and only verified. */
  made_by: MadeBy | null
  job: string | null
  verified_at: string | null
  /** Why the last verification refused the file; null once one passes. */
  verify_error: string | null
}

const partialPattern = new RegExp(backupFilePattern.source.replace(/\$$/, '\\.partial$'))
/** A partial file untouched this long was left by a backup that died; one being written is touched every few thousand documents. */
const abandonedAfterMs = 60 * 60 * 1000

/**
 * The backups in the directory, newest first (their names sort as they were made); none when it does
 * not exist or is not a directory (the backup job's failure says so).
 */
export async function backupFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => backupFilePattern.test(name)).sort().reverse()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return []
    throw error
  }
}

/** `adks-2026-01-02T03-04-05-678Z.backup` was named at 2026-01-02T03:04:05.678Z. */
export function namedAt(file: string): string {
  const [, date, h, m, s, ms] = /^adks-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z/.exec(file)!
  return `${date}T${h}:${m}:${s}.${ms}Z`
}

export function countsOf(manifest: Manifest): { documents: number; collections: Record<string, number> } {
  const collections = Object.fromEntries(Object.entries(manifest.collections).map(([name, digest]) => [name, digest.count]))
  return { documents: Object.values(collections).reduce((sum, count) => sum + count, 0), collections }
}

/** The record of a file whose manifest was just written or read in full. */
export function recordOf(file: string, bytes: number, manifest: Manifest, made: Pick<BackupRecord, 'made_by' | 'job' | 'verified_at'>): BackupRecord {
  return { _id: file, created_at: manifest.created_at, bytes, encrypted: manifest.encrypted, ...countsOf(manifest), ...made, verify_error: null }
}

/** What is known of a file without reading it through: its name, size and header. */
export function unreadRecord(file: string, bytes: number, encrypted: boolean | null): BackupRecord {
  return {
    _id: file, created_at: namedAt(file), bytes, encrypted, documents: null, collections: null,
    made_by: null, job: null, verified_at: null, verify_error: null,
  }
}

/**
 * Keeps the newest `keep` backups of the directory and removes the rest with their records, and any
 * partial file a backup that died left behind. Answers the names removed.
 */
export async function pruneBackups(store: Store, dir: string, keep: number, now: Date): Promise<string[]> {
  const doomed = (await backupFiles(dir)).slice(keep)
  for (const name of doomed) await rm(join(dir, name), { force: true })
  if (doomed.length) await store.collection<BackupRecord>(backupsCollection).deleteMany({ _id: { $in: doomed } })
  for (const name of (await readdir(dir)).filter((n) => partialPattern.test(n))) {
    const path = join(dir, name)
    const touched = await stat(path).then((s) => s.mtimeMs, () => now.getTime())
    if (now.getTime() - touched > abandonedAfterMs) await rm(path, { force: true })
  }
  return doomed
}
