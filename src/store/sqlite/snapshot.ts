import BetterSqlite3 from 'better-sqlite3'
import { existsSync } from 'node:fs'
import { setImmediate as yieldToOthers } from 'node:timers/promises'
import type { StoreSnapshot } from '../port.js'
import type { Database } from './database.js'
import { quoteName } from './sql.js'

/** Rows read between two turns given back to the event loop, so a service taking its own backup keeps serving. */
const rowsPerTurn = 2000

/** Tables of documents, as collection.ts makes them: the collections, not their key tables or the store's own. */
export function documentTables(db: Database): string[] {
  const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string; sql: string }[]
  return tables.filter(({ name, sql }) => !name.includes('#') && !name.startsWith('adks_') && /\(_id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL\)/.test(sql)).map(({ name }) => name)
}

/**
 * Every collection of the database at `path` as of one moment: a connection of its own holds one read
 * transaction for the whole backup. In WAL mode that reader waits for no writer and no writer waits for
 * it (the log only grows until the reader is done), so the service keeps serving, in this process or
 * another, and the backup sees each commit made before it began and none after. A stored document is
 * JSON with no `$` keys, which is already relaxed Extended JSON: the lines are the stored text.
 */
export async function openSnapshot(path: string): Promise<StoreSnapshot> {
  if (!existsSync(path)) throw new Error(`${path}: no embedded store here (DATA_DIR)`)
  const db = new BetterSqlite3(path, { fileMustExist: true, timeout: 5000 })
  try {
    db.pragma('query_only = true')
    const at = new Date()
    db.exec('BEGIN')
    // The snapshot is fixed by the transaction's first read, not by BEGIN.
    const collections = documentTables(db)
    return {
      at,
      exact: true,
      collections,
      async count(collection: string) {
        return collections.includes(collection) ? db.prepare(`SELECT count(*) FROM ${quoteName(collection)}`).pluck().get() as number : 0
      },
      async *lines(collection: string) {
        if (!collections.includes(collection)) return
        let read = 0
        for (const text of db.prepare(`SELECT doc FROM ${quoteName(collection)} ORDER BY _id`).pluck().iterate() as IterableIterator<string>) {
          yield text
          if (++read % rowsPerTurn === 0) await yieldToOthers()
        }
      },
      async close() {
        if (!db.open) return
        if (db.inTransaction) db.exec('COMMIT')
        db.close()
      },
    }
  } catch (error) {
    db.close()
    throw error
  }
}
