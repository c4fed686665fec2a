import type { Database } from 'better-sqlite3'
import type { IndexSpec } from '../port.js'
import type { KeysTable } from './keys-table.js'
import { fieldExpression, quoteName } from './sql.js'

/**
 * The indexes of one collection of the embedded store: each an expression index on
 * `json_extract(doc, path)`, recorded in `adks_indexes` so that the next process knows them, and in
 * memory the fields that lead one (a condition on such a field is answered by SQL, on any other by the
 * predicate) and the fields of each unique index (to say what a constraint failure was about).
 *
 * Remembered: `specs`, `led` and the unique fields, read from `adks_indexes` when the collection is
 * opened. They change only through this object, `ensure` adding and `dropAll` with `forget` clearing,
 * and no other process writes the file (lock.ts), so nothing else can make them stale.
 * test/store/contract.ts ("collection names, drop, and a snapshot of every collection") shows a drop
 * clearing them.
 */
export class CollectionIndexes {
  /** The indexes kept, `_id`'s first, as the port's `indexes()` reports them. */
  readonly specs: IndexSpec[] = [{ fields: ['_id'], unique: true }]
  private readonly uniqueByName = new Map<string, readonly string[]>()
  /** Fields that lead an index. */
  readonly led = new Set<string>(['_id'])

  constructor(
    private readonly collection: string,
    /** The collection's own table, quoted. */
    private readonly table: string,
    private readonly db: Database,
    private readonly keys: KeysTable,
  ) {
    const specs = db.prepare<[string], string>('SELECT spec FROM adks_indexes WHERE collection = ? ORDER BY rowid').pluck().all(collection)
    for (const spec of specs) this.remember(JSON.parse(spec) as IndexSpec)
  }

  private nameOf(index: IndexSpec): string {
    const fields = index.fields.map((field) => (index.descending?.includes(field) ? `-${field}` : field))
    return `${index.unique ? 'unique' : 'index'}:${this.collection}:${fields.join(',')}`
  }

  private remember(index: IndexSpec): void {
    if (!this.specs.some((kept) => this.nameOf(kept) === this.nameOf(index))) this.specs.push(index)
    if (index.unique) this.uniqueByName.set(this.nameOf(index), index.fields)
    this.led.add(index.fields[0]!)
  }

  /** The fields of the unique index SQLite names in a constraint failure, if it is one of ours. */
  uniqueFields(sqliteName: string): readonly string[] | undefined {
    return this.uniqueByName.get(sqliteName)
  }

  /**
   * Creates the index unless it exists. A field that leads an index for the first time is looked at in
   * every stored document once, to learn whether some document holds an array or object there.
   */
  ensure(index: IndexSpec): void {
    const name = this.nameOf(index)
    const { db } = this
    const known = db.prepare('SELECT 1 FROM adks_indexes WHERE collection = ? AND name = ?').get(this.collection, name)
    if (known) return
    const columns = index.fields.map((field) => `${fieldExpression(field)}${index.descending?.includes(field) ? ' DESC' : ''}`)
    const lead = index.fields[0]!
    db.transaction(() => {
      // A sparse index leaves out the documents without its leading field, as MongoDB's does: every write
      // of one of those skips it (the trash and a run's writes among the revisions). SQLite uses such a
      // partial index for any comparison on that field, which implies the field is there.
      const partial = index.sparse ? ` WHERE ${fieldExpression(lead)} IS NOT NULL` : ''
      db.exec(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quoteName(name)} ON ${this.table} (${columns.join(', ')})${partial}`)
      db.prepare('INSERT INTO adks_indexes (collection, name, spec) VALUES (?, ?, ?)').run(this.collection, name, JSON.stringify(index))
      const wasLed = this.led.has(lead)
      this.remember(index)
      if (!wasLed && lead !== '_id') this.keys.adoptIfHeld(lead)
    })()
  }

  /** Drops every index but `_id`'s, inside the caller's transaction; `forget` then clears the memory of them. */
  dropAll(): void {
    const names = this.db.prepare<[string], string>('SELECT name FROM adks_indexes WHERE collection = ?').pluck().all(this.collection)
    for (const name of names) this.db.exec(`DROP INDEX IF EXISTS ${quoteName(name)}`)
    this.db.prepare('DELETE FROM adks_indexes WHERE collection = ?').run(this.collection)
  }

  forget(): void {
    this.specs.length = 1
    this.uniqueByName.clear()
    this.led.clear()
    this.led.add('_id')
  }
}
