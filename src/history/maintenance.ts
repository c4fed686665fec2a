import type { MaintenanceJobs } from '../jobs/maintenance.js'
import type { CompiledSchema } from '../schema/index.js'
import type { Doc, IndexSpec, Store } from '../store/port.js'
import type { Revision } from './revision.js'
import { pendingField, type HistoryWrites } from './writes.js'

const day = 24 * 60 * 60 * 1000
/** A deletion's revision is written just before the record goes; one older than this whose record stayed was left by a crash. */
const orphanAfterMs = 60_000
const batch = 500

/** The collections whose records keep history. */
export function historyCollections(schema: CompiledSchema): string[] {
  return schema.collections
    .filter((collection) => collection.classes.every((name) => schema.class(name)!.metadata.history !== false))
    .map((collection) => collection.name)
}

/** Where writes carry their revision until it is written (no transactions), the sweep finds them by this index. */
export const pendingIndex: IndexSpec = { fields: [`${pendingField}.version`], sparse: true }

/**
 * The outbox's safety net (history/writes.ts), on a store without transactions: writes each revision a
 * record still carries, and takes back each deletion's revision whose record was never deleted. Running
 * it again, or beside a writer, changes nothing more.
 */
export async function sweepHistory(store: Store, schema: CompiledSchema, history: HistoryWrites, now: Date): Promise<{ settled: number; orphans: number }> {
  if (history.transactional) return { settled: 0, orphans: 0 }
  let settled = 0
  for (const name of historyCollections(schema)) {
    const collection = store.collection<Doc & { [pendingField]?: Revision }>(name)
    for (;;) {
      const pending = await collection.find({ [`${pendingField}.version`]: { $exists: true } }, { limit: batch })
      for (const doc of pending) await history.settle(collection, doc[pendingField]!)
      settled += pending.length
      if (pending.length < batch) break
    }
  }
  let orphans = 0
  const deletions = await history.revisions.find({ trashed: true, at: { $lt: new Date(now.getTime() - orphanAfterMs).toISOString() } })
  for (const deletion of deletions) {
    const still = await store.collection(deletion.collection).findById(deletion.record)
    // Only while it is still the deletion: an update making that version may have written its revision over it meanwhile.
    if (still && (still._version as number) < deletion.version && await history.revisions.deleteOne({ _id: deletion._id, op: 'delete' })) orphans++
  }
  return { settled, orphans }
}

/**
 * Removes revisions older than the retention period, except each record's latest, oldest first. What
 * stays still rebuilds every version it covers, since history is walked back from the present.
 */
export async function pruneHistory(history: HistoryWrites, retentionDays: number, now: Date): Promise<{ pruned: number }> {
  const cutoff = new Date(now.getTime() - retentionDays * day).toISOString()
  let pruned = 0
  for (let skip = 0; ;) {
    const old = await history.revisions.find({ at: { $lt: cutoff } }, { sort: [['at', 1]], skip, limit: batch })
    if (!old.length) break
    const records = [...new Set(old.map((revision) => revision.record))]
    const latest = new Map<string, number>()
    for (const record of records) {
      const [newest] = await history.revisions.find({ record }, { sort: [['version', -1]], limit: 1 })
      if (newest) latest.set(record, newest.version)
    }
    const doomed = old.filter((revision) => latest.get(revision.record) !== revision.version).map((revision) => revision._id)
    if (doomed.length) pruned += await history.revisions.deleteMany({ _id: { $in: doomed } })
    // The latest revisions stay where they were, so the next page starts after them.
    skip += old.length - doomed.length
    if (old.length < batch) break
  }
  return { pruned }
}

/** The maintenance queue's share: the sweep every minute (where it has work) and the pruning daily. */
export function historyMaintenance(store: Store, schema: CompiledSchema, history: HistoryWrites, retentionDays: number): MaintenanceJobs {
  return {
    ...(history.transactional ? {} : { 'sweep-history': { every: 60_000, run: async (now: Date) => ({ ...await sweepHistory(store, schema, history, now) }) } }),
    'prune-history': { every: day, run: async (now: Date) => ({ ...await pruneHistory(history, retentionDays, now) }) },
  }
}
