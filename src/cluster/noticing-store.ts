import type { Collection, Doc, Filter, Store, Update, WriteCounts } from '../store/port.js'
import type { Notice } from './write-notices.js'

/** Tells this process's caches, and other instances, of a write; resolves once told (never rejects). */
export type Announce = (notice: Notice) => Promise<void>

function idOf(filter: Filter): readonly string[] | undefined {
  return typeof filter._id === 'string' ? [filter._id] : undefined
}

/**
 * A shared store whose every write is announced once it has landed and before it is acknowledged, so
 * that by the time a caller hears "done", every instance listening has heard of the write too. Reads go
 * straight through.
 */
class NoticingCollection<T extends Doc> implements Collection<T> {
  constructor(private readonly inner: Collection<T>, private readonly announce: Announce) {}

  get name(): string {
    return this.inner.name
  }

  private told(ids?: readonly string[]): Promise<void> {
    return this.announce({ collection: this.inner.name, ...(ids ? { ids } : {}) })
  }

  async insertOne(doc: T): Promise<void> {
    await this.inner.insertOne(doc)
    await this.told([doc._id])
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    // A failed batch may have written some of its documents.
    try {
      await this.inner.insertMany(docs)
    } finally {
      if (docs.length) await this.told(docs.map((d) => d._id))
    }
  }

  findById: Collection<T>['findById'] = (id, options) => this.inner.findById(id, options)
  viewById: Collection<T>['viewById'] = (id) => this.inner.viewById(id)
  view: Collection<T>['view'] = (filter, options) => this.inner.view(filter, options)
  findOne: Collection<T>['findOne'] = (filter, options) => this.inner.findOne(filter, options)
  find: Collection<T>['find'] = (filter, options) => this.inner.find(filter, options)
  count: Collection<T>['count'] = (filter) => this.inner.count(filter)

  async updateOne(filter: Filter, update: Update): Promise<T | null> {
    const updated = await this.inner.updateOne(filter, update)
    if (updated) await this.told([updated._id])
    return updated
  }

  async updateMany(filter: Filter, update: Update): Promise<number> {
    const matched = await this.inner.updateMany(filter, update)
    if (matched) await this.told(idOf(filter))
    return matched
  }

  async upsertOne(filter: Filter, doc: T): Promise<void> {
    await this.inner.upsertOne(filter, doc)
    await this.told(idOf(filter))
  }

  async deleteOne(filter: Filter): Promise<number> {
    const deleted = await this.inner.deleteOne(filter)
    if (deleted) await this.told(idOf(filter))
    return deleted
  }

  async deleteMany(filter: Filter): Promise<number> {
    const deleted = await this.inner.deleteMany(filter)
    if (deleted) await this.told(idOf(filter))
    return deleted
  }
}

/** The store with its writes announced; `counts` (what is known of writes) becomes its `writeCounts`. */
export function noticingStore(inner: Store, counts: WriteCounts, announce: Announce): Store {
  const collections = new Map<string, Collection>()
  return {
    kind: inner.kind,
    writeCounts: counts,
    collection<T extends Doc = Doc>(name: string): Collection<T> {
      let found = collections.get(name)
      if (!found) collections.set(name, (found = new NoticingCollection(inner.collection(name), announce)))
      return found as Collection<T>
    },
    ensureIndexes: (collection, indexes) => inner.ensureIndexes(collection, indexes),
    collectionNames: () => inner.collectionNames(),
    drop: async (collection) => {
      await inner.drop(collection)
      await announce({ collection })
    },
    snapshot: () => inner.snapshot(),
    ping: () => inner.ping(),
    close: () => inner.close(),
  }
}
