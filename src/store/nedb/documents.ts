import type { Doc, Filter, SortSpec } from '../port.js'
import { candidates, indexable, sortDocs } from './query.js'

/**
 * A collection's documents as reads see them, kept beside nedb so that reads and the search for a
 * write's targets need nothing of nedb but its public API. Only `NedbCollection` changes it, inside its
 * write queue, once nedb has acknowledged the write: a write nedb refused (a unique index, which nedb
 * rolls back) or failed to append is not here.
 *
 * The documents loaded from the file are nedb's own (`getAllData`), which nedb never changes in place;
 * a written document is the copy nedb returns (so until the next start it is held twice, here and in
 * nedb), and nothing here is ever shared with a caller that may change it.
 */
export class Documents<T extends Doc> {
  /**
   * Every document by `_id`, for point reads. Holds: each acknowledged document. Invalidated: never as a
   * whole; each write puts or removes its documents (contract test "a read after a write shows it").
   */
  private readonly byId = new Map<string, T>()

  /**
   * Per indexed field (dot notation allowed), each scalar value a document holds there (each element of
   * an array) to the ids of those documents; narrows equality and `$in` reads. Holds: every document,
   * like `byId`. Invalidated: as `byId`, entry by entry (contract test "an indexed field follows writes").
   */
  private readonly indexes = new Map<string, Map<unknown, Set<string>>>()

  /**
   * Every document in one list, and per sort asked for, every document in that order, so that a page of
   * a sorted list filters a standing order instead of sorting. Holds: the documents as of the last write.
   * Invalidated: dropped by every put or remove (contract test "a read after a write shows it, sorted or
   * not").
   */
  private snapshot: { readonly all: T[]; readonly sorted: Map<string, T[]> } | null = null

  reset(docs: readonly T[]): void {
    this.byId.clear()
    for (const index of this.indexes.values()) index.clear()
    for (const doc of docs) this.put(doc)
  }

  get(id: unknown): T | undefined {
    return this.byId.get(id as string)
  }

  /** Stores a new document, or the new version of one with the same `_id`. */
  put(doc: T): void {
    const old = this.byId.get(doc._id)
    for (const [field, index] of this.indexes) {
      if (old) unindex(index, field, old)
      indexDoc(index, field, doc)
    }
    this.byId.set(doc._id, doc)
    this.snapshot = null
  }

  remove(id: string): void {
    const old = this.byId.get(id)
    if (!old) return
    for (const [field, index] of this.indexes) unindex(index, field, old)
    this.byId.delete(id)
    this.snapshot = null
  }

  addIndex(field: string): void {
    if (this.indexes.has(field)) return
    const index = new Map<unknown, Set<string>>()
    for (const doc of this.byId.values()) indexDoc(index, field, doc)
    this.indexes.set(field, index)
  }

  all(): T[] {
    return (this.snapshot ??= { all: [...this.byId.values()], sorted: new Map() }).all
  }

  sorted(sort: SortSpec): T[] {
    const all = this.all()
    const key = JSON.stringify(sort)
    let sorted = this.snapshot!.sorted.get(key)
    if (!sorted) this.snapshot!.sorted.set(key, (sorted = sortDocs(all, sort)))
    return sorted
  }

  /**
   * The documents a filter can match, found through `_id` or an indexed field when a top-level equality
   * or `$in` allows it (or one of an `$and`'s clauses does, or each of an `$or`'s), else null. Only a
   * superset: the caller still applies the filter.
   */
  narrow(filter: Filter): T[] | null {
    const ids = this.narrowIds(filter)
    return ids && this.pick(ids)
  }

  private narrowIds(filter: Filter): Set<unknown> | null {
    for (const { field, values } of indexable(filter)) {
      if (field === '_id') return new Set(values)
      const index = this.indexes.get(field)
      if (!index) continue
      const ids = new Set<unknown>()
      for (const value of values) for (const id of index.get(value) ?? []) ids.add(id)
      return ids
    }
    for (const clause of filter.$and ?? []) {
      const ids = this.narrowIds(clause)
      if (ids) return ids
    }
    // A person looked up by campus id or email, say: each branch through its own index.
    if (!filter.$or?.length) return null
    const union = new Set<unknown>()
    for (const clause of filter.$or) {
      const ids = this.narrowIds(clause)
      if (!ids) return null
      for (const id of ids) union.add(id)
    }
    return union
  }

  private pick(ids: Iterable<unknown>): T[] {
    const found: T[] = []
    for (const id of ids) {
      const doc = this.byId.get(id as string)
      if (doc) found.push(doc)
    }
    return found
  }
}

/** The values a filter's scalar can equal at a field: arrays offer their elements, objects nothing. */
function scalarsAt(doc: Doc, field: string): Set<unknown> {
  return new Set(candidates(doc, field.split('.')).filter((value) => value !== null && typeof value !== 'object'))
}

function indexDoc(index: Map<unknown, Set<string>>, field: string, doc: Doc): void {
  for (const value of scalarsAt(doc, field)) {
    let ids = index.get(value)
    if (!ids) index.set(value, (ids = new Set()))
    ids.add(doc._id)
  }
}

function unindex(index: Map<unknown, Set<string>>, field: string, doc: Doc): void {
  for (const value of scalarsAt(doc, field)) {
    const ids = index.get(value)
    ids?.delete(doc._id)
    if (ids?.size === 0) index.delete(value)
  }
}
