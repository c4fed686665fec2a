/** What a run's revert does to one record. */
export type RevertOp = 'restore' | 'delete' | 'recreate'

export interface RevertConflict {
  readonly id: string
  readonly changedBy: string
  readonly at: string
}

/** A revert job's result (POST /api/campus-sync/runs/:id/revert, then GET /api/admin/jobs/:jobId). */
export interface RevertReport {
  readonly dryRun: boolean
  /** The revert's own run, absent on a dry run. */
  readonly runId: string | null
  readonly reverted: number
  readonly changes: readonly { readonly id: string; readonly op: RevertOp }[]
  readonly conflicts: readonly RevertConflict[]
  readonly errors: readonly { readonly id: string; readonly message: string }[]
}

/** Each op in words, as a row of the report tells what becomes of its record. */
export const revertOpWords: Readonly<Record<RevertOp, string>> = {
  restore: 'put back as it was before the run',
  delete: 'deleted (the run created it)',
  recreate: 'recreated (the run deleted it)',
}

type Fields = Record<string, unknown>
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value)
const list = (value: unknown): Fields[] => (Array.isArray(value) ? value.filter(isObject) : [])
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)
const isOp = (value: unknown): value is RevertOp => value === 'restore' || value === 'delete' || value === 'recreate'

/**
 * The job route types a result only as an object, so a revert's is checked here before it is shown:
 * null when it is not a revert's (no `reverts`), and any entry of the wrong shape left out.
 */
export function revertReportOf(result: Fields | null): RevertReport | null {
  if (!result || typeof result.reverts !== 'string') return null
  return {
    dryRun: result.dry_run === true,
    runId: text(result.run_id),
    reverted: typeof result.reverted === 'number' ? result.reverted : 0,
    changes: list(result.changes).flatMap((c) => (typeof c.id === 'string' && isOp(c.op) ? [{ id: c.id, op: c.op }] : [])),
    conflicts: list(result.conflicts).flatMap((c) => {
      const id = text(c.id)
      const changedBy = text(c.changed_by_name) ?? text(c.changed_by)
      const at = text(c.at)
      return id && changedBy && at ? [{ id, changedBy, at }] : []
    }),
    errors: list(result.errors).flatMap((e) => (typeof e.id === 'string' && typeof e.message === 'string' ? [{ id: e.id, message: e.message }] : [])),
  }
}
