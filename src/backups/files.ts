import { join } from 'node:path'

/** The name a new backup gets in BACKUP_DIR: its moment, so that names sort as the backups were made. */
export function backupFileName(at: Date): string {
  return `adks-${at.toISOString().replace(/[:.]/g, '-')}.backup`
}

export const backupFilePattern = /^adks-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.backup$/

export function backupPath(dir: string, at: Date): string {
  return join(dir, backupFileName(at))
}
