/**
 * A backup's outcome as an event (docs/notifications.md, docs/operations.md), as backups state it; the department admins hear of
 * it, which is for whoever records it to say. Thin: the file, its counts and size, or the one-line reason.
 */
export interface BackupEvent {
  readonly key: string
  readonly type: 'backup.completed' | 'backup.failed'
  readonly source: string
  readonly subject: string
  readonly title: string
  readonly link: string
  readonly data: Record<string, unknown>
}

const source = '/api/admin/backups'
const link = '/admin/backups'

/** Keyed by the file, which names its moment, so a handler run again after writing it tells once. */
export function completedEvent(backup: { readonly file: string; readonly documents: number; readonly bytes: number; readonly encrypted: boolean }): BackupEvent {
  return {
    key: backup.file, type: 'backup.completed', source, subject: backup.file, link,
    title: `${backup.file}: ${backup.documents} documents, ${backup.bytes} bytes${backup.encrypted ? '' : ', not encrypted'}`,
    data: { file: backup.file, documents: backup.documents, bytes: backup.bytes, encrypted: backup.encrypted },
  }
}

/**
 * Keyed by the job and when its run began: a failed job an admin retries that fails again is told
 * again. The reason is the backup's own one line (a file, a key, the disk), never text read from records.
 */
export function failedEvent(failure: { readonly job: string; readonly startedAt: Date; readonly reason: string }): BackupEvent {
  return {
    key: `${failure.job}@${failure.startedAt.getTime()}`, type: 'backup.failed', source, subject: failure.job, link,
    title: failure.reason, data: { job: failure.job, error: failure.reason },
  }
}
