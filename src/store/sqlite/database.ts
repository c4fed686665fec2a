import BetterSqlite3 from 'better-sqlite3'

export type Database = BetterSqlite3.Database

/** `synchronous` as SQLITE_SYNCHRONOUS may set it; docs/architecture.md argues the default. */
export type Synchronous = 'full' | 'normal'

/** SQLite's own page cache, in KiB (a negative cache_size): the hot pages of indexes and tables. */
const pageCacheKib = 16 * 1024

export function openDatabase(file: string, synchronous: Synchronous = 'full'): Database {
  const db = new BetterSqlite3(file, { timeout: 5000 })
  db.pragma('journal_mode = WAL')
  db.pragma(`synchronous = ${synchronous}`)
  db.pragma(`cache_size = -${pageCacheKib}`)
  db.pragma('temp_store = memory')
  // A record's old content (a secret stored in clear by an older version, a deleted person) is
  // overwritten in the pages it leaves, not kept there until the page is reused.
  db.pragma('secure_delete = fast')
  // The planner's statistics, as SQLite advises for a long-lived connection: without them it takes an
  // equality on any index for selective, and reads all 10,000 requests of one domain to find an
  // approver's 500 through `domain` instead of through the approver's keys. Sampled (analysis_limit), so
  // that it costs milliseconds at any size; kept current by `refreshStatistics`, hourly and at close
  // (store.ts), never right after indexes are made, when the tables may still be empty and say so.
  db.pragma('analysis_limit = 1000')
  db.exec('CREATE TABLE IF NOT EXISTS adks_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)')
  db.exec('CREATE TABLE IF NOT EXISTS adks_indexes (collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, PRIMARY KEY (collection, name))')
  db.exec('CREATE TABLE IF NOT EXISTS adks_multikey (collection TEXT NOT NULL, field TEXT NOT NULL, PRIMARY KEY (collection, field))')
  db.pragma('optimize = 0x10002')
  return db
}

/** Brings the planner's statistics up to date where the tables have changed much since they were taken. */
export function refreshStatistics(db: Database): void {
  if (db.open) db.pragma('optimize')
}

