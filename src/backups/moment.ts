import { EJSON } from 'bson'
import { historyCollections } from '../history/maintenance.js'
import { undo } from '../history/patch.js'
import { revisionsCollection, type Revision } from '../history/revision.js'
import { pendingField } from '../history/writes.js'
import { derivedFields } from '../records/derived.js'
import type { CompiledSchema } from '../schema/index.js'
import type { Doc, Store, StoreSnapshot } from '../store/port.js'

type State = Record<string, unknown>

/**
 * A collection's lines as of the snapshot's moment. An exact snapshot's are so already. Otherwise
 * (MongoDB, read collection by collection after the moment) the revisions serve as mongodump's oplog:
 * a record of a class with history written after the moment (its `_updated_at` says so) is held back
 * and, once the collection is read, walked back through the revisions written since to its state at
 * the moment (left out if it did not exist yet); a record deleted since is brought back the same way;
 * revisions written since are left out. Collections without history are as read.
 */
export function linesAsOfMoment(snapshot: StoreSnapshot, store: Store | undefined, schema: CompiledSchema, collection: string): AsyncIterable<string> {
  if (snapshot.exact) return snapshot.lines(collection)
  if (!store) throw new Error('an inexact snapshot needs its store, to read the revisions written since its moment')
  const moment = snapshot.at.toISOString()
  if (collection === revisionsCollection) return revisionsUntil(snapshot, collection, moment)
  if (!historyCollections(schema).includes(collection)) return snapshot.lines(collection)
  return recordsAsOf(snapshot, store, schema, collection, moment)
}

async function* revisionsUntil(snapshot: StoreSnapshot, collection: string, moment: string): AsyncIterable<string> {
  for await (const line of snapshot.lines(collection)) {
    const revision = EJSON.parse(line, { relaxed: true }) as Revision
    if (revision.at <= moment) yield line
  }
}

async function* recordsAsOf(snapshot: StoreSnapshot, store: Store, schema: CompiledSchema, collection: string, moment: string): AsyncIterable<string> {
  const held = new Map<string, Doc>()
  const kept = new Set<string>()
  for await (const line of snapshot.lines(collection)) {
    const doc = EJSON.parse(line, { relaxed: true }) as Doc
    if (typeof doc._updated_at === 'string' && doc._updated_at > moment) held.set(doc._id, doc)
    else {
      kept.add(doc._id)
      yield line
    }
  }
  const since = await store.collection<Revision>(revisionsCollection).find({ at: { $gt: moment }, collection }, { sort: [['record', 1], ['version', -1]] })
  const byRecord = new Map<string, Revision[]>()
  for (const revision of since) byRecord.set(revision.record, [...(byRecord.get(revision.record) ?? []), revision])
  // Held records, and those deleted since that the read did not find (one deleted after it was read is in already).
  const deleted = since.filter((r) => r.op === 'delete' && !held.has(r.record) && !kept.has(r.record)).map((r) => r.record)
  for (const id of [...new Set([...held.keys(), ...deleted])].sort()) {
    const copy = held.get(id) ?? null
    // The copy's own revision may still be in the outbox (history/writes.ts), not yet among those read.
    const pending = copy?.[pendingField] as Revision | undefined
    const revisions = byRecord.get(id) ?? []
    if (pending && pending.at > moment && !revisions.some((r) => r.version === pending.version)) revisions.unshift(pending)
    let state: State | null = copy
    for (const revision of revisions) {
      if (copy && revision.version > Number(copy._version)) continue
      state = revision.op === 'create' ? null : revision.op === 'delete' ? undo({}, revision.patch) : state && undo(state, revision.patch)
    }
    if (!state) continue
    // A newer write's revision the copy carried is no part of the record as it was at the moment.
    const { [pendingField]: carried, ...before } = state
    const record = carried && Number(before._version) !== (carried as Revision).version ? before : state
    const cls = schema.class(String(record.type))
    yield EJSON.stringify(cls ? { ...record, ...derivedFields(cls, record) } : record, { relaxed: true })
  }
}
