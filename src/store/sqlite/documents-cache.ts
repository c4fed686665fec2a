import { LRUCache } from 'lru-cache'
import { frozen } from '../freeze.js'
import type { Doc, Frozen } from '../port.js'

/** STORE_CACHE_MB's default: every record of the sample department several times over. */
export const defaultCacheBytes = 32 * 1024 * 1024

/**
 * The documents requests read lately, parsed and deeply frozen, so that a hot record costs neither a
 * query nor a parse, and so that the serializer's bytes for it (remembered per frozen object) live as
 * long as it does.
 *
 * Cache rule. Holds: documents by collection and `_id`, as of the last write this process made to each,
 * up to `maxBytes` of their stored JSON (their parsed form and encodings take about three times that).
 * Invalidated by: every write of the adapter, entry by entry, before it returns (collection.ts); only
 * this process writes the file, which its lock on the data directory ensures (lock.ts). Test:
 * test/store/embedded-durability.test.ts ("a cached document follows every kind of write") and the store contract's
 * "a read after a write shows it".
 */
export class DocumentsCache {
  private readonly entries: LRUCache<string, Frozen<Doc>>

  constructor(maxBytes: number) {
    this.entries = new LRUCache<string, Frozen<Doc>>({ maxSize: Math.max(1, maxBytes) })
  }

  get(collection: string, id: string): Frozen<Doc> | undefined {
    return this.entries.get(`${collection}\u0000${id}`)
  }

  /** Parses the stored text, freezes the document and keeps it; returns the frozen document. */
  put(collection: string, id: string, text: string): Frozen<Doc> {
    const key = `${collection}\u0000${id}`
    const doc = frozen(JSON.parse(text) as Doc)
    this.entries.set(key, doc, { size: Math.max(1, text.length) })
    return doc
  }

  forget(collection: string, id: string): void {
    this.entries.delete(`${collection}\u0000${id}`)
  }

  clear(): void {
    this.entries.clear()
  }
}
