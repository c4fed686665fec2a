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
  readonly deactivate: { _id: string; source?: Source }[]
  readonly skipped: { row: number; sourced_id: string; reason: string }[]
  readonly errors: RowError[]
  /** Set when the mass-deactivation guard trips: the caller must write nothing of this plan. */
  readonly refusal?: Refusal
}

/**
 * What a sync of one kind would change: a pure diff of mapped rows against current records, applied
 * by the caller only when `refusal` is absent. A dry run returns it as is.
 */
export function planSync(kind: SyncKind, current: readonly CurrentRecord[], input: Mapped, options: PlanOptions): SyncPlan {
  const find = matcher(kind, options.system, current)
  const plan = { kind, create: [] as MappedRecord[], update: [] as RecordUpdate[], unchanged: 0, deactivate: [] as { _id: string; source?: Source }[], skipped: [...input.skipped], errors: [...input.errors] }
  const claimed = new Map<string, MappedRecord>()
  const deactivating = options.deletePolicy === 'deactivate'

  for (const record of input.records) {
    const existing = find.find(record)
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
      else if (deactivating && existing.active !== false) plan.deactivate.push({ _id: existing._id, source: existing.source })
      else plan.unchanged++
      continue
    }
    if (!existing) {
      plan.create.push(record)
      continue
    }
    const set = changedValues(existing, record, options.selfEditable)
    if (existing.active === false) set.active = true
    if (existing.source?.system !== options.system || existing.source.sourced_id !== record.source.sourced_id) set.source = record.source
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

function changedValues(existing: CurrentRecord, record: MappedRecord, selfEditable: ReadonlySet<string>): Record<string, unknown> {
  const set: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(record.values)) {
    const now = existing.values[field]
    if (selfEditable.has(field) && !isEmpty(now)) continue
    if (!sameValue(now, value)) set[field] = value
  }
  return set
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

const isEmpty = (value: unknown): boolean => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)
