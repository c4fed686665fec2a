import type { Datastore } from './datastore.js'
import { assertUpdate } from '../filter-check.js'
import { frozen } from '../freeze.js'
import { DuplicateKeyError, type Collection, type Doc, type Filter, type FindOptions, type Frozen, type IndexSpec, type SortSpec, type Update } from '../port.js'
import { Documents } from './documents.js'
import { always, compile, copyOf, sortDocs } from './query.js'

interface UniqueViolation { errorType: 'uniqueViolated' }

function isUniqueViolation(error: unknown): error is UniqueViolation {
  return typeof error === 'object' && error !== null && (error as UniqueViolation).errorType === 'uniqueViolated'
}

/**
 * nedb's query for documents already chosen by our filter engine. A set membership test keeps a large
 * batch linear, where nedb's `$in` compares each document with every id.
 */
function byIds(ids: ReadonlySet<string>): Record<string, unknown> {
  return { $where(this: Doc) { return ids.has(this._id) } }
}

/**
 * A collection of the embedded store. Every filter, for reads and for writes alike, is evaluated by the
 * compiled predicate of query.ts over the in-memory `Documents`; nedb is asked only to change or remove
 * documents by `_id`, to append to the file and to enforce unique indexes.
 *
 * Writes run one at a time per collection, each choosing its targets and having nedb apply the change
 * before the next starts, so that a compare-and-set on `_id` and `_version` is exact.
 */
export class NedbCollection<T extends Doc> implements Collection<T> {
  private readonly uniqueIndexes: IndexSpec[] = []
  private readonly docs = new Documents<T>()
  /** Resolves once nedb has read its file and `docs` holds what it read. */
  private readonly ready: Promise<void>
  private queue: Promise<unknown> = Promise.resolve()

  /** `wrote` is told after every write has settled, when its effect (if any) is visible to reads. */
  constructor(readonly name: string, readonly db: Datastore<T>, loaded: Promise<void>, private readonly wrote: () => void = () => {}) {
    this.ready = loaded.then(async () => {
      await this.dropUnenforcedIndexes()
      this.docs.reset(this.db.getAllData())
    })
    // A file that cannot be read fails the store's open, which awaits `loaded`; every operation here
    // still awaits `ready` and fails with it.
    this.ready.catch(() => {})
  }

  /**
   * Files written before nedb was given only unique indexes (see ensureIndex) still declare the others,
   * and nedb rebuilds every declared index at each load; removing them once lets the next compaction
   * forget them.
   */
  private async dropUnenforcedIndexes(): Promise<void> {
    // nedb's typings leave out its index table.
    const declared = (this.db as typeof this.db & { indexes: Record<string, { unique: boolean }> }).indexes
    for (const [name, index] of Object.entries(declared)) {
      if (name !== '_id' && !index.unique) await this.db.removeIndexAsync(name)
    }
  }

  private serially<R>(task: () => Promise<R>): Promise<R> {
    const run = this.queue.then(async () => {
      await this.ready
      return await task()
    })
    this.queue = run.catch(() => {})
    return run
  }

  private writing<R>(write: () => Promise<R>): Promise<R> {
    return this.serially(async () => {
      try {
        return await write()
      } finally {
        this.wrote()
      }
    })
  }

  /**
   * Matches in the order asked for. Without `_id` or an index to narrow the search, the collection's
   * standing sorted snapshot is filtered, which leaves nothing to sort; a few narrowed matches are sorted
   * as they are.
   */
  private matching(filter: Filter, sort?: SortSpec): readonly T[] {
    const predicate = compile(filter)
    const narrowed = this.docs.narrow(filter)
    if (narrowed) {
      const found = narrowed.filter(predicate)
      return sort?.length ? sortDocs(found, sort) : found
    }
    const all = sort?.length ? this.docs.sorted(sort) : this.docs.all()
    return predicate === always ? all : all.filter(predicate)
  }

  /** The indexes this collection keeps, `_id`'s first. */
  readonly indexes: IndexSpec[] = [{ fields: ['_id'], unique: true }]

  /**
   * A compound index that is not unique is not kept: MongoDB walks one for a sort, but this store
   * answers sorts from a sorted copy in memory (documents.ts), so nedb would only maintain it for nothing.
   * nedb is given only the unique indexes, which it enforces: reads never ask nedb, so a tree of another
   * index would only cost its upkeep (at 470,000 enrollments, most of the seed's and the start's time).
   */
  async ensureIndex(index: IndexSpec): Promise<void> {
    if (index.fields.length > 1 && !index.unique) return
    await this.serially(async () => {
      if (!this.indexes.some((kept) => kept.fields.join() === index.fields.join())) this.indexes.push(index)
      const fieldName = index.fields.length === 1 ? index.fields[0]! : [...index.fields]
      if (index.unique) await this.db.ensureIndexAsync({ fieldName, unique: true, sparse: index.sparse ?? false })
      if (index.fields.length === 1) this.docs.addIndex(index.fields[0]!)
      const known = this.uniqueIndexes.some((u) => u.fields.join() === index.fields.join())
      if (index.unique && !known) this.uniqueIndexes.push(index)
    })
  }

  /**
   * nedb's unique-violation error names the value, not the index; find the index it came from. An
   * update keeps its document's `_id`, so only an insert can collide on it.
   */
  private duplicate(doc: Doc, inserting = true): DuplicateKeyError {
    if (inserting && this.docs.get(doc._id)) return new DuplicateKeyError(this.name, ['_id'])
    for (const index of this.uniqueIndexes) {
      const taken = this.docs.all().some((existing) =>
        existing._id !== doc._id && index.fields.every((field) => doc[field] !== undefined && existing[field] === doc[field]))
      if (taken) return new DuplicateKeyError(this.name, index.fields)
    }
    return new DuplicateKeyError(this.name, [])
  }

  /** Inside the queue: inserts one document. */
  private async insert(doc: T): Promise<void> {
    try {
      this.docs.put(await this.db.insertAsync(doc) as T)
    } catch (error) {
      if (isUniqueViolation(error)) throw this.duplicate(doc)
      throw error
    }
  }

  /** Inside the queue: updates one document chosen by the filter engine, and gives nedb's new version. */
  private async update(target: T, update: Update): Promise<T | null> {
    try {
      const { affectedDocuments } = await this.db.updateAsync({ _id: target._id }, update, { multi: false, returnUpdatedDocs: true })
      const stored = affectedDocuments as T | null | undefined
      if (stored) this.docs.put(stored)
      return stored ?? null
    } catch (error) {
      if (isUniqueViolation(error)) throw this.duplicate({ ...target, ...update.$set } as Doc, false)
      throw error
    }
  }

  insertOne(doc: T): Promise<void> {
    return this.writing(() => this.insert(doc))
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    if (!docs.length) return
    await this.writing(async () => {
      try {
        for (const stored of await this.db.insertAsync([...docs])) this.docs.put(stored as T)
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateKeyError(this.name, [])
        throw error
      }
    })
  }

  async findById(id: string, options?: Pick<FindOptions, 'omit'>): Promise<T | null> {
    if (typeof id !== 'string') return this.findOne({ _id: id }, options)
    await this.ready
    const doc = this.docs.get(id)
    return doc ? copyOf(doc, options?.omit) : null
  }

  // No stored document is changed in place (a write stores nedb's new copy), so the stored document
  // itself, frozen, is a snapshot no later write can alter.
  async viewById(id: string): Promise<Frozen<T> | null> {
    if (typeof id !== 'string') return null
    await this.ready
    const doc = this.docs.get(id)
    return doc ? frozen(doc) : null
  }

  async view(filter: Filter, options: Omit<FindOptions, 'omit'> = {}): Promise<readonly Frozen<T>[]> {
    await this.ready
    return this.page(filter, options).map(frozen)
  }

  async findOne(filter: Filter, options?: Pick<FindOptions, 'omit' | 'sort'>): Promise<T | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 })
    return doc ?? null
  }

  private page(filter: Filter, options: Omit<FindOptions, 'omit'>): T[] {
    const docs = this.matching(filter, options.sort)
    const start = options.skip ?? 0
    return docs.slice(start, options.limit ? start + options.limit : undefined)
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    await this.ready
    return this.page(filter, options).map((doc) => copyOf(doc, options.omit))
  }

  async count(filter: Filter): Promise<number> {
    await this.ready
    return this.matching(filter).length
  }

  async updateOne(filter: Filter, update: Update): Promise<T | null> {
    assertUpdate(update)
    return await this.writing(async () => {
      const [target] = this.matching(filter)
      const stored = target ? await this.update(target, update) : null
      return stored && copyOf(stored)
    })
  }

  async updateMany(filter: Filter, update: Update): Promise<number> {
    assertUpdate(update)
    return await this.writing(async () => {
      const ids = new Set(this.matching(filter).map((doc) => doc._id))
      if (!ids.size) return 0
      const { affectedDocuments } = await this.db.updateAsync(byIds(ids), update, { multi: true, returnUpdatedDocs: true })
      const stored = (affectedDocuments ?? []) as T[]
      for (const doc of stored) this.docs.put(doc)
      return stored.length
    })
  }

  /** Chooses between update and insert inside one turn of the queue, so concurrent upserts of a key make one document. */
  async upsertOne(filter: Filter, doc: T): Promise<void> {
    const { _id, ...fields } = doc
    assertUpdate({ $set: fields })
    await this.writing(async () => {
      const [target] = this.matching(filter)
      if (target) await this.update(target, { $set: fields })
      else await this.insert(doc)
    })
  }

  async deleteOne(filter: Filter): Promise<number> {
    return await this.writing(async () => {
      const [target] = this.matching(filter)
      if (!target) return 0
      const removed = await this.db.removeAsync({ _id: target._id }, { multi: false })
      this.docs.remove(target._id)
      return removed
    })
  }

  async deleteMany(filter: Filter): Promise<number> {
    return await this.writing(async () => {
      const ids = new Set(this.matching(filter).map((doc) => doc._id))
      if (!ids.size) return 0
      const removed = await this.db.removeAsync(byIds(ids), { multi: true })
      for (const id of ids) this.docs.remove(id)
      return removed
    })
  }
}
