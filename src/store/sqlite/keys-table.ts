import type { Statement } from 'better-sqlite3'
import type { Doc } from '../port.js'
import type { Database } from './database.js'
import { keysOf, plainAt } from './keys.js'
import { jsonPath, quoteName } from './sql.js'

/**
 * A collection's keys table and the indexed fields it holds: those in which some document keeps an
 * array or an object (MongoDB's multikey fields), each with one row per scalar a document holds there.
 * The set of such fields is kept in `adks_multikey`, so that it outlives the process; in memory it
 * follows the database, a rolled-back write included (`reload`).
 */
export class KeysTable {
  /** The table's quoted name, for the conditions translate.ts writes. */
  readonly name: string
  private readonly fields = new Set<string>()

  constructor(
    private readonly collection: string,
    /** The collection's own table, quoted. */
    private readonly table: string,
    private readonly db: Database,
    private readonly prepare: (sql: string) => Statement,
  ) {
    this.name = quoteName(`${collection}#keys`)
    db.exec(`CREATE TABLE IF NOT EXISTS ${this.name} (field TEXT NOT NULL, kind INTEGER NOT NULL, value NOT NULL, id TEXT NOT NULL, PRIMARY KEY (field, kind, value, id)) WITHOUT ROWID`)
    db.exec(`CREATE INDEX IF NOT EXISTS ${quoteName(`${collection}#keys:id`)} ON ${this.name} (id)`)
    this.reload()
  }

  has(field: string): boolean {
    return this.fields.has(field)
  }

  /** After a write that rolled back: what the database says is multikey, not what the write had begun to add. */
  reload(): void {
    this.fields.clear()
    const fields = this.db.prepare<[string], string>('SELECT field FROM adks_multikey WHERE collection = ?').pluck().all(this.collection)
    for (const field of fields) this.fields.add(field)
  }

  /** For a field that has just come to lead an index: whether some stored document makes it multikey. */
  adoptIfHeld(field: string): void {
    const segments = field.split('.')
    const tests = segments.map((_, i) => {
      const path = jsonPath(segments.slice(0, i + 1).join('.'))
      return i === segments.length - 1 ? `json_type(doc, ${path}) IN ('array', 'object')` : `json_type(doc, ${path}) = 'array'`
    })
    if (this.db.prepare(`SELECT 1 FROM ${this.table} WHERE ${tests.join(' OR ')} LIMIT 1`).get() !== undefined) this.adopt(field)
  }

  /** Inside a write: an indexed field the document holds an array or object in becomes multikey. */
  noteShapes(doc: Doc, indexed: Iterable<string>): void {
    for (const field of indexed) {
      if (field !== '_id' && !this.fields.has(field) && !plainAt(doc, field)) this.adopt(field)
    }
  }

  /** From now on conditions on the field read this table, which is filled for every document first. */
  private adopt(field: string): void {
    this.fields.add(field)
    this.db.prepare('INSERT OR IGNORE INTO adks_multikey (collection, field) VALUES (?, ?)').run(this.collection, field)
    const insert = this.prepare(`INSERT OR IGNORE INTO ${this.name} (field, kind, value, id) VALUES (?, ?, ?, ?)`)
    // In pages by rowid: a connection cannot write while one of its reads is still being iterated.
    const page = this.prepare(`SELECT rowid, _id, doc FROM ${this.table} WHERE rowid > ? ORDER BY rowid LIMIT 1000`).raw()
    for (let after = 0, rows = page.all(after) as [number, string, string][]; rows.length; rows = page.all(after) as [number, string, string][]) {
      for (const [, id, text] of rows) {
        for (const [kind, value] of keysOf(JSON.parse(text) as Doc, field)) insert.run(field, kind, value, id)
      }
      after = rows.at(-1)![0]
    }
  }

  /** Inside a write: the document's rows, replacing those of its version before when it had one. */
  write(doc: Doc, replacing: boolean): void {
    if (replacing) this.remove(doc._id)
    if (!this.fields.size) return
    const insert = this.prepare(`INSERT OR IGNORE INTO ${this.name} (field, kind, value, id) VALUES (?, ?, ?, ?)`)
    for (const field of this.fields) {
      for (const [kind, value] of keysOf(doc, field)) insert.run(field, kind, value, doc._id)
    }
  }

  remove(id: string): void {
    if (this.fields.size) this.prepare(`DELETE FROM ${this.name} WHERE id = ?`).run(id)
  }
}
