/**
 * The record store port. Domain and route code speak only this interface; the embedded (SQLite) and
 * MongoDB adapters implement it identically, which the contract suite in test/store checks.
 *
 * The filter and update languages are the subset of MongoDB's that both adapters implement with the
 * same meaning. Anything outside it (`$where`, `$regex`, `$expr`, unknown operators) does not type-check,
 * and the adapters reject it at run time as well, so no filter can smuggle in server-side code.
 */

export type Scalar = string | number | boolean

export interface Operators {
  readonly $eq?: Scalar
  /** Matches documents whose field is absent or differs; on an array field, none of its elements may equal it. */
  readonly $ne?: Scalar
  /** On an array field, matches when any element is in the list. */
  readonly $in?: readonly Scalar[]
  readonly $nin?: readonly Scalar[]
  readonly $gt?: string | number
  readonly $gte?: string | number
  readonly $lt?: string | number
  readonly $lte?: string | number
  /** True when the field is present (an empty array counts as present). */
  readonly $exists?: boolean
  /** Case-sensitive prefix match on a string (or any element of an array of strings). */
  readonly $prefix?: string
  /** Case-insensitive prefix match. */
  readonly $iprefix?: string
}

export type Condition = Scalar | Operators

/** A filter: fields to conditions, combined with `$or` / `$and`. Field names may use dot notation. */
export type Filter = {
  readonly $or?: readonly Filter[]
  readonly $and?: readonly Filter[]
} & { readonly [field: `$${string}`]: readonly Filter[] | undefined } & {
  readonly [field: string]: Condition | readonly Filter[] | undefined
}

export interface Update {
  readonly $set?: Readonly<Record<string, unknown>>
  readonly $unset?: Readonly<Record<string, true>>
  readonly $inc?: Readonly<Record<string, number>>
  readonly $push?: Readonly<Record<string, unknown>>
}

export type SortSpec = ReadonlyArray<readonly [field: string, direction: 1 | -1]>

export interface FindOptions {
  readonly sort?: SortSpec
  readonly skip?: number
  readonly limit?: number
  /** Fields to leave out of the returned documents. */
  readonly omit?: readonly string[]
}

export interface Doc {
  _id: string
  [field: string]: unknown
}

/** A document as `view` gives it: nothing in it can be changed. */
export type Frozen<T> = { readonly [K in keyof T]: T[K] extends object ? Frozen<T[K]> : T[K] }

export interface IndexSpec {
  readonly fields: readonly string[]
  /**
   * Fields among `fields` kept in descending order, for a sort that walks the index (both stores build
   * the index in these directions, so that a sort with a descending key and an ascending `_id` walks it).
   */
  readonly descending?: readonly string[]
  /** On the embedded store a document without the field never collides, as if `sparse` were set. */
  readonly unique?: boolean
  /**
   * Only documents that have the (leading) field are indexed: unique only among them, and writes of the
   * others skip the index. MongoDB indexes a compound sparse index's documents that have any of its
   * fields, so there it may hold more; a query that names the leading field finds the same either way.
   */
  readonly sparse?: boolean
}

export interface Collection<T extends Doc = Doc> {
  readonly name: string
  /** Fails with DuplicateKeyError when `_id` or a unique index is taken. */
  insertOne(doc: T): Promise<void>
  /**
   * Writes many documents in one operation, for log entries with fresh ids. A duplicate fails the call
   * and may leave some of the others written (MongoDB offers no atomic batch without transactions).
   */
  insertMany(docs: readonly T[]): Promise<void>
  findById(id: string, options?: Pick<FindOptions, 'omit'>): Promise<T | null>
  /**
   * Reads for answering requests, without a copy: the documents are frozen (deeply), may be shared with
   * other readers, and carry every stored field. A later write never changes a document already read.
   */
  viewById(id: string): Promise<Frozen<T> | null>
  view(filter: Filter, options?: Omit<FindOptions, 'omit'>): Promise<readonly Frozen<T>[]>
  findOne(filter: Filter, options?: Pick<FindOptions, 'omit' | 'sort'>): Promise<T | null>
  find(filter: Filter, options?: FindOptions): Promise<T[]>
  count(filter: Filter): Promise<number>
  /**
   * Updates the first document matching the filter and returns it as it is after the update, or null
   * when nothing matched. A filter on `_id` and `_version` makes this a compare-and-set: of concurrent
   * writers holding the same version exactly one succeeds.
   */
  updateOne(filter: Filter, update: Update): Promise<T | null>
  /** Returns how many documents matched, counting those the update left as they were. */
  updateMany(filter: Filter, update: Update): Promise<number>
  /** Inserts the document when no document matches the filter, else applies `$set` of its fields. */
  upsertOne(filter: Filter, doc: T): Promise<void>
  deleteOne(filter: Filter): Promise<number>
  deleteMany(filter: Filter): Promise<number>
}

/**
 * How many writes each collection has had, as far as this process knows. The embedded store, which this
 * process alone writes, counts its own writes; a MongoDB store shared by several instances counts its own
 * and those other instances announce (cluster/redis-notices.ts). An unchanged count then proves an in-process
 * copy of what was read is still current. A count moves once the write is visible to reads.
 */
export interface WriteCounts {
  of(collection: string): number
  /**
   * How long a copy made now may still be served though no count moved: unbounded (absent, or Infinity)
   * while every write is heard of; a few seconds while other instances' writes may go unheard.
   */
  maxAgeMs?(): number
}

/** One write of a batch that lands whole or not at all (Store.atomically). */
export type BatchWrite =
  | { readonly collection: string; readonly insert: Doc }
  | { readonly collection: string; readonly update: Filter; readonly with: Update }
  | { readonly collection: string; readonly delete: Filter }

/**
 * Every collection as a backup reads it. `exact`: all of it as of `at`, one read across collections
 * (the embedded store's read transaction), so every write acknowledged before `at` is there and none
 * after; otherwise (MongoDB) each collection as of its own read, begun after `at`, which the backup
 * brings back to `at` where revisions allow (backups/moment.ts).
 */
export interface StoreSnapshot {
  readonly at: Date
  readonly exact: boolean
  readonly collections: readonly string[]
  /** About how many documents the collection holds (for progress): exact where the snapshot is. */
  count(collection: string): Promise<number>
  /** The collection's documents, each as one line of relaxed Extended JSON, in `_id` order. */
  lines(collection: string): AsyncIterable<string>
  close(): Promise<void>
}

export interface Store {
  readonly kind: 'embedded' | 'mongodb'
  readonly writeCounts?: WriteCounts
  /**
   * Applies the writes in order as one transaction: an update or delete that matches nothing undoes the
   * batch and answers false; a taken key undoes it and throws DuplicateKeyError. Only a store with
   * transactions across collections has it (the embedded store); FerretDB has none, so callers that need
   * two writes to land together keep an outbox where this is absent (history/writes.ts).
   */
  atomically?(writes: readonly BatchWrite[]): Promise<boolean>
  /**
   * The named collection, its documents typed as the caller says: the store checks no shape, so `T` is
   * the caller's word (RecordService's is the class schema's, whose validators every record passed).
   */
  collection<T extends Doc = Doc>(name: string): Collection<T>
  /** The collections that exist (written to, or given indexes), in name order. */
  collectionNames(): Promise<string[]>
  /** Removes a collection, its documents and its indexes (a restore that replaces what is there). */
  drop(collection: string): Promise<void>
  /** A read of every collection for a backup, as of one moment where the store can (StoreSnapshot). */
  snapshot(): Promise<StoreSnapshot>
  /** Creates the indexes if missing; running it again changes nothing. */
  ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void>
  /** The indexes the collection has, `_id`'s included: what tests check the routes' queries against. */
  indexes?(collection: string): Promise<IndexSpec[]>
  ping(): Promise<void>
  close(): Promise<void>
}

export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    /** The fields of the violated index, when the adapter can tell. */
    readonly fields: readonly string[],
  ) {
    super(`duplicate key in ${collection}${fields.length ? ` (${fields.join(', ')})` : ''}`)
    this.name = 'DuplicateKeyError'
  }
}

export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the record store is unavailable', { cause })
    this.name = 'StoreUnavailableError'
  }
}

/** The embedded store's data directory is held by another process: the operator's to resolve, in one line. */
export class DataDirInUseError extends Error {
  constructor(readonly dir: string) {
    super(`DATA_DIR ${dir} is in use by another process of this service; stop that process first, or give this one another DATA_DIR`)
    this.name = 'DataDirInUseError'
  }
}

/**
 * A filter on a field whose name is only known at run time (it comes from the class schema). Field names
 * beginning with `$` are refused, as the adapters refuse them too.
 */
export function where(field: string, condition: Condition, rest: Filter = {}): Filter {
  if (field.startsWith('$')) throw new TypeError(`${field} is not a field name`)
  return { ...rest, [field]: condition } as Filter
}
