import type { Collection, Filter, Store } from '../store/port.js'
import { changesOf, diff, undo, type FieldChange } from './patch.js'
import { bookkeepingPaths, revisionsCollection, type Revision, type RevisionOp } from './revision.js'

type State = Record<string, unknown>

/** One entry of a record's history as the API answers it (docs/history.md). */
export interface HistoryEntry {
  readonly version: number
  readonly at: string
  readonly actor: string
  readonly actor_name?: string
  readonly via: string
  readonly op: RevisionOp
  readonly restored_from?: number
  readonly changes: FieldChange[]
}

/** A revision with the record as it was just after it and just before it (null: not there). */
interface Step {
  readonly revision: Revision
  readonly after: State | null
  readonly before: State | null
}

/**
 * Walks a record's revisions (newest first, as given) back from the record as it is now (null once
 * deleted): each with the record as it was just after it and just before it.
 */
export function* walkBack(current: Readonly<State> | null, revisions: Iterable<Revision>): Generator<Step, State | null> {
  let state: State | null = current ? { ...current } : null
  for (const revision of revisions) {
    if (state && beyond(revision, state)) continue
    const after = revision.op === 'delete' ? null : state
    const before = revision.op === 'create' ? null : undo(after ?? {}, revision.patch)
    yield { revision, after, before }
    state = before
  }
  return state
}

/**
 * Whether the revision is of a version the record never reached: a deletion's revision, written before
 * its delete (history/writes.ts), whose delete a crash cut short or another writer's update beat. It is
 * no part of the record's past, and is taken back (or written over) soon after.
 */
function beyond(revision: Revision, state: Readonly<State>): boolean {
  return typeof state._version === 'number' && revision.version > state._version
}

/** The revisions of the record up to the version it is at (all of them once it is deleted). */
function pastOf(id: string, current: Readonly<State> | null): Filter {
  return current && typeof current._version === 'number' ? { record: id, version: { $lte: current._version } } : { record: id }
}

/** Leaves out of a state of a record what the caller may not see (student references, docs/privacy.md). */
export type Redact = (state: State) => Promise<State>

const pageSize = 200
const hidden = (path: string) => bookkeepingPaths.has(path)

function entry(revision: Revision, changes: FieldChange[]): HistoryEntry {
  const { version, at, actor, actor_name, via, op, restored_from } = revision
  return { version, at, actor, ...(actor_name ? { actor_name } : {}), via, op, ...(restored_from === undefined ? {} : { restored_from }), changes }
}

/**
 * Reads records' pasts from their revisions: each revision's patch holds the values it replaced, so the
 * record of any version is rebuilt by walking back from the record as it is now, newest first. Nothing
 * is read beyond the revisions a question needs, and nothing of it is kept.
 */
export class HistoryReader {
  readonly revisions: Collection<Revision>

  constructor(store: Store) {
    this.revisions = store.collection<Revision>(revisionsCollection)
  }

  /** The record's revisions newest first, from the record as it is now (`current`, null once deleted). */
  async *steps(id: string, current: Readonly<State> | null): AsyncGenerator<Step> {
    let state: State | null = current ? { ...current } : null
    for (let skip = 0; ; skip += pageSize) {
      const page = await this.revisions.find(pastOf(id, current), { sort: [['version', -1]], skip, limit: pageSize })
      const walk = walkBack(state, page)
      for (let step = walk.next(); ; step = walk.next()) {
        if (step.done) {
          state = step.value
          break
        }
        yield step.value
      }
      if (page.length < pageSize) return
    }
  }

  /** Every revision of these records, each record's newest first: one read for many records. */
  async ofRecords(ids: readonly string[]): Promise<Map<string, Revision[]>> {
    const byRecord = new Map<string, Revision[]>(ids.map((id) => [id, []]))
    for (let i = 0; i < ids.length; i += pageSize) {
      const found = await this.revisions.find({ record: { $in: ids.slice(i, i + pageSize) } })
      for (const revision of found) byRecord.get(revision.record)?.push(revision)
    }
    for (const revisions of byRecord.values()) revisions.sort((a, b) => b.version - a.version)
    return byRecord
  }

  /** How many revisions the record's history has, up to `current` (the record as it is now) where given. */
  async count(id: string, current: Readonly<State> | null = null): Promise<number> {
    return this.revisions.count(pastOf(id, current))
  }

  /**
   * A page of the record's history, newest first. With `redact`, each change is worked out between the
   * redacted states, so a value the caller may not see appears in no change.
   */
  async page(id: string, current: Readonly<State> | null, page: { limit: number; offset: number }, redact?: Redact): Promise<{ items: HistoryEntry[]; total: number }> {
    const total = await this.count(id, current)
    if (!redact) {
      const revisions = await this.revisions.find(pastOf(id, current), { sort: [['version', -1]], skip: page.offset, limit: page.limit })
      return { items: revisions.map((revision) => entry(revision, changesOf(revision.patch, hidden))), total }
    }
    const items: HistoryEntry[] = []
    let index = 0
    for await (const { revision, after, before } of this.steps(id, current)) {
      if (index++ < page.offset) continue
      const [was, is] = await Promise.all([before ? redact(before) : {}, after ? redact(after) : {}])
      items.push(entry(revision, changesOf(diff(was, is), hidden)))
      if (items.length >= page.limit) break
    }
    return { items, total }
  }

  /** The record as it was at `at` (an ISO date-time), or null if it did not exist then. */
  async asOf(id: string, current: Readonly<State> | null, at: string): Promise<State | null> {
    let state: State | null = current ? { ...current } : null
    let created = false
    for await (const { revision, after, before } of this.steps(id, current)) {
      if (revision.at <= at) return after
      state = before
      created = revision.op === 'create'
    }
    // Older than every revision kept: the record as it was before them, if it had been made by then.
    if (created || !state) return null
    return typeof state._created_at === 'string' && state._created_at <= at ? state : null
  }

  /** The record as the version left it: undefined when the record never had the version, null for a deletion. */
  async version(id: string, current: Readonly<State> | null, version: number): Promise<State | null | undefined> {
    if (current && current._version === version) return { ...current }
    for await (const { revision, after } of this.steps(id, current)) {
      if (revision.version === version) return after
      if (revision.version < version) return undefined
    }
    return undefined
  }

  /** The revision that deleted the record, while it is in the trash. */
  async trashed(id: string): Promise<Revision | null> {
    return this.revisions.findOne({ trashed: true, record: id }, { sort: [['version', -1]] })
  }

  /** The trash, newest deletion first: each record with who deleted it, when, and the record as it was. */
  async trash(filter: { type?: readonly string[] }, page: { limit: number; offset: number }): Promise<{ items: Revision[]; total: number }> {
    const query: Filter = filter.type ? { trashed: true, type: { $in: [...filter.type] } } : { trashed: true }
    const [items, total] = await Promise.all([
      this.revisions.find(query, { sort: [['at', -1]], skip: page.offset, limit: page.limit }),
      this.revisions.count(query),
    ])
    return { items, total }
  }

  /** A deleted record's last state, from its deletion's patch. */
  static snapshot(deletion: Revision): State {
    return undo({}, deletion.patch)
  }
}

