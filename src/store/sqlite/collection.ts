import type { Database, Statement } from 'better-sqlite3'
import { assertUpdate } from '../filter-check.js'
import {
  DuplicateKeyError, StoreUnavailableError,
  type Collection, type Doc, type Filter, type FindOptions, type Frozen, type IndexSpec, type Update,
} from '../port.js'
import type { DocumentsCache } from './documents-cache.js'
import { CollectionIndexes } from './indexes.js'
import { QueryAnswers } from './query-answers.js'
import { KeysTable } from './keys-table.js'
import { always, compile, copyOf } from './match.js'
import { quoteName } from './sql.js'
import { orderBy, translateFilter, type FieldKinds } from './translate.js'
import type { Turns } from './turns.js'
import { applyUpdate } from './update.js'

/** What a collection shares with the rest of its store. */
export interface CollectionHost {
  readonly db: Database
  readonly cache: DocumentsCache
  /** A prepared statement for this SQL text, kept for the next query of the same shape. */
  prepare(sql: string): Statement
  /** Told after every write call, once its effect (if any) is visible to reads. */
  wrote(collection: string): void
  readonly turns: Turns
}

type Page = Omit<FindOptions, 'omit'>

/** SQLite's answers that mean the store cannot serve now, not that the request was wrong. */
const unavailable = /^SQLITE_(IOERR|FULL|CANTOPEN|BUSY|LOCKED|NOMEM|READONLY|CORRUPT|NOTADB)/

/**
 * One collection of the embedded store: a table of `(_id, doc)` rows, `doc` the document's JSON; its
 * indexes (indexes.ts), expression indexes on `json_extract(doc, path)`; and a keys table holding, for
 * each indexed field some document keeps an array or object in, one row per scalar it holds there
 * (SQLite has no multi-valued index, and MongoDB's "any element matches" needs one).
 *
 * better-sqlite3 runs each statement to completion before it returns, so every write here (choosing
 * its documents, then changing them, in one transaction) is atomic with respect to every other
 * operation of this process, and the process is the file's only writer (lock.ts): a compare-and-set on
 * `_id` and `_version` is exact without any queue.
 */
export class SqliteCollection<T extends Doc> implements Collection<T> {
  private readonly table: string
  private readonly keys: KeysTable
  private readonly indexBook: CollectionIndexes
  private readonly kinds: FieldKinds
  private readonly answers = new QueryAnswers()

  constructor(readonly name: string, private readonly host: CollectionHost) {
    this.table = quoteName(name)
    const { db } = host
    db.exec(`CREATE TABLE IF NOT EXISTS ${this.table} (_id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`)
    this.keys = new KeysTable(name, this.table, db, (sql) => this.statement(sql))
    this.indexBook = new CollectionIndexes(name, this.table, db, this.keys)
    const { led } = this.indexBook
    this.kinds = { indexed: (field) => led.has(field), multikey: (field) => this.keys.has(field), keys: this.keys.name }
  }

  /** The indexes kept, `_id`'s first, as `indexes()` reports them. */
  get indexes(): readonly IndexSpec[] {
    return this.indexBook.specs
  }

  ensureIndex(index: IndexSpec): void {
    this.indexBook.ensure(index)
  }

  private statement(sql: string): Statement {
    return this.host.prepare(sql)
  }

  // ---- reading

  /** Frozen documents by id, in the order given, from the cache or else the table (and then cached). */
  private frozenByIds(ids: readonly string[]): Frozen<T>[] {
    const docs: Frozen<T>[] = []
    for (const id of ids) {
      const cached = this.host.cache.get(this.name, id) as Frozen<T> | undefined
      if (!cached) return this.frozenWithMisses(ids)
      docs.push(cached)
    }
    return docs
  }

  private frozenWithMisses(ids: readonly string[]): Frozen<T>[] {
    const found = new Map<string, Frozen<T>>()
    const missing: string[] = []
    for (const id of ids) {
      const cached = this.host.cache.get(this.name, id) as Frozen<T> | undefined
      if (cached) found.set(id, cached)
      else missing.push(id)
    }
    for (const [id, text] of this.rowsByIds(missing)) found.set(id, this.host.cache.put(this.name, id, text) as Frozen<T>)
    return ids.flatMap((id) => found.get(id) ?? [])
  }

  /** Documents by id as copies the caller may change: cached ones copied, others parsed and not cached. */
  private copiesByIds(ids: readonly string[], omit?: readonly string[]): T[] {
    const found = new Map<string, T>()
    const missing: string[] = []
    for (const id of ids) {
      const cached = this.host.cache.get(this.name, id)
      if (cached) found.set(id, copyOf(cached as T, omit))
      else missing.push(id)
    }
    if (missing.length) {
      for (const [id, text] of this.rowsByIds(missing)) {
        const doc = JSON.parse(text) as T
        for (const field of omit ?? []) delete doc[field]
        found.set(id, doc)
      }
    }
    return ids.flatMap((id) => found.get(id) ?? [])
  }

  private rowsByIds(ids: readonly string[]): [string, string][] {
    if (ids.length === 1) {
      const text = this.statement(`SELECT doc FROM ${this.table} WHERE _id = ?`).pluck().get(ids[0]) as string | undefined
      return text === undefined ? [] : [[ids[0]!, text]]
    }
    return this.statement(`SELECT _id, doc FROM ${this.table} WHERE _id IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify(ids)) as [string, string][]
  }

  /**
   * The ids of the matching documents, in the order and page asked for. A filter SQL answers exactly is
   * paged by SQL; otherwise the rows SQL narrows to are read in order and the predicate picks.
   */
  private matchingIds(filter: Filter, page: Page = {}, remember = false): string[] {
    const { where, params, exact } = translateFilter(filter, this.kinds)
    const order = orderBy(page.sort)
    if (exact) {
      const sql = `SELECT _id FROM ${this.table} WHERE ${where}${order} LIMIT ? OFFSET ?`
      const args = [...params, page.limit || -1, page.skip ?? 0]
      const query = () => this.statement(sql).pluck().all(...args) as string[]
      return remember ? this.answers.remember(sql, args, query) : query()
    }
    const predicate = compile(filter)
    const ids: string[] = []
    let skip = page.skip ?? 0
    const rows = this.statement(`SELECT _id, doc FROM ${this.table} WHERE ${where}${order}`).raw().iterate(...params) as IterableIterator<[string, string]>
    for (const [id, text] of rows) {
      const doc = this.host.cache.get(this.name, id) ?? (JSON.parse(text) as Doc)
      if (predicate !== always && !predicate(doc)) continue
      if (skip > 0) { skip--; continue }
      ids.push(id)
      if (page.limit && ids.length >= page.limit) {
        rows.return?.()
        break
      }
    }
    return ids
  }

  async findById(id: string, options?: Pick<FindOptions, 'omit'>): Promise<T | null> {
    await this.host.turns.pass()
    if (typeof id !== 'string') return this.findOne({ _id: id }, options)
    return this.read(() => this.copiesByIds([id], options?.omit)[0] ?? null)
  }

  async viewById(id: string): Promise<Frozen<T> | null> {
    await this.host.turns.pass()
    if (typeof id !== 'string') return null
    // The hot path of a record read: a cached document, with nothing made around it.
    const cached = this.host.cache.get(this.name, id) as Frozen<T> | undefined
    return cached ?? this.read(() => this.frozenByIds([id])[0] ?? null)
  }

  async view(filter: Filter, options: Page = {}): Promise<readonly Frozen<T>[]> {
    await this.host.turns.pass()
    // Views answer requests, which ask the same pages again; finds feed jobs, which walk a collection once.
    return this.read(() => this.frozenByIds(this.matchingIds(filter, options, true)))
  }

  async findOne(filter: Filter, options?: Pick<FindOptions, 'omit' | 'sort'>): Promise<T | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 })
    return doc ?? null
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    await this.host.turns.pass()
    return this.read(() => this.copiesByIds(this.matchingIds(filter, options), options.omit))
  }

  async count(filter: Filter): Promise<number> {
    await this.host.turns.pass()
    return this.read(() => {
      const { where, params, exact } = translateFilter(filter, this.kinds)
      if (exact) {
        const sql = `SELECT count(*) FROM ${this.table} WHERE ${where}`
        return this.answers.remember(sql, params, () => this.statement(sql).pluck().get(...params) as number)
      }
      return this.matchingIds(filter).length
    })
  }

  private read<R>(operation: () => R): R {
    try {
      return operation()
    } catch (error) {
      throw this.classify(error)
    }
  }

  // ---- writing

  classify(error: unknown): unknown {
    const code = (error as { code?: unknown }).code
    if (typeof code !== 'string') return error
    if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new DuplicateKeyError(this.name, ['_id'])
    if (code === 'SQLITE_CONSTRAINT_UNIQUE') {
      const index = /index '([^']+)'/.exec((error as Error).message)?.[1]
      return new DuplicateKeyError(this.name, (index && this.indexBook.uniqueFields(index)) || [])
    }
    if (unavailable.test(code)) return new StoreUnavailableError(error)
    return error
  }

  /** Runs a write as one transaction: all of it lands, or none of it. */
  private write<R>(operation: () => R): R {
    let failed = false
    try {
      return this.host.db.transaction(operation)()
    } catch (error) {
      failed = true
      throw this.classify(error)
    } finally {
      this.wrote(failed)
    }
  }

  /**
   * Removes every document and every index but `_id`'s (a restore replacing the store): the table
   * stays, so this object and any handle on it go on working, as a MongoDB collection dropped and
   * written again does.
   */
  empty(): void {
    const { db } = this.host
    db.transaction(() => {
      this.indexBook.dropAll()
      db.prepare('DELETE FROM adks_multikey WHERE collection = ?').run(this.name)
      db.exec(`DELETE FROM ${this.keys.name}`)
      db.exec(`DELETE FROM ${this.table}`)
    })()
    this.indexBook.forget()
    this.keys.reload()
    this.host.cache.clear()
    this.wrote(false)
  }

  /**
   * After a transaction that wrote here (this collection's own, or a batch of the store's): a failed one
   * was rolled back, so what the keys table's bookkeeping learned from it is read again.
   */
  wrote(failed: boolean): void {
    if (failed) this.keys.reload()
    this.answers.clear()
    this.host.wrote(this.name)
  }

  // ---- the parts of a write, for a transaction of the store's (EmbeddedStore.atomically) to compose

  insertNow(doc: Doc): void {
    this.insertRow(doc)
  }

  /** Whether a document matched (and was updated). */
  updateNow(filter: Filter, update: Update): boolean {
    assertUpdate(update)
    const [id] = this.matchingIds(filter, { limit: 1 })
    return id !== undefined && this.updateRow(id, update) !== null
  }

  deleteNow(filter: Filter): number {
    return this.deleteRows(this.matchingIds(filter, { limit: 1 }))
  }

  private insertRow(doc: Doc): void {
    this.keys.noteShapes(doc, this.indexBook.led)
    try {
      this.statement(`INSERT INTO ${this.table} (_id, doc) VALUES (?, ?)`).run(doc._id, JSON.stringify(doc))
    } catch (error) {
      // SQLite may check another unique index before `_id`'s; a taken id is the collision to report.
      const taken = (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && this.statement(`SELECT 1 FROM ${this.table} WHERE _id = ?`).get(doc._id)
      throw taken ? new DuplicateKeyError(this.name, ['_id']) : error
    }
    this.keys.write(doc, false)
    this.host.cache.forget(this.name, doc._id)
  }

  /** Applies the update to the stored document and gives it as it is now (a copy the caller may keep). */
  private updateRow(id: string, update: Update): T | null {
    const [current] = this.copiesByIds([id])
    if (!current) return null
    const next = applyUpdate(current, update)
    this.keys.noteShapes(next, this.indexBook.led)
    const text = JSON.stringify(next)
    this.statement(`UPDATE ${this.table} SET doc = ? WHERE _id = ?`).run(text, id)
    this.keys.write(next, true)
    this.host.cache.forget(this.name, id)
    return JSON.parse(text) as T
  }

  private deleteRows(ids: readonly string[]): number {
    let removed = 0
    const remove = this.statement(`DELETE FROM ${this.table} WHERE _id = ?`)
    for (const id of ids) {
      removed += remove.run(id).changes
      this.keys.remove(id)
      this.host.cache.forget(this.name, id)
    }
    return removed
  }

  async insertOne(doc: T): Promise<void> {
    await this.host.turns.pass()
    this.write(() => this.insertRow(doc))
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    await this.host.turns.pass()
    if (!docs.length) return
    this.write(() => { for (const doc of docs) this.insertRow(doc) })
  }

  async updateOne(filter: Filter, update: Update): Promise<T | null> {
    await this.host.turns.pass()
    assertUpdate(update)
    return this.write(() => {
      const [id] = this.matchingIds(filter, { limit: 1 })
      return id === undefined ? null : this.updateRow(id, update)
    })
  }

  async updateMany(filter: Filter, update: Update): Promise<number> {
    await this.host.turns.pass()
    assertUpdate(update)
    return this.write(() => {
      const ids = this.matchingIds(filter)
      for (const id of ids) this.updateRow(id, update)
      return ids.length
    })
  }

  async upsertOne(filter: Filter, doc: T): Promise<void> {
    await this.host.turns.pass()
    const { _id, ...fields } = doc
    assertUpdate({ $set: fields })
    this.write(() => {
      const [id] = this.matchingIds(filter, { limit: 1 })
      if (id === undefined) this.insertRow(doc)
      else this.updateRow(id, { $set: fields })
    })
  }

  async deleteOne(filter: Filter): Promise<number> {
    await this.host.turns.pass()
    return this.write(() => this.deleteRows(this.matchingIds(filter, { limit: 1 })))
  }

  async deleteMany(filter: Filter): Promise<number> {
    await this.host.turns.pass()
    return this.write(() => this.deleteRows(this.matchingIds(filter)))
  }
}
