import type { AppError } from '../errors.js'
import type { Actor } from '../actor.js'
import type { RecordTypes } from '../schema/generated/records.js'
import type { Doc, Frozen } from '../store/port.js'

export interface ApiRecord extends Doc {
  type: string
  _version: number
  _created_at: string
  _updated_at: string
}

/**
 * The records of the class named `N`: its type generated from the class schema when the code names the
 * class, else any record. What the store holds passed the validators derived from the same schema.
 */
export type RecordOf<N extends string> = N extends keyof RecordTypes ? RecordTypes[N] : ApiRecord

/** What a write touched: the collection and the record. */
export interface Change {
  readonly collection: string
  readonly id: string
  readonly kind: 'create' | 'update' | 'delete'
}

export type ChangeListener = (change: Change) => void

/**
 * A rule a class's records must meet beyond their schema (a requirement rule must be satisfiable against
 * the catalog, say). Given the record as it would be stored, after validation and the reference check;
 * throws (a ValidationFailed naming the problem) to refuse the write.
 */
export type WriteCheck = (record: Readonly<Record<string, unknown>>, write: { readonly id: string; readonly kind: 'create' | 'update' }) => Promise<void>

/**
 * A record as stored, for answering a read: frozen, shared with other readers, and still carrying the
 * internal fields (`_search`, ...), which the routes' response schemas leave out of every answer.
 */
export type RecordView = Frozen<ApiRecord>

/** One record of a batch to create: its fields, and the identifier to give it instead of the derived one. */
export interface CreateItem {
  readonly input: unknown
  readonly key?: string
}

/** What became of one record of a batch: the record as stored, or the 4xx `create` would have refused it with. */
export type CreateOutcome = { readonly record: ApiRecord; readonly error?: undefined } | { readonly record?: undefined; readonly error: AppError }

export interface PageView {
  readonly items: readonly RecordView[]
  readonly total: number
}

/** What a write is, beyond its fields: the version a restore brought back. */
export interface WriteNote {
  readonly restoredFrom?: number
}

/**
 * What every write must say: who makes it, as its revision names them (docs/history.md). Required, so
 * that no writer can leave it out; passed rather than read from an async context, whose promise hooks
 * slowed every promise of the process (docs/performance.md, "Record history").
 */
export interface WriteBy {
  readonly actor: Actor
}
