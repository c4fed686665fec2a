import type { Statement } from 'better-sqlite3'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { LRUCache } from 'lru-cache'
import { StoreUnavailableError, type BatchWrite, type Collection, type Doc, type IndexSpec, type Store, type StoreSnapshot, type WriteCounts } from '../port.js'
import { SqliteCollection, type CollectionHost } from './collection.js'
import { convertPreviousRelease } from './convert.js'
import { openDatabase, refreshStatistics, type Database, type Synchronous } from './database.js'
import { DocumentsCache, defaultCacheBytes } from './documents-cache.js'
import { lockDataDir, type DataDirLock } from './lock.js'
import { documentTables, openSnapshot } from './snapshot.js'
import { quoteName } from './sql.js'
import { Turns } from './turns.js'

/** The embedded store's file in the data directory. */
export const databaseFile = 'adks.sqlite'

/** Thrown inside a batch's transaction to roll it back when one of its writes matched nothing. */
const unmatched = Symbol('unmatched')


export interface EmbeddedStoreOptions {
  /** STORE_CACHE_MB in bytes: how much stored JSON the cache of parsed documents may hold. */
  readonly cacheBytes?: number
  readonly synchronous?: Synchronous
  /** Told of the conversion of a previous release's data directory, with its counts. */
  readonly log?: (message: string) => void
  /**
   * Hears the query plan of each statement every time it is run, as the planner chooses it then (a
   * statement prepared while its table was nearly empty keeps its first plan until statistics change,
   * which `refreshStatistics` sees to): how tests check index use.
   */
  readonly explain?: (sql: string, plan: readonly string[]) => void
}

/** How often the planner's statistics are looked at, as SQLite advises for a long-lived connection. */
const statisticsIntervalMs = 60 * 60 * 1000

/**
 * Statements kept prepared; a filter's shape (not its values) makes its SQL text, so few shapes recur.
 *
 * Cache rule. Holds: prepared statements by SQL text, no data (values are bound at each run). Invalidated
 * by: nothing needed; SQLite prepares a statement again by itself when the schema or the planner's
 * statistics change, and the least used go past 500. Test: the store contract's "a read after a write
 * shows it", whose repeated statements answer the writes made between their runs.
 */
const preparedStatements = 500

/**
 * The embedded store: one SQLite database in WAL mode, `DATA_DIR/adks.sqlite`, a table per collection
 * (collection.ts). Memory holds what is hot, not what is stored: SQLite's page cache and the cache of
 * parsed documents each have a stated size, and everything else (the audit trail, job records,
 * notifications, deliveries) is read from disk when asked for.
 *
 * An acknowledged write has been committed to the write-ahead log; with `synchronous = full` (the
 * default) the log is flushed to the disk first, so it survives a power cut as well as a killed process.
 * One process holds the directory (lock.ts).
 */
export class EmbeddedStore implements Store {
  readonly kind = 'embedded'
  private readonly counts = new Map<string, number>()
  readonly writeCounts: WriteCounts = { of: (name) => this.counts.get(name) ?? 0 }
  private readonly collections = new Map<string, SqliteCollection<Doc>>()
  private readonly statements: LRUCache<string, Statement>
  private readonly host: CollectionHost
  // Unref'd, so that a store someone forgot to close never keeps the process alive on its own.
  private readonly statistics = setInterval(() => refreshStatistics(this.db), statisticsIntervalMs).unref()

  constructor(private readonly db: Database, private readonly lock: DataDirLock | null, options: EmbeddedStoreOptions = {}) {
    this.statements = new LRUCache({ max: preparedStatements })
    const explain = options.explain
    this.host = {
      db,
      cache: new DocumentsCache(options.cacheBytes ?? defaultCacheBytes),
      prepare: (sql) => {
        let statement = this.statements.get(sql)
        if (!statement) {
          statement = db.prepare(sql)
          this.statements.set(sql, statement)
        }
        if (explain) explain(sql, planOf(db, sql))
        return statement
      },
      wrote: (name) => void this.counts.set(name, (this.counts.get(name) ?? 0) + 1),
      turns: new Turns(),
    }
  }

  /**
   * Opens the store on a data directory: takes the directory's lock, converts a previous release's
   * files at the first start (convert.ts), then opens the database and the named collections.
   */
  static async open(dir: string, names: readonly string[] = [], options: EmbeddedStoreOptions = {}): Promise<EmbeddedStore> {
    await mkdir(dir, { recursive: true })
    const lock = lockDataDir(dir)
    try {
      await convertPreviousRelease(dir, databaseFile, options.log ?? ((message) => console.log(message)), (db) => new EmbeddedStore(db, null))
      const store = new EmbeddedStore(openDatabase(join(dir, databaseFile), options.synchronous), lock, options)
      for (const name of names) store.collection(name)
      return store
    } catch (error) {
      lock.release()
      throw error
    }
  }

  private entry(name: string): SqliteCollection<Doc> {
    let collection = this.collections.get(name)
    if (!collection) {
      try {
        collection = new SqliteCollection(name, this.host)
      } catch (error) {
        throw new StoreUnavailableError(error)
      }
      this.collections.set(name, collection)
    }
    return collection
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    const collection: Collection = this.entry(name)
    // The port leaves the documents' type to the caller (see Store.collection).
    return collection as Collection<T>
  }

  async atomically(writes: readonly BatchWrite[]): Promise<boolean> {
    await this.host.turns.pass()
    const touched = new Set<SqliteCollection<Doc>>()
    let current: SqliteCollection<Doc> | undefined
    let failed = false
    try {
      return this.db.transaction(() => {
        for (const write of writes) {
          current = this.entry(write.collection)
          touched.add(current)
          if ('insert' in write) current.insertNow(write.insert)
          else if ('update' in write ? !current.updateNow(write.update, write.with) : !current.deleteNow(write.delete)) throw unmatched
        }
        return true
      })()
    } catch (error) {
      failed = true
      if (error === unmatched) return false
      throw current ? current.classify(error) : error
    } finally {
      for (const collection of touched) collection.wrote(failed)
    }
  }

  /** Collections holding a document or an index: one emptied by `drop` is no longer named. */
  async collectionNames(): Promise<string[]> {
    const indexed = new Set(this.db.prepare<[], string>('SELECT DISTINCT collection FROM adks_indexes').pluck().all())
    return documentTables(this.db).filter((name) => indexed.has(name) || this.db.prepare(`SELECT 1 FROM ${quoteName(name)} LIMIT 1`).get() !== undefined)
  }

  async drop(name: string): Promise<void> {
    await this.host.turns.pass()
    this.entry(name).empty()
  }

  /** A read of every collection as of now, on a connection of its own (snapshot.ts). */
  async snapshot(): Promise<StoreSnapshot> {
    return openSnapshot(this.db.name)
  }

  async ensureIndexes(name: string, indexes: readonly IndexSpec[]): Promise<void> {
    const collection = this.entry(name)
    for (const index of indexes) collection.ensureIndex(index)
  }

  async indexes(name: string): Promise<IndexSpec[]> {
    return [...this.entry(name).indexes]
  }

  /** A value the store keeps about itself beside the data (what it was converted from, say). */
  meta(key: string, value: string): void {
    this.db.prepare('INSERT INTO adks_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value)
  }

  async ping(): Promise<void> {
    try {
      this.db.prepare('SELECT 1').get()
    } catch (error) {
      throw new StoreUnavailableError(error)
    }
  }

  async close(): Promise<void> {
    clearInterval(this.statistics)
    if (this.db.open) {
      refreshStatistics(this.db)
      this.statements.clear()
      this.db.close()
    }
    this.lock?.release()
  }
}

/** The lines of EXPLAIN QUERY PLAN for a statement, its parameters bound to nulls (the plan does not depend on them). */
function planOf(db: Database, sql: string): string[] {
  if (!/^\s*SELECT/i.test(sql)) return []
  const explain = db.prepare(`EXPLAIN QUERY PLAN ${sql}`)
  const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null)
  return (explain.all(...params) as { detail: string }[]).map((row) => row.detail)
}
