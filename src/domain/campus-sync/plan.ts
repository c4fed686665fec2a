import { matcher } from './match.js'
import type { CurrentRecord, Mapped, MappedRecord, Refs, RowError, Source, SourceRef, SyncKind } from './types.js'

export interface PlanOptions {
  readonly system: string
  /** Bulk: the input is everything, so a synced record absent from it is gone. Delta: only changes. */
  readonly mode: 'bulk' | 'delta'
  readonly deletePolicy: 'deactivate' | 'keep'
  /** More deactivations than this share of the kind's active records synced from `system` refuses the whole run (default 10). */
  readonly maxDeactivatePercent: number
  /** Fields people edit themselves (schema `self_editable`): a sync fills them when empty, never overwrites them. */
  readonly selfEditable: ReadonlySet<string>
  /**
   * Fields a record keeps once it has them (a catalog course's code, which an admin corrects), each with
   * the normal form it is compared in: a feed value that differs in that form is reported as a warning,
   * never written, and one that differs only in spelling ("CS101" for "CS 101") is no change at all.
   */
  readonly keptFields?: Readonly<Record<string, (value: string) => string>>
  /**
   * Unique fields whose value another record may already hold (a shared email): the row lands without
   * the value, with a warning, instead of being refused. Compared without case.
   */
  readonly yieldWhenTaken?: readonly string[]
}

export interface RecordUpdate {
  readonly _id: string
  readonly row: number
  readonly source: Source
  /** Fields to set; `active: true` when a deactivated record comes back, `source` when a record is adopted. */
  readonly set: Readonly<Record<string, unknown>>
  readonly refs: Refs
}

export interface Refusal {
  readonly kind: SyncKind
  readonly would_deactivate: number
  readonly active: number
  readonly max_percent: number
  readonly message: string
}

export interface SyncPlan {
  readonly kind: SyncKind
  readonly create: MappedRecord[]
  readonly update: RecordUpdate[]
  readonly unchanged: number
  /** `row` is set when a feed row asked for it; without, the record is absent from a bulk feed. */
  readonly deactivate: { _id: string; source?: Source; row?: number }[]
  readonly skipped: { row: number; sourced_id: string; reason: string }[]
  readonly errors: RowError[]
  /** Rows that land without a field they brought, and why. */
  readonly warnings: RowError[]
  /** Set when the mass-deactivation guard trips: the caller must write nothing of this plan. */
  readonly refusal?: Refusal
}

/**
 * What a sync of one kind would change: a pure diff of mapped rows against current records, applied
 * by the caller only when `refusal` is absent. A dry run returns it as is.
 */
export function planSync(kind: SyncKind, current: readonly CurrentRecord[], input: Mapped, options: PlanOptions): SyncPlan {
  const find = matcher(kind, options.system, current)
  const plan = { kind, create: [] as MappedRecord[], update: [] as RecordUpdate[], unchanged: 0, deactivate: [] as SyncPlan['deactivate'], skipped: [...input.skipped], errors: [...input.errors], warnings: [] as RowError[] }
  const claimed = new Map<string, MappedRecord>()
  const deactivating = options.deletePolicy === 'deactivate'
  const taken = takenValues(kind, current, options.yieldWhenTaken ?? [])

  for (const incoming of input.records) {
    const existing = find.find(incoming)
    const record = incoming.status === 'active' ? taken.claim(incoming, existing?._id) : incoming
    for (const message of record.warnings ?? []) plan.warnings.push({ row: record.row, sourced_id: record.source.sourced_id, message })
    if (existing) {
      const other = claimed.get(existing._id)
      if (other) {
        plan.errors.push({ row: record.row, sourced_id: record.source.sourced_id, message: `matches the same record as ${other.source.sourced_id} (row ${other.row})` })
        continue
      }
      claimed.set(existing._id, record)
    }
    if (record.status !== 'active') {
      if (!existing) plan.skipped.push({ row: record.row, sourced_id: record.source.sourced_id, reason: `${record.status} and not on record` })
      // Matched by its natural key only: a record entered by hand or from another source is not the feed's to end.
      else if (existing.source?.system !== options.system) plan.skipped.push({ row: record.row, sourced_id: record.source.sourced_id, reason: `${record.status}, and the record on file was not synced from ${options.system}` })
      else if (deactivating && existing.active !== false) plan.deactivate.push({ _id: existing._id, source: existing.source, row: record.row })
      else plan.unchanged++
      continue
    }
    if (!existing) {
      plan.create.push(record)
      continue
    }
    for (const [field, normal] of Object.entries(options.keptFields ?? {})) {
      const now = existing.values[field]
      const value = record.values[field]
      if (typeof now === 'string' && typeof value === 'string' && normal(now) !== normal(value)) {
        plan.warnings.push({ row: record.row, sourced_id: record.source.sourced_id, message: `the feed's ${field} ${value} differs from the record's ${now}; the record keeps its own (an admin corrects it)` })
      }
    }
    const set = changedValues(existing, record, options)
    if (existing.active === false) set.active = true
    if (!sameSource(existing.source, record.source)) set.source = record.source
    const refs = changedRefs(existing.refs, record.refs)
    if (Object.keys(set).length === 0 && Object.keys(refs).length === 0) plan.unchanged++
    else plan.update.push({ _id: existing._id, row: record.row, source: record.source, set, refs })
  }

  if (options.mode === 'bulk' && deactivating) {
    // A row that failed validation still says its record exists: it must not read as absent.
    const seen = new Set([...input.records.map((r) => r.source.sourced_id), ...input.errors.map((e) => e.sourced_id), ...input.skipped.map((s) => s.sourced_id)])
    for (const record of current) {
      if (record.source?.system === options.system && record.active !== false && !seen.has(record.source.sourced_id) && !claimed.has(record._id)) {
        plan.deactivate.push({ _id: record._id, source: record.source })
      }
    }
  }

  // The share is of what this source owns: hand-entered records and other sources' are never deactivated
  // here, so counting them would let a feed end most of its own records under cover of theirs.
  const active = current.filter((record) => record.source?.system === options.system && record.active !== false).length
  const percent = active === 0 ? 0 : (plan.deactivate.length / active) * 100
  if (percent > options.maxDeactivatePercent) {
    const refusal: Refusal = {
      kind,
      would_deactivate: plan.deactivate.length,
      active,
      max_percent: options.maxDeactivatePercent,
      message: `Refused: the sync would deactivate ${plan.deactivate.length} of ${active} active ${kind} records synced from ${options.system} (${Math.round(percent)}%), more than the ${options.maxDeactivatePercent}% allowed; nothing was written`,
    }
    return { ...plan, refusal }
  }
  return plan
}

function changedValues(existing: CurrentRecord, record: MappedRecord, options: PlanOptions): Record<string, unknown> {
  const set: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(record.values)) {
    const now = existing.values[field]
    if ((options.selfEditable.has(field) || options.keptFields?.[field]) && !isEmpty(now)) continue
    if (!sameValue(now, value)) set[field] = value
  }
  return set
}

/**
 * The values of `fields` held by current records, and those claimed by rows earlier in this plan. `claim`
 * gives a row back without a value someone else holds, with a warning naming the field.
 */
function takenValues(kind: SyncKind, current: readonly CurrentRecord[], fields: readonly string[]) {
  const holders = new Map(fields.map((field) => [field, new Map<string, string>()]))
  const fold = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : undefined)
  for (const record of current) {
    for (const field of fields) {
      const value = fold(record.values[field])
      if (value !== undefined) holders.get(field)!.set(value, record._id)
    }
  }
  return {
    claim(record: MappedRecord, ownId: string | undefined): MappedRecord {
      const self = ownId ?? `row:${record.source.sourced_id}`
      const values = { ...record.values }
      const warnings = [...(record.warnings ?? [])]
      for (const field of fields) {
        const value = fold(values[field])
        if (value === undefined) continue
        const holder = holders.get(field)!.get(value)
        if (holder !== undefined && holder !== self) {
          delete values[field]
          warnings.push(`another ${kind} record already has this ${field} (${String(record.values[field])}); landed without it`)
        } else holders.get(field)!.set(value, self)
      }
      return warnings.length === (record.warnings ?? []).length ? record : { ...record, values, warnings }
    },
  }
}

function changedRefs(existing: Refs, incoming: Refs): Record<string, SourceRef | readonly SourceRef[]> {
  const changed: Record<string, SourceRef | readonly SourceRef[]> = {}
  for (const [field, ref] of Object.entries(incoming)) {
    if (refKey(existing[field]) !== refKey(ref)) changed[field] = ref
  }
  return changed
}

/** A set of references compares without order; instructors listed in another order are no change. */
function refKey(ref: SourceRef | readonly SourceRef[] | undefined): string {
  if (ref === undefined) return ''
  const list = Array.isArray(ref) ? (ref as readonly SourceRef[]) : [ref as SourceRef]
  return list.map((r) => `${r.kind}:${r.sourced_id}`).sort().join('|')
}

const sameSource = (a: Source | undefined, b: Source): boolean => a?.system === b.system && a.sourced_id === b.sourced_id && a.identifier === b.identifier

const isEmpty = (value: unknown): boolean => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)
