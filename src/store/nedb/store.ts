import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { Datastore } from './datastore.js'
import type { Collection, Doc, IndexSpec, Store, WriteCounts } from '../port.js'
import { NedbCollection } from './collection.js'

const compactionIntervalMs = 10 * 60 * 1000

/**
 * The embedded store: one append-only nedb file per collection under the data directory. Every
 * acknowledged write has been appended to its file before the promise resolves, so it survives the
 * process being killed (not a power cut: appends are not fsynced). Files are rewritten compactly
 * (write, fsync, rename) when loaded, every ten minutes and on close.
 *
 * Every filter, of a read or a write, is evaluated in memory by one engine (query.ts over documents.ts);
 * nedb appends the writes, one at a time per collection, and enforces unique indexes.
 *
 * One process owns a data directory: a second writer's compaction would drop the first one's appends.
 */
export class EmbeddedStore implements Store {
  readonly kind = 'embedded'
  private readonly counts = new Map<string, number>()
  readonly writeCounts: WriteCounts = { of: (name) => this.counts.get(name) ?? 0 }
  private readonly collections = new Map<string, { collection: NedbCollection<Doc>; loaded: Promise<void> }>()
  // Unref'd so that a store someone forgot to close never keeps the process alive on its own.
  private readonly compaction = setInterval(() => void this.compact().catch(() => {}), compactionIntervalMs).unref()

  private constructor(private readonly dir: string) {}

  private async compact(): Promise<void> {
    for (const { collection, loaded } of this.collections.values()) {
      await loaded
      await collection.db.compactDatafileAsync()
    }
  }

  static async open(dir: string, names: readonly string[] = []): Promise<EmbeddedStore> {
    await mkdir(dir, { recursive: true })
    const store = new EmbeddedStore(dir)
    await Promise.all(names.map((name) => store.entry(name).loaded))
    return store
  }

  /** nedb buffers commands until its file is loaded, so a collection is usable as soon as it exists. */
  private entry(name: string) {
    let entry = this.collections.get(name)
    if (!entry) {
      const db = new Datastore<Doc>({ filename: join(this.dir, `${name}.db`) })
      const loaded = db.loadDatabaseAsync()
      const wrote = () => void this.counts.set(name, (this.counts.get(name) ?? 0) + 1)
      entry = { collection: new NedbCollection(name, db, loaded, wrote), loaded }
      this.collections.set(name, entry)
    }
    return entry
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    const collection: Collection = this.entry(name).collection
    // The port leaves the documents' type to the caller (see Store.collection).
    return collection as Collection<T>
  }

  async ensureIndexes(name: string, indexes: readonly IndexSpec[]): Promise<void> {
    const { collection, loaded } = this.entry(name)
    await loaded
    for (const index of indexes) await collection.ensureIndex(index)
  }

  async indexes(name: string): Promise<IndexSpec[]> {
    const { collection, loaded } = this.entry(name)
    await loaded
    return [...collection.indexes]
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.compaction)
    await this.compact()
  }
}
