import type { Actor } from '../actor.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'

export interface ImportWarning {
  readonly person: string
  /** The OpenAlex work id, "W123". */
  readonly work?: string
  readonly message: string
}

interface Totals {
  readonly created: number
  readonly updated: number
  readonly unchanged: number
  readonly rejected: number
  readonly errors: readonly { person: string; message: string }[]
  readonly warnings: readonly ImportWarning[]
}

export interface Mark {
  readonly created: number
  readonly updated: number
  readonly unchanged: number
  readonly rejected: number
  readonly errors: number
  readonly warnings: number
}

/** Where a run's totals stand before one person's works are imported. */
export const markOf = (totals: Totals): Mark => ({
  created: totals.created, updated: totals.updated, unchanged: totals.unchanged, rejected: totals.rejected,
  errors: totals.errors.length, warnings: totals.warnings.length,
})

const maxNotes = 1000

/**
 * Keeps what the import did for one person (their part of the run since `mark`) as their latest
 * PublicationImportResult, so the faculty member reads their own warnings and errors, not only an admin
 * reading the job.
 */
export async function savePersonImport(
  deps: { readonly records: RecordService; readonly schema: CompiledSchema },
  personId: string, status: 'completed' | 'stopped' | 'failed', mark: Mark, totals: Totals, finishedAt: Date, actor: Actor,
): Promise<void> {
  const cls = deps.schema.class('PublicationImportResult')
  if (!cls) return
  const note = (message: string, work?: string) => ({ ...(work ? { work } : {}), message: message.slice(0, 1000) })
  const fields = {
    status,
    finished_at: finishedAt.toISOString(),
    created: totals.created - mark.created,
    updated: totals.updated - mark.updated,
    unchanged: totals.unchanged - mark.unchanged,
    rejected: totals.rejected - mark.rejected,
    warnings: totals.warnings.slice(mark.warnings, mark.warnings + maxNotes).map((w) => note(w.message, w.work)),
    errors: totals.errors.slice(mark.errors, mark.errors + maxNotes).map((e) => note(e.message)),
  }
  const [previous] = await deps.records.find(cls, { person_id: personId }, { limit: 1 })
  if (previous) await deps.records.update(previous._id, fields, { actor })
  else await deps.records.create('PublicationImportResult', { person_id: personId, ...fields }, { actor })
}

/** A person's latest import result, or null before their first. */
export async function lastPersonImport(deps: { readonly records: RecordService; readonly schema: CompiledSchema }, personId: string) {
  const cls = deps.schema.class('PublicationImportResult')
  if (!cls) return null
  const [found] = await deps.records.find(cls, { person_id: personId }, { limit: 1 })
  return found ?? null
}
