import type { components } from '../api/schema.js'

export type Backup = components['schemas']['Backup']
export type BackupList = components['schemas']['BackupList']

const sizeUnits = ['B', 'KB', 'MB', 'GB', 'TB'] as const

/**
 * A file's size in decimal units (1 KB = 1000 bytes, as disks and `ls --si` count), one decimal below
 * 10 and none above, the same in every locale so the page and its test agree.
 */
export function sizeText(bytes: number): string {
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < sizeUnits.length - 1) {
    value /= 1000
    unit += 1
  }
  if (unit === 0) return `${bytes} B`
  const shown = value < 10 ? value.toFixed(1) : String(Math.round(value))
  // 999.6 KB rounds to 1000 KB: say 1.0 MB instead.
  return shown === '1000' && unit < sizeUnits.length - 1 ? `1.0 ${sizeUnits[unit + 1]}` : `${shown} ${sizeUnits[unit]}`
}

const spans = [
  { ms: 86_400_000, one: 'day' },
  { ms: 3_600_000, one: 'hour' },
  { ms: 60_000, one: 'minute' },
  { ms: 1_000, one: 'second' },
] as const

/** BACKUP_EVERY (milliseconds) in words, in the largest unit that divides it; null when nothing is scheduled. */
export function everyText(ms: number): string | null {
  if (ms <= 0) return null
  const span = spans.find((s) => ms % s.ms === 0) ?? spans[spans.length - 1]!
  const count = Math.round(ms / span.ms)
  return count === 1 ? `every ${span.one}` : `every ${count} ${span.one}s`
}

/** Who made a backup; a file the service has no record of (copied in, or made by `npm run backup`) by nobody known. */
export function madeByText(madeBy: Backup['made_by']): string {
  if (!madeBy) return 'Not known'
  if (madeBy.kind === 'schedule') return 'The schedule'
  return madeBy.email ?? madeBy.user ?? 'An admin'
}

export function encryptedText(encrypted: Backup['encrypted']): string {
  return encrypted === null ? 'Not a backup file' : encrypted ? 'Encrypted' : 'Not encrypted'
}

/** A backup job's result (POST /api/admin/backups, then GET /api/admin/jobs/:jobId). */
export interface BackupOutcome {
  readonly file: string
  readonly bytes: number
  readonly documents: number
  readonly removed: number
}

/** The job route types a result only as an object: its shape is checked before it is shown. */
export function backupOutcomeOf(result: unknown): BackupOutcome | null {
  if (typeof result !== 'object' || result === null) return null
  const { file, bytes, documents, removed } = result as Record<string, unknown>
  if (typeof file !== 'string' || typeof bytes !== 'number' || typeof documents !== 'number') return null
  return { file, bytes, documents, removed: Array.isArray(removed) ? removed.length : 0 }
}

/** What a finished backup job says, in one sentence. */
export function outcomeText(outcome: BackupOutcome): string {
  const documents = outcome.documents === 1 ? '1 document' : `${outcome.documents} documents`
  const removed = outcome.removed === 0 ? '' : outcome.removed === 1 ? ' The oldest backup was removed.' : ` The ${outcome.removed} oldest backups were removed.`
  return `Backed up ${documents} to ${outcome.file} (${sizeText(outcome.bytes)}).${removed}`
}
