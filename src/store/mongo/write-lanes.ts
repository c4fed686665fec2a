/**
 * Runs the writes to each collection one after another, for servers that do not isolate them.
 *
 * FerretDB 1.x applies an update (and findAndModify) by reading the matching documents, changing them in
 * its own process and writing them back whole by `_id`, with nothing in between to stop another writer:
 * of fifty concurrent `$inc` one survives, and a compare-and-set on `_version` lets every writer win.
 * MongoDB applies each single-document write atomically and needs no lane. The lane holds for the writes
 * of this process only; see docs/architecture.md ("FerretDB differences").
 */
export class WriteLanes {
  /** The last write queued on each collection; removed once it settles and nothing queued after it. */
  private readonly tails = new Map<string, Promise<void>>()

  run<R>(collection: string, write: () => Promise<R>): Promise<R> {
    const result = (this.tails.get(collection) ?? Promise.resolve()).then(write)
    const tail = result.then(() => undefined, () => undefined)
    this.tails.set(collection, tail)
    void tail.then(() => {
      if (this.tails.get(collection) === tail) this.tails.delete(collection)
    })
    return result
  }
}
