import type { Actor } from '../actor.js'
import { isAppError } from '../errors.js'
import { walkBack, type HistoryReader } from '../history/reader.js'
import type { Revision } from '../history/revision.js'
import { restoreFields, restoreUpdate } from '../records/restore.js'
import type { ApiRecord, RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'

/** A record the revert left alone: someone changed it after the run. */
export interface RevertConflict {
  readonly id: string
  readonly changed_by: string
  readonly changed_by_name?: string
  readonly at: string
}

/** What the revert does (or, in a dry run, would do) to one record. */
export interface RevertChange {
  readonly id: string
  /** `restore`: back to its state before the run; `delete`: the run created it; `recreate`: the run deleted it. */
  readonly op: 'restore' | 'delete' | 'recreate'
}

export interface RevertOutcome {
  readonly reverts: string
  readonly dry_run: boolean
  readonly changes: RevertChange[]
  readonly conflicts: RevertConflict[]
  /** Records whose revert was refused (a reference added since, say), with why. */
  readonly errors: { readonly id: string; readonly message: string }[]
}

export interface RevertDeps {
  readonly records: RecordService
  readonly history: HistoryReader
  readonly schema: CompiledSchema
}

export interface RevertRun {
  /** The run's actor: `sync:<run>` or `import:<run>`. */
  readonly actor: string
  /** Who the revert writes as: a run of its own, so that it can be reverted in turn. */
  readonly as: string
  readonly dryRun: boolean
  readonly progress?: (done: number, total: number) => Promise<void>
  readonly signal?: AbortSignal
}

/** The run's revisions by record, in the order the run first wrote each. */
async function writesByRecord(deps: RevertDeps, actor: string): Promise<Map<string, Revision[]>> {
  const byRecord = new Map<string, Revision[]>()
  for (const revision of await deps.history.revisions.find({ run: actor }, { sort: [['at', 1], ['version', 1]] })) {
    byRecord.set(revision.record, [...(byRecord.get(revision.record) ?? []), revision])
  }
  return byRecord
}

/** The record as it was just before the revision `version`, walking back from `current` (null: it did not exist). */
function stateBefore(current: Readonly<Record<string, unknown>> | null, revisions: readonly Revision[], version: number): Record<string, unknown> | null {
  for (const { revision, before } of walkBack(current, revisions)) {
    if (revision.version === version) return before
  }
  throw new Error(`${revisions[0]?.record ?? 'the record'} has no revision ${version}`)
}

/** The records as they are now, by id (absent once deleted): one read per collection. */
async function currentRecords(deps: RevertDeps, ids: readonly string[]): Promise<Map<string, ApiRecord>> {
  const byClass = new Map<string, string[]>()
  for (const id of ids) {
    const cls = deps.schema.classOfId(id)
    if (cls?.metadata.collection) byClass.set(cls.metadata.collection, [...(byClass.get(cls.metadata.collection) ?? []), id])
  }
  const found = new Map<string, ApiRecord>()
  for (const wanted of byClass.values()) {
    const cls = deps.schema.classOfId(wanted[0]!)!
    for (let i = 0; i < wanted.length; i += 500) {
      for (const record of await deps.records.find(cls, { _id: { $in: wanted.slice(i, i + 500) } })) found.set(record._id, record as ApiRecord)
    }
  }
  return found
}

/**
 * Undoes a run (docs/history.md): each record the run wrote goes back to what it was before the run's first
 * write of it, by a new revision, unless someone else wrote it after the run: those are left as they are
 * and reported. Records go back newest first, so that one the run created after another it refers to
 * is deleted before it. A retried revert takes what it already did as done.
 */
export async function revertRun(deps: RevertDeps, run: RevertRun): Promise<RevertOutcome> {
  const byRecord = await writesByRecord(deps, run.actor)
  const outcome: RevertOutcome = { reverts: run.actor, dry_run: run.dryRun, changes: [], conflicts: [], errors: [] }
  const ids = [...byRecord.keys()].reverse()
  // What the records are now and every revision of theirs, read up front in a few reads, not a few per record.
  const [currents, revisions] = await Promise.all([currentRecords(deps, ids), deps.history.ofRecords(ids)])
  let done = 0
  for (const id of ids) {
    run.signal?.throwIfAborted()
    const writes = byRecord.get(id)!
    const first = writes[0]!
    const last = writes.at(-1)!
    const [latest] = revisions.get(id)!
    if (latest && latest.version !== last.version && latest.actor !== run.as) {
      outcome.conflicts.push({ id, changed_by: latest.actor, ...(latest.actor_name ? { changed_by_name: latest.actor_name } : {}), at: latest.at })
    } else if (latest && latest.actor === run.as) {
      outcome.changes.push({ id, op: latest.op === 'delete' ? 'delete' : first.op === 'delete' ? 'recreate' : 'restore' })
    } else {
      await revertRecord(deps, run, { id, current: currents.get(id) ?? null, revisions: revisions.get(id)!, first }, outcome)
    }
    if (++done % 50 === 0) await run.progress?.(done, ids.length)
  }
  await run.progress?.(done, ids.length)
  return outcome
}

interface RecordToRevert {
  readonly id: string
  readonly current: ApiRecord | null
  /** Its revisions, newest first. */
  readonly revisions: readonly Revision[]
  /** The run's first write of it. */
  readonly first: Revision
}

async function revertRecord(deps: RevertDeps, run: RevertRun, record: RecordToRevert, outcome: RevertOutcome): Promise<void> {
  const { id, current, first } = record
  const target = stateBefore(current, record.revisions, first.version)
  const op: RevertChange['op'] = target === null ? 'delete' : current === null ? 'recreate' : 'restore'
  if (op === 'delete' && !current) return
  outcome.changes.push({ id, op })
  if (run.dryRun) return
  try {
    const actor: Actor = { id: run.as, name: 'Revert', via: `revert/${run.actor}`, run: true }
    if (op === 'delete') await deps.records.remove(id, { actor })
    else if (op === 'recreate') await deps.records.create(String(target!.type), restoreFields(target!), { actor, key: id.slice(String(target!.type).length + 1), restoredFrom: first.version - 1 })
    else await deps.records.update(id, restoreUpdate(current!, target!), { actor, expectVersion: current!._version, correctKey: true })
  } catch (error) {
    if (!isAppError(error) || error.statusCode >= 500) throw error
    outcome.changes.pop()
    if (error.code === 'ADKS_VERSION_CONFLICT') {
      const [latest] = await deps.history.revisions.find({ record: id }, { sort: [['version', -1]], limit: 1 })
      outcome.conflicts.push({ id, changed_by: latest?.actor ?? 'unknown', at: latest?.at ?? new Date().toISOString() })
    } else {
      outcome.errors.push({ id, message: error.message })
    }
  }
}
