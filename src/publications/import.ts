import { randomUUID } from 'node:crypto'
import type { Actor } from '../actor.js'
import type { OpenAlexClient } from './openalex/client.js'
import { OpenAlexBudgetError } from './openalex/errors.js'
import { orcid as asOrcid, shortId } from '../domain/publications/openalex-ids.js'
import { publicationFromWork } from '../domain/publications/from-openalex.js'
import { planImport } from '../domain/publications/merge.js'
import type { DepartmentAuthor, PublicationFields, StoredPublication } from '../domain/publications/types.js'
import { ValidationFailed, isAppError } from '../errors.js'
import type { JobContext } from '../jobs/port.js'
import type { ApiRecord, RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import { checkpoint } from '../jobs/checkpoint.js'
import { importEvent, type ImportEvents } from './outcomes.js'
import { markOf, savePersonImport, type ImportWarning } from './person-results.js'
import { usableFields } from './usable-fields.js'

export interface PublicationDeps {
  readonly records: RecordService
  readonly schema: CompiledSchema
  readonly openalex: OpenAlexClient
  /** The response cache's invalidation (app.responseCache): called for what a finished run touched. */
  readonly invalidate: (collection: string) => void
  /** Where a finished run's outcome event goes; none, none is written. */
  readonly events?: ImportEvents
  readonly now?: () => Date
}

export interface ImportResult {
  /** The run's id: the subject of its outcome event. */
  run_id: string
  status: 'completed' | 'stopped'
  people: number
  created: number
  updated: number
  unchanged: number
  rejected: number
  errors: { person: string; message: string }[]
  /** Works imported without a field they brought (unusable as given), per person and work. */
  warnings: ImportWarning[]
  /** When the day's OpenAlex budget ran out: when it renews, and the person and cursor to go on from. */
  resumes?: { at: string; person: string; cursor?: string }
}

type Context = Pick<JobContext, 'signal' | 'progress' | 'log'>

const touched = ['people', 'publications', 'courses']

/** Department members the import links: by OpenAlex author id or ORCID. */
async function departmentAuthors(deps: PublicationDeps): Promise<ApiRecord[]> {
  const people = await deps.records.find(deps.schema.class('Person')!, { $or: [{ bibliography_source_id: { $exists: true } }, { researcher_registry_id: { $exists: true } }] })
  return people.filter((p) => p.active !== false)
}

/**
 * Imports the works of one person (or every faculty member with an author id or ORCID) from OpenAlex:
 * resolves the author (storing the new id of a merged one), pages through the works, and merges them
 * into the publications by DOI, work id, then title and year, keeping fields people edited and leaving
 * out works they rejected. A spent daily budget stops the run cleanly with where to resume.
 */
export async function runPublicationImport(deps: PublicationDeps, request: { personId?: string }, context: Context): Promise<ImportResult> {
  const runId = randomUUID()
  // Every record the run writes is the run's (docs/history.md), so that it can be reverted as a whole.
  return importOnce(deps, request, context, runId, { id: `import:${runId}`, name: 'Publication import', via: 'publication-import', run: true })
}

async function importOnce(deps: PublicationDeps, request: { personId?: string }, context: Context, runId: string, actor: Actor): Promise<ImportResult> {
  const now = deps.now ?? (() => new Date())
  const startedAt = now().toISOString()
  const result: ImportResult = { run_id: runId, status: 'completed', people: 0, created: 0, updated: 0, unchanged: 0, rejected: 0, errors: [], warnings: [] }
  try {
    const everyone = await departmentAuthors(deps)
    const people = request.personId === undefined ? everyone.filter((p) => p.type === 'Faculty') : everyone.filter((p) => p._id === request.personId)
    const authors: DepartmentAuthor[] = everyone.map((p) => ({
      _id: p._id,
      ...(typeof p.bibliography_source_id === 'string' ? { openalex_id: p.bibliography_source_id } : {}),
      ...(typeof p.researcher_registry_id === 'string' ? { orcid: p.researcher_registry_id } : {}),
    }))
    const rejected = await deps.records.find(deps.schema.class('RejectedWork')!, {})
    const rejections = { workIds: new Set(rejected.map((r) => String(r.work_id))), dois: new Set(rejected.flatMap((r) => (typeof r.doi === 'string' ? [r.doi] : []))) }
    const existing: StoredPublication[] = await deps.records.find(deps.schema.class('Publication')!, {})
    const newWorks = new Set<string>()
    for (const [index, person] of people.entries()) {
      checkpoint(context.signal)
      await context.progress(Math.round((100 * index) / Math.max(1, people.length)), `importing works of ${person._id}`)
      const mark = markOf(result)
      try {
        await importPerson(deps, person, authors, existing, rejections, { result, newWorks }, now, context, actor)
        result.people++
        await savePersonImport(deps, person._id, 'completed', mark, result, now(), actor)
      } catch (error) {
        if (error instanceof OpenAlexBudgetError) {
          result.status = 'stopped'
          result.resumes = { at: error.resetsAt.toISOString(), person: person._id, ...(error.cursor ? { cursor: error.cursor } : {}) }
          await savePersonImport(deps, person._id, 'stopped', mark, result, now(), actor)
          break
        }
        if (context.signal.aborted) throw error
        result.errors.push({ person: person._id, message: error instanceof Error ? error.message : String(error) })
        await savePersonImport(deps, person._id, 'failed', mark, result, now(), actor)
      }
    }
    // The run's record carries its event in its own insert (the outbox, docs/notifications.md): a
    // process killed after the insert leaves the event with the record, for the notification sweep.
    const carried = deps.events?.carry(importEvent({
      runId, ...(request.personId !== undefined ? { personId: request.personId } : {}), status: result.status,
      people: result.people, created: result.created, updated: result.updated, unchanged: result.unchanged, newWorks,
    }))
    const run = await deps.records.create('PublicationImportRun', {
      ...(request.personId !== undefined ? { person_id: request.personId } : {}), status: result.status,
      started_at: startedAt, finished_at: now().toISOString(), people: result.people, created: result.created,
      updated: result.updated, unchanged: result.unchanged, rejected: result.rejected, errors: result.errors.length,
    }, { actor, key: runId, ...(carried ? { carry: carried.fields } : {}) })
    if (carried) await carried.publish(run._id)
    return result
  } finally {
    for (const collection of touched) deps.invalidate(collection)
  }
}

async function importPerson(
  deps: PublicationDeps, person: ApiRecord, authors: DepartmentAuthor[], existing: StoredPublication[],
  rejections: { workIds: Set<string>; dois: Set<string> }, tally: { result: ImportResult; newWorks: Set<string> }, now: () => Date, context: Context, actor: Actor,
): Promise<void> {
  const { result, newWorks } = tally
  const openalexId = typeof person.bibliography_source_id === 'string' ? shortId(person.bibliography_source_id, 'A') : undefined
  const orcid = typeof person.researcher_registry_id === 'string' ? asOrcid(person.researcher_registry_id) : undefined
  const resolved = await deps.openalex.author(openalexId ? { openalexId } : { orcid })
  if (resolved.merged) await deps.records.update(person._id, { bibliography_source_id: resolved.id }, { actor })
  // This run links the person by the id OpenAlex answered, whichever way they were found.
  authors.push({ _id: person._id, openalex_id: resolved.id })
  for await (const page of deps.openalex.works(resolved.id)) {
    checkpoint(context.signal)
    const fetchedAt = now().toISOString()
    const incoming = page.works.map((work) => publicationFromWork(work, authors, fetchedAt)).filter((p): p is PublicationFields => p !== undefined)
    const plan = planImport(existing, incoming, rejections)
    result.unchanged += plan.unchanged
    result.rejected += plan.rejected
    const warn = (work: string | undefined, warnings: readonly string[]) => {
      for (const message of warnings) result.warnings.push({ person: person._id, ...(work ? { work } : {}), message })
    }
    for (const work of plan.create) {
      const usable = usableFields(deps.schema, 'Publication', 'create', work)
      try {
        if (usable.refusal) throw new ValidationFailed(usable.refusal)
        const created = await deps.records.create('Publication', usable.fields, { actor })
        existing.push(created)
        result.created++
        for (const author of created.dept_authors) newWorks.add(author)
        warn(work.source_id, usable.warnings)
      } catch (error) {
        if (!isAppError(error) || error.statusCode >= 500) throw error
        result.errors.push({ person: person._id, message: `${work.source_id}: ${error.message}` })
      }
    }
    for (const { _id, set } of plan.update) {
      const usable = usableFields(deps.schema, 'Publication', 'update', set as Record<string, unknown>)
      const stored = existing.find((p) => p._id === _id)
      warn(stored?.source_id, usable.warnings)
      // A change that was only the unusable field leaves the fetch stamp, which alone is no update.
      if (Object.keys(usable.fields).every((field) => field === 'source')) {
        result.unchanged++
        continue
      }
      const updated = await deps.records.update(_id, usable.fields, { actor, className: 'Publication' })
      existing.splice(existing.findIndex((p) => p._id === _id), 1, updated)
      result.updated++
      // A work newly linked to a department member is new on their list, though not to the department.
      for (const author of updated.dept_authors) if (!stored?.dept_authors.includes(author)) newWorks.add(author)
    }
  }
}
