import { EJSON } from 'bson'
import { MongoClient, MongoServerError, type CommandStartedEvent, type Db, type Document } from 'mongodb'
import { assertUpdate } from '../filter-check.js'
import {
  DuplicateKeyError, StoreUnavailableError,
  type Collection, type Doc, type Filter, type FindOptions, type Frozen, type IndexSpec, type Store, type StoreSnapshot, type Update,
} from '../port.js'
import { frozen } from '../freeze.js'
import { translateFilter } from './translate.js'
import { duplicateFields, isDuplicate } from './duplicates.js'
import { WriteLanes } from './write-lanes.js'
import { reportSlowCommands, type SlowCommand } from './slow-commands.js'

/** MONGODB_MAX_TIME_MS's default: far above any read the routes make with their indexes, so it stops only runaways. */
export const defaultMaxTimeMs = 30_000

function omitProjection(omit?: readonly string[]): Document | undefined {
  return omit?.length ? Object.fromEntries(omit.map((field) => [field, 0])) : undefined
}

/** The server's code for a command stopped at its `maxTimeMS`. */
const maxTimeExpired = 50

/**
 * Driver failures other than a server's answer (network, selection timeout) mean the store is down; so
 * does a read stopped at its time bound, as the store cannot answer it now.
 */
function classify(error: unknown): unknown {
  if (error instanceof MongoServerError) return error.code === maxTimeExpired ? new StoreUnavailableError(error) : error
  if (error instanceof Error && /Mongo(Network|ServerSelection|NotConnected|Topology)/.test(error.name)) return new StoreUnavailableError(error)
  return error
}

class MongoCollection<T extends Doc> implements Collection<T> {
  /** Every read carries it, so that the server stops one nobody waits for any more (0: no bound). */
  private readonly bound: { maxTimeMS?: number }

  constructor(readonly name: string, private readonly db: Db, private readonly lanes: WriteLanes | undefined, maxTimeMs: number) {
    this.bound = maxTimeMs > 0 ? { maxTimeMS: maxTimeMs } : {}
  }

  private get raw() {
    return this.db.collection<Doc>(this.name)
  }

  private async run<R>(operation: () => Promise<R>): Promise<R> {
    try {
      return await operation()
    } catch (error) {
      throw classify(error)
    }
  }

  /** A write: in the collection's lane when the server needs one; `written` helps name a violated index. */
  private write<R>(operation: () => Promise<R>, written?: Doc): Promise<R> {
    const guarded = async () => {
      try {
        return await operation()
      } catch (error) {
        if (isDuplicate(error)) throw new DuplicateKeyError(this.name, await duplicateFields(this.raw, error, written))
        throw classify(error)
      }
    }
    return this.lanes ? this.lanes.run(this.name, guarded) : guarded()
  }

  insertOne(doc: T): Promise<void> {
    return this.write(async () => { await this.raw.insertOne({ ...doc }) }, doc)
  }

  insertMany(docs: readonly T[]): Promise<void> {
    if (!docs.length) return Promise.resolve()
    return this.write(async () => { await this.raw.insertMany(docs.map((doc) => ({ ...doc })), { ordered: false }) })
  }

  findById(id: string, options?: Pick<FindOptions, 'omit'>): Promise<T | null> {
    return this.findOne({ _id: id }, options)
  }

  async viewById(id: string): Promise<Frozen<T> | null> {
    const doc = await this.findById(id)
    return doc && frozen(doc)
  }

  async view(filter: Filter, options: Omit<FindOptions, 'omit'> = {}): Promise<readonly Frozen<T>[]> {
    return (await this.find(filter, options)).map(frozen)
  }

  // The driver answers its own Document type; T is the caller's word for it (see Store.collection).
  findOne(filter: Filter, options: Pick<FindOptions, 'omit' | 'sort'> = {}): Promise<T | null> {
    return this.run(() => this.raw.findOne(translateFilter(filter), {
      ...this.bound,
      projection: omitProjection(options.omit),
      sort: options.sort?.length ? options.sort.map(([f, d]) => [f, d] as [string, 1 | -1]) : undefined,
    }) as Promise<T | null>)
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.run(() => {
      let cursor = this.raw.find(translateFilter(filter), { ...this.bound, projection: omitProjection(options.omit) })
      if (options.sort?.length) cursor = cursor.sort(options.sort.map(([f, d]) => [f, d] as [string, 1 | -1]))
      if (options.skip) cursor = cursor.skip(options.skip)
      if (options.limit) cursor = cursor.limit(options.limit)
      return cursor.toArray() as Promise<T[]>
    })
  }

  count(filter: Filter): Promise<number> {
    return this.run(() => this.raw.countDocuments(translateFilter(filter), this.bound))
  }

  // Every check of the filter and update runs inside `run`, so that a refusal rejects the promise as
  // the embedded store's does, instead of throwing before a promise exists.
  updateOne(filter: Filter, update: Update): Promise<T | null> {
    return this.write(() => {
      assertUpdate(update)
      return this.raw.findOneAndUpdate(translateFilter(filter), update as Document, { returnDocument: 'after' }) as Promise<T | null>
    })
  }

  /** Counts the documents matched, as the embedded store does, including those the update left as they were. */
  updateMany(filter: Filter, update: Update): Promise<number> {
    return this.write(async () => {
      assertUpdate(update)
      return (await this.raw.updateMany(translateFilter(filter), update as Document)).matchedCount
    })
  }

  upsertOne(filter: Filter, doc: T): Promise<void> {
    const { _id, ...fields } = doc
    return this.write(async () => {
      assertUpdate({ $set: fields })
      await this.raw.updateOne(translateFilter(filter), { $set: fields, $setOnInsert: { _id } }, { upsert: true })
    }, doc)
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.write(async () => (await this.raw.deleteOne(translateFilter(filter))).deletedCount)
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.write(async () => (await this.raw.deleteMany(translateFilter(filter))).deletedCount)
  }
}

export class MongoStore implements Store {
  readonly kind = 'mongodb'

  private constructor(private readonly client: MongoClient, private readonly db: Db, private readonly lanes: WriteLanes | undefined, private readonly maxTimeMs: number) {}

  /**
   * `onCommand` hears every command the driver sends (its command monitoring), which is how tests count
   * a request's round trips; `slow` reports each command that takes at least `ms`. Without either,
   * monitoring stays off, as it costs an event per command. `maxTimeMs` bounds each read's time in the
   * server (0: unbounded); a read stopped there rejects with StoreUnavailableError.
   */
  static async open(url: string, dbName?: string, options: {
    onCommand?: (event: CommandStartedEvent) => void
    slow?: { readonly ms: number; readonly report: (entry: SlowCommand) => void }
    maxTimeMs?: number
  } = {}): Promise<MongoStore> {
    // Fail well inside Fastify's plugin timeout, so a dead server gives the driver's error, not avvio's.
    const { onCommand, slow } = options
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000, connectTimeoutMS: 5000, retryWrites: true, monitorCommands: onCommand !== undefined || slow !== undefined })
    if (onCommand) client.on('commandStarted', onCommand)
    if (slow) reportSlowCommands(client, slow.ms, slow.report)
    await client.connect()
    try {
      // FerretDB tells itself apart by `ferretdbVersion` in buildInfo; its writes are not isolated.
      const info = await client.db('admin').command({ buildInfo: 1 })
      return new MongoStore(client, client.db(dbName), 'ferretdbVersion' in info ? new WriteLanes() : undefined, options.maxTimeMs ?? defaultMaxTimeMs)
    } catch (error) {
      await client.close()
      throw error
    }
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    return new MongoCollection<T>(name, this.db, this.lanes, this.maxTimeMs)
  }

  async collectionNames(): Promise<string[]> {
    const found = await this.db.listCollections({}, { nameOnly: true }).toArray()
    return found.map(({ name }) => name).filter((name) => !name.startsWith('system.')).sort()
  }

  async drop(name: string): Promise<void> {
    try {
      await this.db.collection(name).drop()
    } catch (error) {
      // Already gone: what was asked holds.
      if ((error as { codeName?: string }).codeName !== 'NamespaceNotFound') throw error
    }
  }

  /**
   * Each collection read in turn with a cursor, as of its own read: MongoDB (and FerretDB) offer no
   * read across collections at one moment without a replica set's snapshot sessions.
   */
  async snapshot(): Promise<StoreSnapshot> {
    const at = new Date()
    const collections = await this.collectionNames()
    const db = this.db
    return {
      at,
      exact: false,
      collections,
      count: (collection: string) => db.collection(collection).estimatedDocumentCount(),
      async *lines(collection: string) {
        for await (const doc of db.collection(collection).find({}, { sort: { _id: 1 } })) yield EJSON.stringify(doc, { relaxed: true })
      },
      close: async () => {},
    }
  }

  async ensureIndexes(name: string, indexes: readonly IndexSpec[]): Promise<void> {
    for (const index of indexes) {
      const direction = (field: string) => index.descending?.includes(field) ? -1 : 1
      // Named by its fields, as before directions existed, so a database made then keeps its indexes.
      await this.db.collection(name).createIndex(
        Object.fromEntries(index.fields.map((field) => [field, direction(field)])),
        { name: index.fields.map((field) => direction(field) < 0 ? `${field}_-1` : field).join('_'), unique: index.unique ?? false, sparse: index.sparse ?? false },
      )
    }
  }

  async indexes(name: string): Promise<IndexSpec[]> {
    const found = await this.db.collection(name).listIndexes().toArray()
    return found.map((index) => {
      const keys = Object.entries(index.key as Record<string, number>)
      const descending = keys.filter(([, direction]) => direction < 0).map(([field]) => field)
      return {
        fields: keys.map(([field]) => field),
        ...(descending.length ? { descending } : {}),
        ...(index.unique ? { unique: true } : {}),
        ...(index.sparse ? { sparse: true } : {}),
      }
    })
  }

  async ping(): Promise<void> {
    try {
      await this.db.command({ ping: 1 })
    } catch (error) {
      throw new StoreUnavailableError(error)
    }
  }

  async dropDatabase(): Promise<void> {
    await this.db.dropDatabase()
  }

  async close(): Promise<void> {
    await this.client.close()
  }
}
