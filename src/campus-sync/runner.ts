import { randomUUID } from 'node:crypto'
import type { Actor } from '../actor.js'
import type { SecretBox } from '../auth/secret-box.js'
import type { Collection, OneRosterClass, OneRosterEnrollment } from '../domain/campus-sync/model.js'
import { courseCodeKey } from '../domain/course-code.js'
import { mapCourses, mapSections } from '../domain/campus-sync/map-catalog.js'
import { mapEnrollments, mapPeople, teachersByClass, type EnrolledClass } from '../domain/campus-sync/map-people.js'
import { planSync, type SyncPlan } from '../domain/campus-sync/plan.js'
import { mapTerms } from '../domain/campus-sync/terms.js'
import type { Mapped, RowError, SyncKind } from '../domain/campus-sync/types.js'
import { nextWatermark } from '../domain/campus-sync/watermark.js'
import { checkpoint } from '../jobs/checkpoint.js'
import type { JobContext } from '../jobs/port.js'
import type { AuditLog } from '../privacy/audit-log.js'
import type { Enrollments } from '../privacy/enrollments.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import { addApplied, addPlanned, plannedCounts, unaccounted, type KindCounts } from './accounting.js'
import { applyPlan } from './apply.js'
import { loadSyncConfig, sourceKey, type CampusSyncConfig } from './config.js'
import { currentRecord, loadKind, type KindRecords } from './current.js'
import { instructorPlan } from './instructors.js'
import { syncEvent, type SyncEvents } from './outcomes.js'
import { oneRosterSystem, openSource, type Read, type SourceOptions } from './source.js'
import { readWatermarks, saveWatermark } from './watermarks.js'

export const syncKinds = ['courses', 'sections', 'people'] as const
export type SyncRunKind = (typeof syncKinds)[number]

export interface CampusSyncRequest {
  readonly kind: SyncRunKind
  /** Narrows sections and enrollments to one term code. */
  readonly term?: string
  readonly dryRun?: boolean
}

export interface SyncResult {
  readonly run_id: string
  readonly kind: SyncRunKind
  readonly dry_run: boolean
  readonly status: 'completed' | 'failed' | 'refused'
  readonly message?: string
  /** Sums over the kinds; `deactivated` counts absent records too. */
  readonly rows: number
  readonly created: number
  readonly updated: number
  readonly unchanged: number
  readonly deactivated: number
  readonly skipped: number
  readonly errors: RowError[]
  /** Rows that landed without a field they brought (a taken email, an email that is no address). */
  readonly warnings: RowError[]
  readonly by_kind: Partial<Record<SyncKind, KindCounts>>
  /** True when, for every kind, created + updated + unchanged + deactivated + skipped + errors equals its rows. */
  readonly accounted: boolean
  /** A people run's second step: section instructors set from teacher enrollments. */
  readonly instructors?: { readonly updated: number; readonly unchanged: number; readonly errors: number }
  /** A dry run's answer: what a real run would write. */
  readonly diff?: Partial<Record<SyncKind, Pick<SyncPlan, 'create' | 'update' | 'deactivate'>>>
}

export interface SyncDeps {
  readonly records: RecordService
  readonly schema: CompiledSchema
  readonly enrollments: Enrollments
  readonly auditLog: AuditLog
  /** Opens the stored client secret. */
  readonly secrets: SecretBox
  /** The configuration to use instead of the stored one. */
  readonly config?: CampusSyncConfig
  readonly sourceOptions?: SourceOptions
  /** Where a run's outcome event goes, carried by its SyncRun record; none, none is written. */
  readonly events?: SyncEvents
  readonly now?: () => Date
}

type Context = Pick<JobContext, 'signal' | 'progress' | 'log'>

// Fields the feed fills but never overwrites: an enrollment's status moves on (completed, dropped) here.
const ownedHere: Record<SyncKind, ReadonlySet<string>> = {
  course: new Set(), section: new Set(), enrollment: new Set(['status']), person: new Set(),
}

/**
 * One campus sync run of a kind (docs/operations.md, "Campus sync (OneRoster)"): read the source, plan every change, refuse the whole run if
 * the mass-deactivation guard trips, else write page by page. Rows a source delivered before failing are
 * applied (without deactivating anything by absence, since the rest never came) and the run fails with
 * the reason. Every run leaves a SyncRun record, and one that finished or was refused (a real run, not
 * a dry one) its outcome event with it.
 */
export async function runCampusSync(deps: SyncDeps, request: CampusSyncRequest, context: Context): Promise<SyncResult> {
  const runId = randomUUID()
  // Every record the run writes is the run's (docs/history.md), so that it can be reverted as a whole.
  return runOnce(deps, request, context, runId, { id: `sync:${runId}`, name: 'Campus sync', via: `campus-sync/${request.kind}`, run: true })
}

async function runOnce(deps: SyncDeps, request: CampusSyncRequest, context: Context, runId: string, actor: Actor): Promise<SyncResult> {
  const now = deps.now ?? (() => new Date())
  const startedAt = now().toISOString()
  const config = deps.config ?? await loadSyncConfig(deps.records, deps.schema, deps.secrets)
  const source = await openSource(config.source, deps.sourceOptions)
  const key = sourceKey(config.source)
  const marks = await readWatermarks(deps.records, deps.schema, key)
  const delta = config.source.type === 'oneroster-rest'
  const failures: string[] = []
  const reads = new Map<Collection, Read<Collection>>()
  /** Rows of a collection; `since` only where a delta read is safe (see below). */
  const read = async <C extends Collection>(collection: C, useWatermark: boolean): Promise<Read<C>> => {
    const result = await source.read(collection, { since: delta && useWatermark ? marks.get(collection) : undefined, signal: context.signal })
    checkpoint(context.signal)
    if (result.failure) failures.push(result.failure)
    reads.set(collection, result as Read<Collection>)
    return result
  }
  await context.progress(5, `reading ${request.kind}`)

  const planned = await plan(deps, config, request, read)
  const byKind: Partial<Record<SyncKind, KindCounts>> = {}
  const errors: RowError[] = [...planned.errors]
  const warnings: RowError[] = []
  for (const p of planned.plans) {
    byKind[p.kind] = plannedCounts(p, planned.rows[p.kind] ?? 0)
    errors.push(...p.errors)
    warnings.push(...p.warnings)
  }
  let instructors: SyncResult['instructors']

  const finish = async (status: SyncResult['status'], message?: string, diff?: SyncResult['diff']): Promise<SyncResult> => {
    const kinds = Object.values(byKind)
    const sum = (field: keyof KindCounts) => kinds.reduce((total, k) => total + k[field], 0)
    const counts = { rows: sum('rows'), created: sum('created'), updated: sum('updated'), unchanged: sum('unchanged'), deactivated: sum('deactivated') + sum('absent'), skipped: sum('skipped') }
    const off = unaccounted(byKind)
    const said = [message, planned.notice, off].filter(Boolean).join('; ')
    const result: SyncResult = {
      run_id: runId, kind: request.kind, dry_run: request.dryRun === true, status, ...(said ? { message: said } : {}), ...counts, errors, warnings,
      by_kind: byKind, accounted: off === undefined, ...(instructors ? { instructors } : {}), ...(diff ? { diff } : {}),
    }
    const listed = (list: RowError[]) => list.slice(0, 1000).map((e) => ({ row: e.row, sourced_id: (e.sourced_id || '(none)').slice(0, 1000), message: e.message.slice(0, 1000) }))
    // The run's event rides in its record's insert (the outbox, docs/notifications.md): a process killed
    // after the insert leaves the event with the record, for the notification sweep to publish.
    const runRecordId = `SyncRun/${runId}`
    const refused = planned.plans.find((p) => p.refusal)?.refusal
    const event = syncEvent({
      runId: runRecordId, kind: request.kind, ...(request.term ? { term: request.term } : {}), dryRun: result.dry_run, status, counts,
      errors: errors.length, ...(refused ? { refusal: refused } : {}),
    })
    const carried = deps.events && event ? await deps.events.carry(event) : undefined
    const run = await deps.records.create('SyncRun', {
      system: oneRosterSystem, kind: request.kind, ...(request.term ? { term: request.term } : {}), dry_run: result.dry_run, status,
      ...(said ? { message: said.slice(0, 2000) } : {}), started_at: startedAt, finished_at: now().toISOString(), ...counts,
      accounted: result.accounted, errors: listed(errors), warnings: listed(warnings),
    }, { actor, key: runId, ...(carried ? { carry: carried.fields } : {}) })
    if (carried) await carried.publish(run._id)
    context.log.info(`campus sync of ${request.kind} ${status}`, { ...counts, errors: errors.length, warnings: warnings.length, ...(said ? { message: said } : {}) })
    return result
  }

  const refusal = planned.plans.find((p) => p.refusal)?.refusal
  if (refusal || request.dryRun) {
    // Nothing is written: the counts are what the plan would do, so its rows still add up.
    for (const p of planned.plans) addPlanned(byKind[p.kind]!, p)
    if (refusal) return finish('refused', refusal.message)
    const diff = Object.fromEntries(planned.plans.map((p) => [p.kind, { create: p.create, update: p.update, deactivate: p.deactivate }]))
    return finish('completed', failures.length ? `dry run on incomplete input: ${failures.join('; ')}` : undefined, diff)
  }

  const maps = planned.maps
  const writeContext = { records: deps.records, enrollments: deps.enrollments, auditLog: deps.auditLog, runId, actor, signal: context.signal, maps }
  let step = 0
  for (const p of planned.plans) {
    await context.progress(10 + Math.round((80 * step++) / (planned.plans.length + 1)), `writing ${p.kind} records`)
    const applied = await applyPlan(p, writeContext)
    addApplied(byKind[p.kind]!, applied)
    errors.push(...applied.errors)
  }
  if (planned.instructors) {
    // After people are written: a teacher created in this run is now known. These section updates stand
    // for no row of their own, so they are counted apart from the rows.
    const plan = await planned.instructors()
    if (plan) {
      const applied = await applyPlan(plan, writeContext)
      instructors = { updated: applied.updated, unchanged: plan.unchanged, errors: applied.errors.length }
      errors.push(...applied.errors)
    }
  }

  if (failures.length) return finish('failed', failures.join('; '))
  for (const [collection, result] of reads) {
    const next = nextWatermark(marks.get(collection), result.rows)
    if (next !== undefined && next !== marks.get(collection)) await saveWatermark(deps.records, deps.schema, actor, key, collection, next)
  }
  await context.progress(100, 'done')
  return finish('completed')
}

interface Planned {
  readonly plans: SyncPlan[]
  /** The rows the feed delivered, per kind: what the run's counts must add up to. */
  readonly rows: Partial<Record<SyncKind, number>>
  readonly errors: RowError[]
  readonly maps: Record<string, KindRecords>
  /** The people run's second step: section instructors from teacher enrollments, planned once people are written. */
  readonly instructors?: () => Promise<SyncPlan | undefined>
  /** Said once in the run's message: which run to do first, when the rows need one never done. */
  readonly notice?: string
}

type Reader = <C extends Collection>(collection: C, useWatermark: boolean) => Promise<Read<C>>

async function plan(deps: SyncDeps, config: CampusSyncConfig, request: CampusSyncRequest, read: Reader): Promise<Planned> {
  const system = oneRosterSystem
  const load = (kind: SyncKind) => loadKind(deps.records, deps.schema, kind, system)
  const options = (kind: SyncKind, mode: Read<Collection>['mode'], failed: boolean) => ({
    system,
    // A partial read is only a set of changes: what did not arrive is not gone.
    mode: mode === 'bulk' && !failed ? 'bulk' as const : 'delta' as const,
    deletePolicy: config.deletePolicy,
    maxDeactivatePercent: config.maxDeactivatePercent,
    selfEditable: new Set([...selfEditable(deps.schema, kind), ...ownedHere[kind]]),
    ...(kind === 'course' ? { keptFields: { course_code: courseCodeKey } } : {}),
    ...(kind === 'person' ? { yieldWhenTaken: ['email', 'campus_id'] } : {}),
  })
  const diff = (kind: SyncKind, maps: Record<string, KindRecords>, input: Mapped, from: Read<Collection>, only?: (r: KindRecords['records'][number]) => boolean) => {
    const current = maps[kind]!.records.filter((r) => !only || only(r)).map((r) => currentRecord(kind, r, maps))
    return planSync(kind, current, input, options(kind, from.mode, from.failure !== undefined))
  }
  const terms = termFilter(config, request)

  if (request.kind === 'courses') {
    const courses = await read('courses', true)
    const maps = { course: await load('course') }
    return { plans: [diff('course', maps, mapCourses(courses.rows, system), courses)], rows: { course: courses.rows.length }, errors: [], maps }
  }

  if (request.kind === 'sections') {
    const sessions = await read('academicSessions', false)
    const mapped = mapTerms(sessions.rows)
    const chosen = mapped.terms.filter((t) => !terms || terms.has(t.code))
    const classes = await read('classes', true)
    const maps = { course: await load('course'), section: await load('section'), person: await load('person') }
    const inScope = (row: OneRosterClass) => !terms || row.termSourcedIds.some((id) => chosen.some((t) => t.sourced_id === id))
    const faculty = syncedOfType(maps.person, 'Faculty')
    // Instructors are faculty, so before any is synced (a first pass) teachers' enrollments name no one
    // known and are not read; the people run links them.
    const enrollments = faculty.size ? await read('enrollments', false) : undefined
    const instructors = !enrollments || enrollments.mode === 'absent' || enrollments.failure ? undefined : teachersByClass(enrollments.rows, faculty)
    const input = withSkipped(
      mapSections(classes.rows.filter(inScope), system, { knownCourses: new Set(maps.course.idOf.keys()), terms: chosen, ...(instructors ? { instructors } : {}) }),
      classes.rows.filter((row) => !inScope(row)), 'none of its terms is synced by this run',
    )
    return { plans: [diff('section', maps, input, classes, (r) => !terms || terms.has(String(r.term)))], rows: { section: classes.rows.length }, errors: mapped.errors, maps }
  }

  const users = await read('users', true)
  // Enrollments are read whole: teachers' rows decide a section's full list of instructors.
  const enrollments = await read('enrollments', false)
  const maps: Record<string, KindRecords> = { course: await load('course'), section: await load('section'), person: await load('person'), enrollment: await load('enrollment') }
  const people = mapPeople(users.rows, system)
  const personPlan = diff('person', maps, people, users)
  // People this run adopts (matched by campus id) are known by their sourcedId from here on, so the
  // enrollments that name them are matched to what is on record rather than created twice.
  for (const update of personPlan.update) {
    maps.person!.idOf.set(update.source.sourced_id, update._id)
    maps.person!.sourcedOf.set(update._id, update.source.sourced_id)
  }
  const students = new Set([...syncedOfType(maps.person!, 'UndergraduateStudent'), ...syncedOfType(maps.person!, 'GraduateStudent')])
  for (const record of people.records) if (String(record.values['@type']).endsWith('Student') && record.status === 'active') students.add(record.source.sourced_id)
  const classes = new Map<string, EnrolledClass>()
  // Sections of terms this run leaves out: their enrollments are out of scope, not rows in error.
  const otherTerms = new Set<string>()
  for (const section of maps.section!.records) {
    const sourcedId = maps.section!.sourcedOf.get(section._id)
    const course = maps.course!.sourcedOf.get(String(section.course))
    if (!sourcedId || !course) continue
    if (!terms || terms.has(String(section.term))) classes.set(sourcedId, { course, term: String(section.term) })
    else otherTerms.add(sourcedId)
  }
  const inScope = (row: OneRosterEnrollment) => row.classSourcedId === undefined || !otherTerms.has(row.classSourcedId)
  const enrollmentInput = withSkipped(mapEnrollments(enrollments.rows.filter(inScope), system, { classes, students }), enrollments.rows.filter((row) => !inScope(row)), 'its class is in a term this run does not sync')
  const enrollmentPlan = enrollments.mode === 'absent' ? undefined
    : diff('enrollment', maps, enrollmentInput, enrollments, (r) => !terms || terms.has(String(r.term)))
  const plans = enrollmentPlan ? [personPlan, enrollmentPlan] : [personPlan]
  const instructors = enrollments.mode === 'absent' || enrollments.failure ? undefined : async () => {
    const sections = maps.section!.records.filter((s) => maps.section!.sourcedOf.has(s._id) && (!terms || terms.has(String(s.term))))
    return instructorPlan(sections, maps, teachersByClass(enrollments.rows, syncedOfType(await load('person'), 'Faculty')))
  }
  const rows = { person: users.rows.length, ...(enrollmentPlan ? { enrollment: enrollments.rows.length } : {}) }
  return { plans, rows, errors: [], maps, ...(instructors ? { instructors } : {}), ...(enrollmentInput.notice ? { notice: enrollmentInput.notice } : {}) }
}

/** Rows a run leaves out of its scope, counted as skipped with the reason, so every row is accounted for. */
function withSkipped<M extends Mapped>(mapped: M, rows: readonly { row: number; sourcedId: string }[], reason: string): M {
  return { ...mapped, skipped: [...mapped.skipped, ...rows.map((row) => ({ row: row.row, sourced_id: row.sourcedId, reason }))] }
}

/** The run's term, else the configured terms; undefined means every term. */
function termFilter(config: CampusSyncConfig, request: CampusSyncRequest): Set<string> | undefined {
  if (request.term) return new Set([request.term])
  return config.terms.length ? new Set(config.terms) : undefined
}

function syncedOfType(people: KindRecords, type: string): Set<string> {
  return new Set(people.records.filter((p) => p.type === type && people.sourcedOf.has(p._id)).map((p) => people.sourcedOf.get(p._id)!))
}

function selfEditable(schema: CompiledSchema, kind: SyncKind): string[] {
  if (kind !== 'person') return []
  return ['Person', 'Faculty', 'Staff', 'UndergraduateStudent', 'GraduateStudent'].flatMap((name) => schema.class(name)?.metadata.self_editable ?? [])
}

