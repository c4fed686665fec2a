import { MongoClient, MongoServerError, type Db, type Document } from 'mongodb'
import { assertUpdate } from '../filter-check.js'
import {
  DuplicateKeyError, StoreUnavailableError,
  type Collection, type Doc, type Filter, type FindOptions, type Frozen, type IndexSpec, type Store, type Update,
} from '../port.js'
import { frozen } from '../freeze.js'
import { translateFilter } from './translate.js'

function omitProjection(omit?: readonly string[]): Document | undefined {
  return omit?.length ? Object.fromEntries(omit.map((field) => [field, 0])) : undefined
}

function isDuplicate(error: unknown): error is MongoServerError {
  return error instanceof MongoServerError && error.code === 11000
}

/** Driver failures other than a server's answer (network, selection timeout) mean the store is down. */
function classify(name: string, error: unknown): unknown {
  if (isDuplicate(error)) return new DuplicateKeyError(name, Object.keys(error.keyPattern ?? {}))
  if (error instanceof MongoServerError) return error
  if (error instanceof Error && /Mongo(Network|ServerSelection|NotConnected|Topology)/.test(error.name)) return new StoreUnavailableError(error)
  return error
}

class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(readonly name: string, private readonly db: Db) {}

  private get raw() {
    return this.db.collection<Doc>(this.name)
  }

  private async run<R>(operation: () => Promise<R>): Promise<R> {
    try {
      return await operation()
    } catch (error) {
      throw classify(this.name, error)
    }
  }

  insertOne(doc: T): Promise<void> {
    return this.run(async () => { await this.raw.insertOne({ ...doc }) })
  }

  insertMany(docs: readonly T[]): Promise<void> {
    if (!docs.length) return Promise.resolve()
    return this.run(async () => { await this.raw.insertMany(docs.map((doc) => ({ ...doc })), { ordered: false }) })
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

  findOne(filter: Filter, options: Pick<FindOptions, 'omit' | 'sort'> = {}): Promise<T | null> {
    return this.run(() => this.raw.findOne(translateFilter(filter), {
      projection: omitProjection(options.omit),
      sort: options.sort?.length ? options.sort.map(([f, d]) => [f, d] as [string, 1 | -1]) : undefined,
    }) as unknown as Promise<T | null>)
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.run(() => {
      let cursor = this.raw.find(translateFilter(filter), { projection: omitProjection(options.omit) })
      if (options.sort?.length) cursor = cursor.sort(options.sort.map(([f, d]) => [f, d] as [string, 1 | -1]))
      if (options.skip) cursor = cursor.skip(options.skip)
      if (options.limit) cursor = cursor.limit(options.limit)
      return cursor.toArray() as unknown as Promise<T[]>
    })
  }

  count(filter: Filter): Promise<number> {
    return this.run(() => this.raw.countDocuments(translateFilter(filter)))
  }

  // Every check of the filter and update runs inside `run`, so that a refusal rejects the promise as
  // the embedded store's does, instead of throwing before a promise exists.
  updateOne(filter: Filter, update: Update): Promise<T | null> {
    return this.run(() => {
      assertUpdate(update)
      return this.raw.findOneAndUpdate(translateFilter(filter), update as Document, { returnDocument: 'after' }) as unknown as Promise<T | null>
    })
  }

  /** Counts the documents matched, as the embedded store does, including those the update left as they were. */
  updateMany(filter: Filter, update: Update): Promise<number> {
    return this.run(async () => {
      assertUpdate(update)
      return (await this.raw.updateMany(translateFilter(filter), update as Document)).matchedCount
    })
  }

  upsertOne(filter: Filter, doc: T): Promise<void> {
    const { _id, ...fields } = doc
    return this.run(async () => {
      assertUpdate({ $set: fields })
      await this.raw.updateOne(translateFilter(filter), { $set: fields, $setOnInsert: { _id } }, { upsert: true })
    })
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.run(async () => (await this.raw.deleteOne(translateFilter(filter))).deletedCount)
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.run(async () => (await this.raw.deleteMany(translateFilter(filter))).deletedCount)
  }
}

export class MongoStore implements Store {
  readonly kind = 'mongodb'

  private constructor(private readonly client: MongoClient, private readonly db: Db) {}

  static async open(url: string, dbName?: string): Promise<MongoStore> {
    // Fail well inside Fastify's plugin timeout, so a dead server gives the driver's error, not avvio's.
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000, connectTimeoutMS: 5000, retryWrites: true })
    await client.connect()
    return new MongoStore(client, client.db(dbName))
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    return new MongoCollection<T>(name, this.db)
  }

  async ensureIndexes(name: string, indexes: readonly IndexSpec[]): Promise<void> {
    for (const index of indexes) {
      await this.db.collection(name).createIndex(
        Object.fromEntries(index.fields.map((field) => [field, 1])),
        { name: index.fields.join('_'), unique: index.unique ?? false, sparse: index.sparse ?? false },
      )
    }
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
