import type { Datastore } from './datastore.js'
import { assertUpdate } from '../filter-check.js'
import { frozen } from '../freeze.js'
import { DuplicateKeyError, type Collection, type Doc, type Filter, type FindOptions, type Frozen, type IndexSpec, type SortSpec, type Update } from '../port.js'
import { always, compile, copyOf, indexable, sortDocs } from './query.js'
import { translateFilter } from './translate.js'

interface UniqueViolation { errorType: 'uniqueViolated' }

function isUniqueViolation(error: unknown): error is UniqueViolation {
  return typeof error === 'object' && error !== null && (error as UniqueViolation).errorType === 'uniqueViolated'
}

/** nedb's per-field indexes, which answer equality and membership without a scan. */
interface Indexes<T> {
  readonly indexes: Record<string, { getMatching(values: unknown): T[] }>
}

/**
 * What reads reuse between writes: every document (nedb rebuilds that list from its _id tree on each
 * call) and, per sort asked for, every document in that order. Dropped by each write once it settles.
 */
interface Snapshot<T> {
  readonly all: T[]
  readonly sorted: Map<string, T[]>
}

export class NedbCollection<T extends Doc> implements Collection<T> {
  private readonly uniqueIndexes: IndexSpec[] = []
  private snapshot: Snapshot<T> | null = null

  /**
   * `loaded` resolves once nedb has read its file: reads bypass nedb's queue, so they wait for it here.
   * `wrote` is told after every write has settled, when its effect (if any) is visible to reads.
   */
  constructor(readonly name: string, readonly db: Datastore<T>, private readonly loaded: Promise<void>, private readonly wrote: () => void = () => {}) {}

  private async writing<R>(write: () => Promise<R>): Promise<R> {
    try {
      return await write()
    } finally {
      this.snapshot = null
      this.wrote()
    }
  }

  private current(): Snapshot<T> {
    return (this.snapshot ??= { all: this.db.getAllData(), sorted: new Map() })
  }

  private sortedAll(sort: SortSpec): T[] {
    const snapshot = this.current()
    const key = JSON.stringify(sort)
    let sorted = snapshot.sorted.get(key)
    if (!sorted) snapshot.sorted.set(key, (sorted = sortDocs(snapshot.all, sort)))
    return sorted
  }

  /** The documents a filter can match, from an index when a top-level condition allows it, else null. */
  private fromIndex(filter: Filter): T[] | null {
    const { indexes } = this.db as unknown as Indexes<T>
    const usable = indexable(filter).find(({ field }) => indexes[field])
    return usable ? indexes[usable.field]!.getMatching(usable.values) : null
  }

  /**
   * Matches in the order asked for. Without an index to narrow the search, the collection's standing
   * sorted snapshot is filtered, which leaves nothing to sort; a few index matches are sorted as they are.
   */
  private matching(filter: Filter, sort?: SortSpec): readonly T[] {
    const predicate = compile(filter)
    const narrowed = this.fromIndex(filter)
    if (narrowed) {
      const found = narrowed.filter(predicate)
      return sort?.length ? sortDocs(found, sort) : found
    }
    const all = sort?.length ? this.sortedAll(sort) : this.current().all
    return predicate === always ? all : all.filter(predicate)
  }

  async ensureIndex(index: IndexSpec): Promise<void> {
    const fieldName = index.fields.length === 1 ? index.fields[0]! : [...index.fields]
    await this.db.ensureIndexAsync({ fieldName, unique: index.unique ?? false, sparse: index.sparse ?? false })
    const known = this.uniqueIndexes.some((u) => u.fields.join() === index.fields.join())
    if (index.unique && !known) this.uniqueIndexes.push(index)
  }

  /**
   * nedb's unique-violation error names the value, not the index; find the index it came from. An
   * update keeps its document's `_id`, so only an insert can collide on it.
   */
  private duplicate(doc: Doc, inserting = true): DuplicateKeyError {
    if (inserting && this.current().all.some((existing) => existing._id === doc._id)) return new DuplicateKeyError(this.name, ['_id'])
    for (const index of this.uniqueIndexes) {
      const taken = this.db.getAllData().some((existing) =>
        existing._id !== doc._id && index.fields.every((field) => doc[field] !== undefined && existing[field] === doc[field]))
      if (taken) return new DuplicateKeyError(this.name, index.fields)
    }
    return new DuplicateKeyError(this.name, [])
  }

  async insertOne(doc: T): Promise<void> {
    try {
      await this.writing(() => this.db.insertAsync(doc))
    } catch (error) {
      if (isUniqueViolation(error)) throw this.duplicate(doc)
      throw error
    }
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    if (!docs.length) return
    try {
      await this.writing(() => this.db.insertAsync([...docs]))
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateKeyError(this.name, [])
      throw error
    }
  }

  private stored(id: string): T | undefined {
    return (this.db as unknown as Indexes<T>).indexes._id!.getMatching(id)[0]
  }

  async findById(id: string, options?: Pick<FindOptions, 'omit'>): Promise<T | null> {
    if (typeof id !== 'string') return this.findOne({ _id: id }, options)
    await this.loaded
    const doc = this.stored(id)
    return doc ? copyOf(doc, options?.omit) : null
  }

  // nedb never changes a stored document in place (an update stores a changed copy), so the stored
  // document itself, frozen, is a snapshot no later write can alter.
  async viewById(id: string): Promise<Frozen<T> | null> {
    if (typeof id !== 'string') return null
    await this.loaded
    const doc = this.stored(id)
    return doc ? frozen(doc) : null
  }

  async view(filter: Filter, options: Omit<FindOptions, 'omit'> = {}): Promise<readonly Frozen<T>[]> {
    await this.loaded
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
    await this.loaded
    return this.page(filter, options).map((doc) => copyOf(doc, options.omit))
  }

  async count(filter: Filter): Promise<number> {
    await this.loaded
    return this.matching(filter).length
  }

  async updateOne(filter: Filter, update: Update): Promise<T | null> {
    assertUpdate(update)
    try {
      const { affectedDocuments } = await this.writing(() => this.db.updateAsync(translateFilter(filter), update, { multi: false, returnUpdatedDocs: true }))
      return (affectedDocuments as T | null) ?? null
    } catch (error) {
      if (isUniqueViolation(error)) {
        const current = await this.findOne(filter)
        throw this.duplicate({ ...current, ...update.$set } as Doc, false)
      }
      throw error
    }
  }

  async updateMany(filter: Filter, update: Update): Promise<number> {
    assertUpdate(update)
    const { numAffected } = await this.writing(() => this.db.updateAsync(translateFilter(filter), update, { multi: true }))
    return numAffected
  }

  async upsertOne(filter: Filter, doc: T): Promise<void> {
    const { _id, ...fields } = doc
    for (let attempt = 0; ; attempt++) {
      if (await this.updateOne(filter, { $set: fields })) return
      try {
        await this.insertOne(doc)
        return
      } catch (error) {
        // A concurrent upsert inserted first: apply ours as an update on the next pass.
        if (!(error instanceof DuplicateKeyError) || attempt > 0) throw error
      }
    }
  }

  async deleteOne(filter: Filter): Promise<number> {
    return await this.writing(() => this.db.removeAsync(translateFilter(filter), { multi: false }))
  }

  async deleteMany(filter: Filter): Promise<number> {
    return await this.writing(() => this.db.removeAsync(translateFilter(filter), { multi: true }))
  }
}
