import type { Doc, IndexSpec } from '../store/port.js'
import type { Operation } from './patch.js'

export const revisionsCollection = 'revisions'

export type RevisionOp = 'create' | 'update' | 'deactivate' | 'delete'

/**
 * One write of one record (docs/history.md): `_id` is `<record>@<version>`, so writing it again (a replay
 * after a crash) changes nothing. The patch goes from the record before to the record after (an empty
 * object on either side for a create or a delete), bookkeeping fields included, so that the record of
 * any version can be rebuilt from the one after it.
 */
export interface Revision extends Doc {
  readonly record: string
  readonly collection: string
  readonly type: string
  readonly version: number
  readonly at: string
  readonly actor: string
  readonly actor_name?: string
  readonly via: string
  readonly op: RevisionOp
  /** The actor again, where it is a run a revert can undo: the sparse index a revert finds the run's writes by. */
  readonly run?: string
  readonly patch: readonly Operation[]
  /** The version a restore brought back. */
  readonly restored_from?: number
  /** On a delete, until the record is back under its id: what the trash lists. */
  readonly trashed?: true
}

export function revisionId(record: string, version: number): string {
  return `${record}@${version}`
}

export const revisionIndexes: readonly IndexSpec[] = [
  // A record's history, newest first; and its latest version.
  { fields: ['record', 'version'], descending: ['version'] },
  // A run's writes, for its revert; sparse, as most writers are no run.
  { fields: ['run', 'at'], sparse: true },
  // Retention, oldest first.
  { fields: ['at'] },
  // The trash, newest first; sparse, as only a deletion is trashed.
  { fields: ['trashed', 'at'], descending: ['at'], sparse: true },
]

/** Fields a record carries that are no part of what it says (its identity, version, stamps): left out of the change lists. */
export const bookkeepingPaths = new Set(['/_id', '/type', '/_version', '/_updated_at', '/_created_at'])
