import type { JobContext } from '../jobs/port.js'
import { PermanentJobError } from '../jobs/port.js'
import { runCampusSync, syncKinds, type CampusSyncRequest, type SyncDeps } from './runner.js'

const termPattern = /^[0-9]{2}[FSUW]$/

/** The job data of a campus-sync job, checked: a bad kind or term fails the job at once, never retried. */
export function syncRequest(data: Record<string, unknown>): CampusSyncRequest {
  const kind = syncKinds.find((known) => known === data.kind)
  if (!kind) throw new PermanentJobError(`kind must be one of ${syncKinds.join(', ')}`)
  const { term } = data
  if (term !== undefined && (typeof term !== 'string' || !termPattern.test(term))) throw new PermanentJobError('term must be a term code like 25F')
  if (data.dryRun !== undefined && typeof data.dryRun !== 'boolean') throw new PermanentJobError('dryRun must be true or false')
  return { kind, ...(term ? { term } : {}), ...(data.dryRun ? { dryRun: true } : {}) }
}

/** The campus-sync queue's handler: one run of the kind the job names. */
export function campusSyncHandler(deps: SyncDeps) {
  return async (context: JobContext): Promise<Record<string, unknown>> => {
    const result = await runCampusSync(deps, syncRequest(context.data), context)
    if (result.status === 'failed') throw new Error(result.message)
    return { ...result }
  }
}
