import { DuplicateKeyError, type Collection, type Doc, type Store, type Update } from '../store/port.js'
import { revisionIndexes, revisionsCollection, type Revision } from './revision.js'

/** Ids per lookup of revisions by record. */
const lookupBatch = 500

/** The field a record carries its newest revision in until that revision is written on its own (the outbox). */
export const pendingField = '_revision'

interface Versioned extends Doc {
  _version: number
  [pendingField]?: Revision
}

/**
 * Writes a record and its revision so that no write is acknowledged without its revision, whatever
 * stops the process between the two (docs/history.md).
 *
 * Where the store has transactions (the embedded store) both land in one. Where it has none (FerretDB),
 * the record's own write carries its revision in `_revision`, a single-document write being atomic
 * everywhere; the revision is then written under its `(record, version)` id and the field cleared. A
 * crash in between leaves the field set, and the revision is written by the next writer of the record
 * (before its own write can replace the field) or by the sweep. A delete writes its revision first and
 * takes it back if the record was changed meanwhile; one left behind by a crash, older than a minute,
 * is taken back by the sweep. Until then it holds the id of the record's next version: the update that
 * makes that version writes its own revision over it, as the delete it stood for can no longer land.
 */
export class HistoryWrites {
  readonly revisions: Collection<Revision>
  private indexed?: Promise<void>

  constructor(private readonly store: Store) {
    this.revisions = store.collection<Revision>(revisionsCollection)
  }

  /**
   * The revisions' indexes, made once by whoever writes first: every writer (the service, the seed, a
   * script) looks revisions up by record, which without its index reads them all.
   */
  private ready(): Promise<void> {
    return (this.indexed ??= this.store.ensureIndexes(revisionsCollection, revisionIndexes))
  }

  /**
   * The version each new record of these ids starts at, where it is not 1: after the last one of a record
   * once deleted under the same id, so that each (record, version) names one state for good.
   */
  async firstVersions(ids: readonly string[]): Promise<Map<string, number>> {
    await this.ready()
    const versions = new Map<string, number>()
    if (ids.length === 1) {
      const [last] = await this.revisions.find({ record: ids[0]! }, { sort: [['version', -1]], limit: 1 })
      if (last) versions.set(last.record, last.version + 1)
      return versions
    }
    for (let i = 0; i < ids.length; i += lookupBatch) {
      for (const { record, version } of await this.revisions.find({ record: { $in: ids.slice(i, i + lookupBatch) } })) {
        versions.set(record, Math.max(versions.get(record) ?? 1, version + 1))
      }
    }
    return versions
  }

  /** Whether the store writes a record and its revision in one transaction, needing no outbox. */
  get transactional(): boolean {
    return this.store.atomically !== undefined
  }

  async insert(collection: Collection<Doc>, doc: Doc, revision: Revision): Promise<void> {
    await this.ready()
    if (this.store.atomically) {
      await this.store.atomically([{ collection: collection.name, insert: doc }, { collection: revisionsCollection, insert: revision }])
      return
    }
    await collection.insertOne({ ...doc, [pendingField]: revision })
    await this.settle(collection, revision)
  }

  /**
   * Inserts a batch of new records with their revisions, one write for all where it can. A taken id or
   * unique value fails the call, as `insertMany` does, having written all or (on MongoDB) some of them.
   */
  async insertMany(collection: Collection<Doc>, docs: readonly Doc[], revisions: readonly Revision[]): Promise<void> {
    await this.ready()
    if (this.store.atomically) {
      await this.store.atomically([
        ...docs.map((doc) => ({ collection: collection.name, insert: doc })),
        ...revisions.map((revision) => ({ collection: revisionsCollection, insert: revision })),
      ])
      return
    }
    await collection.insertMany(docs.map((doc, i) => ({ ...doc, [pendingField]: revisions[i] })))
    await this.settleMany(collection, revisions)
  }

  /** A compare-and-set on the record's version; false when it was changed (or deleted) meanwhile. */
  async update(collection: Collection<Doc>, current: Versioned, update: Update, revision: Revision): Promise<boolean> {
    await this.ready()
    const filter = { _id: current._id, _version: current._version }
    if (this.store.atomically) {
      return this.store.atomically([{ collection: collection.name, update: filter, with: update }, { collection: revisionsCollection, insert: revision }])
    }
    if (current[pendingField]) await this.settle(collection, current[pendingField])
    const updated = await collection.updateOne(filter, { ...update, $set: { ...update.$set, [pendingField]: revision } })
    if (!updated) return false
    await this.settle(collection, revision)
    return true
  }

  /** Deletes the record if it is still at its version; false when it was changed meanwhile. */
  async remove(collection: Collection<Doc>, current: Versioned, revision: Revision): Promise<boolean> {
    await this.ready()
    const filter = { _id: current._id, _version: current._version }
    if (this.store.atomically) {
      return this.store.atomically([{ collection: collection.name, delete: filter }, { collection: revisionsCollection, insert: revision }])
    }
    if (current[pendingField]) await this.settle(collection, current[pendingField])
    try {
      await this.revisions.insertOne(revision)
    } catch (error) {
      // Another writer is deleting the same version: one of the two deletes is told it lost.
      if (error instanceof DuplicateKeyError) return false
      throw error
    }
    if (await collection.deleteOne(filter)) return true
    // Taken back while it is still the deletion: the update that changed the record may have written its revision over it.
    await this.revisions.deleteOne({ _id: revision._id, op: 'delete' })
    return false
  }

  /** Writes a revision its record carries, if not written yet, and clears it from the record. */
  async settle(collection: Collection<Doc>, revision: Revision): Promise<void> {
    await this.writeOnce([revision])
    await collection.updateOne({ _id: revision.record, _version: revision.version }, { $unset: { [pendingField]: true } })
  }

  private async settleMany(collection: Collection<Doc>, revisions: readonly Revision[]): Promise<void> {
    if (!revisions.length) return
    await this.writeOnce(revisions)
    const byVersion = new Map<number, string[]>()
    for (const { record, version } of revisions) byVersion.set(version, [...(byVersion.get(version) ?? []), record])
    for (const [version, ids] of byVersion) {
      await collection.updateMany({ _id: { $in: ids }, _version: version }, { $unset: { [pendingField]: true } })
    }
  }

  /**
   * Writes the revisions of writes that landed; those already written (a replay) are left as they are,
   * and a deletion's revision found under an update's id is replaced (`overDeletion`).
   */
  private async writeOnce(revisions: readonly Revision[]): Promise<void> {
    try {
      await this.revisions.insertMany(revisions)
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error
      for (const revision of revisions) {
        try {
          await this.revisions.insertOne(revision)
        } catch (inner) {
          if (!(inner instanceof DuplicateKeyError)) throw inner
          await this.overDeletion(revision)
        }
      }
    }
  }

  /**
   * The update that made a version landed, so a deletion's revision under the same id is of a delete that
   * never will: one a crash cut short before its record went, or one that lost to this update and has
   * yet to take its revision back. The update's revision takes its place (the delete then finds no
   * deletion to take back). A create's revision is left alone: a deletion under its id did happen.
   */
  private async overDeletion(revision: Revision): Promise<void> {
    if (revision.op === 'create' || revision.op === 'delete') return
    const { _id, ...fields } = revision
    const found = await this.revisions.findById(_id)
    if (found?.op !== 'delete') return
    const stale = Object.keys(found).filter((field) => field !== '_id' && !(field in fields))
    await this.revisions.updateOne({ _id, op: 'delete' }, {
      $set: fields,
      ...(stale.length ? { $unset: Object.fromEntries(stale.map((field) => [field, true as const])) } : {}),
    })
  }
}
