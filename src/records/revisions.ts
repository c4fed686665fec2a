import type { Actor } from '../actor.js'
import { diff, type Operation } from '../history/patch.js'
import { revisionId, type Revision, type RevisionOp } from '../history/revision.js'
import type { ClassDef } from '../schema/index.js'
import type { Doc } from '../store/port.js'
import { internalFields } from './derived.js'
import type { WriteNote } from './types.js'

/** A record without its internal fields (`_search`, `_events`, ...), which no revision keeps. */
export function strip<T extends Doc>(doc: T): T {
  const record: Doc = { ...doc }
  for (const field of internalFields) delete record[field]
  return record as T
}

/** The patch from one state of a record to another, internal fields left out. */
export function patchOf(before: Doc | null, after: Doc | null): Operation[] {
  return diff(before ? strip(before) : {}, after ? strip(after) : {})
}

/** Whether a patch changes anything but the record's bookkeeping (version and stamp), which every write moves. */
export function changesContent(patch: readonly Operation[]): boolean {
  return patch.some((op) => op.path !== '/_version' && op.path !== '/_updated_at')
}

/** How a change reads in history: a record switched off by `active: false` was deactivated. */
export function opOf(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): RevisionOp {
  return before.active !== false && after.active === false ? 'deactivate' : 'update'
}

/** The revision of a write making `version` by `patch` (patchOf: from the record before to after). */
export function revisionOf(cls: ClassDef, id: string, version: number, op: RevisionOp, patch: Operation[], stamp: string, actor: Actor, note: WriteNote = {}): Revision {
  return {
    _id: revisionId(id, version), record: id, collection: cls.metadata.collection!, type: cls.name, version, at: stamp,
    actor: actor.id, ...(actor.name ? { actor_name: actor.name } : {}), via: actor.via, ...(actor.run ? { run: actor.id } : {}), op,
    patch,
    ...(note.restoredFrom === undefined ? {} : { restored_from: note.restoredFrom }),
    ...(op === 'delete' ? { trashed: true as const } : {}),
  }
}

/** Whether the class's records keep revisions (all but bookkeeping, docs/history.md). */
export function keepsHistory(cls: ClassDef): boolean {
  return cls.metadata.history !== false
}
