/** What the OneRoster mapping produces and the diff planner consumes; shared by both, free of I/O. */

export type SyncKind = 'course' | 'section' | 'person' | 'enrollment'

/** Kept on every synced record, and the first thing a record is matched by. */
export interface Source {
  readonly system: string
  readonly sourced_id: string
  /** A person's feed identifier when it is no campus id (free text in OneRoster): kept, never matched on. */
  readonly identifier?: string
}

/** A reference to another synced record, by its OneRoster sourcedId; the caller turns it into a store id. */
export interface SourceRef {
  readonly kind: SyncKind
  readonly sourced_id: string
}

export type Refs = Readonly<Record<string, SourceRef | readonly SourceRef[]>>

/** A problem with one input row: reported in the run's result, the row skipped, the run going on. */
export interface RowError {
  readonly row: number
  readonly sourced_id: string
  readonly message: string
}

/** One incoming row mapped to this service's record shape. */
export interface MappedRecord {
  readonly kind: SyncKind
  readonly row: number
  readonly source: Source
  /** `tobedeleted` (1.2) and `inactive` (1.1) ask for deactivation. */
  readonly status: 'active' | 'tobedeleted' | 'inactive'
  /** Plain fields, named as in schema/*.json (`@type` for people). */
  readonly values: Readonly<Record<string, unknown>>
  readonly refs: Refs
  /** Fields left out of the row because their values were unusable, and why: the row lands without them. */
  readonly warnings?: readonly string[]
}

/** A record already stored, with its references given back as sourcedIds (the caller's translation). */
export interface CurrentRecord {
  readonly _id: string
  readonly source?: Source
  readonly active?: boolean
  readonly values: Readonly<Record<string, unknown>>
  readonly refs: Refs
}

export interface Mapped {
  readonly records: MappedRecord[]
  readonly errors: RowError[]
  /** Rows left out on purpose (a parent's account, an aide's enrollment), with the reason. */
  readonly skipped: { row: number; sourced_id: string; reason: string }[]
}
