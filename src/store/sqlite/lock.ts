import Database from 'better-sqlite3'
import { join } from 'node:path'
import { DataDirInUseError } from '../port.js'

export interface DataDirLock {
  release(): void
}

/**
 * Holds the data directory for this process alone. The lock is SQLite's own file lock on `adks.lock`,
 * an exclusive transaction kept open: the operating system releases it when the process ends, killed
 * or not, so a crash never leaves a stale lock behind, and a second process (or a second store in this
 * one) is refused at once instead of writing beside the first, whose cache would then be wrong.
 */
export function lockDataDir(dir: string): DataDirLock {
  const db = new Database(join(dir, 'adks.lock'), { timeout: 0 })
  try {
    db.pragma('locking_mode = EXCLUSIVE')
    db.exec('BEGIN EXCLUSIVE')
  } catch (error) {
    db.close()
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirInUseError(dir)
    throw error
  }
  return {
    release: () => {
      if (!db.open) return
      db.exec('ROLLBACK')
      db.close()
    },
  }
}
