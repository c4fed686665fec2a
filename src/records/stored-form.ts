import type { Actor } from '../actor.js'
import { ValidationFailed } from '../errors.js'
import type { Revision } from '../history/revision.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'
import type { Doc, Update } from '../store/port.js'
import { derivedFields } from './derived.js'
import { changesContent, keepsHistory, opOf, patchOf, revisionOf, strip } from './revisions.js'
import type { ApiRecord, RecordOf } from './types.js'

/** A new record as stored: its fields (validated against its class's create schema), bookkeeping and derived fields. */
export function newRecord<N extends string>(cls: ClassDef<N>, id: string, fields: Readonly<Record<string, unknown>>, stamp: string): RecordOf<N> {
  const doc: ApiRecord = { _id: id, type: cls.name, ...fields, _version: 1, _created_at: stamp, _updated_at: stamp, ...derivedFields(cls, fields) }
  // The caller validated the fields against the class's schema, which RecordOf<N> is generated from.
  return doc as RecordOf<N>
}

/** A record as stored (internal fields left out) to the record as the class schema now wants it, or the same object to leave it. */
export type Transform = (record: Record<string, unknown>) => Record<string, unknown>

/**
 * A stored record rewritten whole by `transform` (RecordService.rewrite): the update and revision that
 * write it, or null when it is left as it was. Throws ValidationFailed when the result is not a valid
 * record of its class.
 */
export function rewriting(schema: CompiledSchema, cls: ClassDef, current: ApiRecord, transform: Transform, actor: Actor, stamp: string): { update: Update; revision?: Revision } | null {
  const id = current._id
  const stored = strip(current)
  const wanted = transform(stored)
  if (wanted === stored || !changesContent(patchOf(stored, wanted as Doc))) return null
  const problem = schema.validators.problem(cls.name, 'record', wanted)
  if (problem) throw new ValidationFailed(`${id}: ${problem}`)
  const next: Doc = { ...wanted, ...derivedFields(cls, wanted), _id: id, _updated_at: stamp, _version: current._version + 1 }
  const $set: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(next)) if (field !== '_version' && JSON.stringify(value) !== JSON.stringify(current[field])) $set[field] = value
  const gone = Object.keys(current).filter((field) => !(field in next) && field !== '_revision')
  const update = { $set, $inc: { _version: 1 }, ...(gone.length ? { $unset: Object.fromEntries(gone.map((field) => [field, true as const])) } : {}) }
  if (!keepsHistory(cls)) return { update }
  return { update, revision: revisionOf(cls, id, current._version + 1, opOf(current, next), patchOf(current, next), stamp, actor) }
}
