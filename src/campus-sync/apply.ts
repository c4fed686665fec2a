import type { Actor } from '../actor.js'
import type { MappedRecord, Refs, RowError, SourceRef, SyncKind } from '../domain/campus-sync/types.js'
import type { RecordUpdate, SyncPlan } from '../domain/campus-sync/plan.js'
import { isAppError } from '../errors.js'
import { checkpoint } from '../jobs/checkpoint.js'
import type { AuditFacts } from '../privacy/audit-entry.js'
import type { AuditLog } from '../privacy/audit-log.js'
import type { Enrollments } from '../privacy/enrollments.js'
import type { ApiRecord, RecordService } from '../records/service.js'
import type { KindRecords } from './current.js'

/** Records written between checkpoints; a stop request waits at most one page of writes. */
export const applyPageSize = 100

export interface Applied {
  created: number
  updated: number
  /** Records deactivated because a feed row asked for it. */
  deactivated: number
  /** Records deactivated because a bulk feed no longer lists them: no row of this run stands for them. */
  absent: number
  errors: RowError[]
}

export interface ApplyContext {
  readonly records: RecordService
  readonly enrollments: Enrollments
  readonly auditLog: AuditLog
  /** Ties the audit entries of enrollment writes to the run. */
  readonly runId: string
  /** The run, as its writes' revisions name it. */
  readonly actor: Actor
  readonly signal: AbortSignal
  /** Current store ids by kind; looked up as the writes go, so a record created earlier in the run is found. */
  readonly maps: Readonly<Record<string, KindRecords>>
}

const classOfKind: Record<Exclude<SyncKind, 'person'>, string> = { course: 'Course', section: 'Section', enrollment: 'Enrollment' }

class RowRefused extends Error {}

/**
 * Writes a plan page by page through the record service (enrollments through their service, each write
 * audited): new records a page at a time in one batch, updates and deactivations one by one. A write the
 * service refuses (a taken email, a reference that no longer resolves) is reported as that row's error
 * and the run goes on; anything else (the store failing) ends the run.
 */
export async function applyPlan(plan: SyncPlan, context: ApplyContext): Promise<Applied> {
  const applied: Applied = { created: 0, updated: 0, deactivated: 0, absent: 0, errors: [] }
  for (let start = 0; start < plan.create.length; start += applyPageSize) {
    checkpoint(context.signal)
    await createPage(plan.kind, plan.create.slice(start, start + applyPageSize), context, applied)
  }
  const steps: (() => Promise<void>)[] = [
    ...plan.update.map((update) => () => guarded(update.row, update.source.sourced_id, applied, async () => {
      await update_(plan.kind, update, context)
      applied.updated++
    })),
    ...plan.deactivate.map((gone) => () => guarded(gone.row ?? 0, gone.source?.sourced_id ?? gone._id, applied, async () => {
      await write(plan.kind, gone._id, { active: false }, context)
      if (gone.row === undefined) applied.absent++
      else applied.deactivated++
    })),
  ]
  for (let start = 0; start < steps.length; start += applyPageSize) {
    checkpoint(context.signal)
    for (const step of steps.slice(start, start + applyPageSize)) await step()
  }
  return applied
}

async function guarded(row: number, sourcedId: string, applied: Applied, write: () => Promise<void>): Promise<void> {
  try {
    await write()
  } catch (error) {
    if (!(error instanceof RowRefused) && !(isAppError(error) && error.statusCode < 500)) throw error
    applied.errors.push(rowError(row, sourcedId, error))
  }
}

const rowError = (row: number, sourcedId: string, error: Error): RowError => ({ row, sourced_id: sourcedId, message: error.message.slice(0, 1000) })

/**
 * Creates a page of new records, a batch per class (a page of people holds several). Rows are reported
 * in page order, and each enrollment created is audited, the page's entries appended together.
 */
async function createPage(kind: SyncKind, page: readonly MappedRecord[], context: ApplyContext, applied: Applied): Promise<void> {
  // Each row's record as created, or why it was not.
  const outcomes: { readonly record?: ApiRecord; readonly error?: Error }[] = new Array(page.length)
  const byClass = new Map<string, { index: number; body: Record<string, unknown> }[]>()
  page.forEach((record, index) => {
    const { '@type': personClass, ...values } = record.values as Record<string, unknown>
    const className = kind === 'person' ? String(personClass) : classOfKind[kind]
    try {
      const body = { ...values, ...translate(record.refs, context), source: record.source }
      const batch = byClass.get(className) ?? []
      batch.push({ index, body })
      byClass.set(className, batch)
    } catch (error) {
      if (!(error instanceof RowRefused)) throw error
      outcomes[index] = { error }
    }
  })
  const by = { actor: context.actor }
  for (const [className, batch] of byClass) {
    const bodies = batch.map(({ body }) => body)
    try {
      const created = kind === 'enrollment' ? await context.enrollments.createMany(bodies, by) : await context.records.createMany(className, bodies.map((input) => ({ input })), by)
      batch.forEach(({ index }, i) => { outcomes[index] = created[i]! })
    } catch (error) {
      // A class the schema does not store refuses every row of its batch, not the run.
      if (!(isAppError(error) && error.statusCode < 500)) throw error
      for (const { index } of batch) outcomes[index] = { error }
    }
  }
  const audited: string[] = []
  page.forEach((record, index) => {
    const { record: created, error } = outcomes[index]!
    if (!created) return void applied.errors.push(rowError(record.row, record.source.sourced_id, error!))
    context.maps[kind]?.idOf.set(record.source.sourced_id, created._id)
    context.maps[kind]?.sourcedOf.set(created._id, record.source.sourced_id)
    applied.created++
    if (kind === 'enrollment') audited.push(created._id)
  })
  if (audited.length) await context.auditLog.appendMany(audited.map((id) => auditFacts(context, id, 'create')))
}

async function update_(kind: SyncKind, update: RecordUpdate, context: ApplyContext): Promise<void> {
  const { '@type': personClass, ...set } = update.set as Record<string, unknown>
  if (personClass !== undefined) throw new RowRefused(`the feed now makes this person a ${String(personClass)}; a record's class is changed by hand, not by a sync`)
  const refs = translate(update.refs, context)
  if (Array.isArray(refs.instructors)) refs.instructors = await withUnsyncedInstructors(update._id, refs.instructors, context)
  await write(kind, update._id, { ...set, ...refs }, context)
}

async function write(kind: SyncKind, id: string, patch: Record<string, unknown>, context: ApplyContext): Promise<void> {
  if (kind === 'enrollment') {
    await context.enrollments.update(id, patch, { actor: context.actor })
    await audit(context, id, 'update')
    return
  }
  await context.records.update(id, patch, { actor: context.actor })
}

/** Instructors someone added by hand (people no sync owns) stay; the feed decides only about its own. */
async function withUnsyncedInstructors(sectionId: string, fromFeed: readonly string[], context: ApplyContext): Promise<string[]> {
  const section = await context.records.get(sectionId, 'Section')
  const synced = context.maps.person?.sourcedOf
  const kept = (section?.instructors ?? []).filter((id) => !synced?.has(id))
  return [...new Set([...fromFeed, ...kept])]
}

/** References by sourcedId as store ids; a single reference that resolves to nothing refuses the row. */
function translate(refs: Refs, context: ApplyContext): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  const idOf = (ref: SourceRef) => context.maps[ref.kind]?.idOf.get(ref.sourced_id)
  for (const [field, ref] of Object.entries(refs)) {
    if (Array.isArray(ref)) {
      out[field] = (ref as readonly SourceRef[]).map(idOf).filter((id): id is string => id !== undefined)
      continue
    }
    const id = idOf(ref as SourceRef)
    if (id === undefined) throw new RowRefused(`${field} ${(ref as SourceRef).sourced_id} is not on record`)
    out[field] = id
  }
  return out
}

/** Campus sync writes protected enrollments, so each write is audited like an admin's (docs/privacy.md, "Enrollment writes"). */
async function audit(context: ApplyContext, id: string, action: 'create' | 'update'): Promise<void> {
  await context.auditLog.append(auditFacts(context, id, action))
}

function auditFacts(context: ApplyContext, id: string, action: 'create' | 'update'): AuditFacts {
  return {
    userId: null, resourceType: 'enrollment', resourceId: id, action, ipAddress: '', success: true, statusCode: action === 'create' ? 201 : 200,
    reason: null, authMethod: 'none', apiKeyId: null, apiKeyPrefix: null, role: null, basis: 'campus-sync',
    method: 'JOB', route: 'campus-sync', requestId: context.runId, userAgent: null,
  }
}
