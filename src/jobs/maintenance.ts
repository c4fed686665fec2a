import type { Logger } from 'pino'
import { pruneUsage } from '../auth/api-keys/usage.js'
import type { Revocations } from '../auth/revocations.js'
import type { AuditLog } from '../privacy/audit-log.js'
import type { Store } from '../store/port.js'
import type { WorkflowService } from '../workflows/service.js'

const hour = 60 * 60 * 1000

/** Each job and how often it runs. */
export const maintenanceSchedule = {
  /** Signed-out tokens are kept only until they would have expired anyway. */
  'sweep-revoked-tokens': hour,
  /** API key usage entries are kept for KEY_USAGE_RETENTION_DAYS. */
  'prune-key-usage': 24 * hour,
  /** A broken audit chain is reported as an error in the worker's log, not only when someone asks. */
  'verify-audit-chain': 24 * hour,
  /**
   * Approvals past their stage's due_at are marked overdue, and stages past twice their due time gain
   * the department admins (DESIGN 6.3). Due times are whole days: hourly marks each within the hour.
   */
  'sweep-overdue-approvals': hour,
} as const

export interface MaintenanceDeps {
  readonly store: Store
  readonly revocations: Revocations
  readonly auditLog: AuditLog
  readonly usageRetentionDays: number
  readonly workflows: Pick<WorkflowService, 'overdue'>
  readonly log: Pick<Logger, 'info' | 'error'>
  readonly now?: () => Date
}

/** Runs one job; what it returns becomes the job's result in the queue. */
export async function runMaintenance(name: string, deps: MaintenanceDeps): Promise<Record<string, unknown>> {
  const now = deps.now?.() ?? new Date()
  switch (name) {
    case 'sweep-revoked-tokens':
      return { deleted: await deps.revocations.sweep(now) }
    case 'prune-key-usage':
      return { deleted: await pruneUsage(deps.store, new Date(now.getTime() - deps.usageRetentionDays * 24 * hour)) }
    case 'verify-audit-chain': {
      const report = await deps.auditLog.verify()
      if (!report.intact) deps.log.error({ report }, 'the audit chain is broken')
      return { ...report }
    }
    case 'sweep-overdue-approvals':
      return { ...await deps.workflows.overdue.sweep(now) }
    default:
      throw new Error(`unknown maintenance job ${name}`)
  }
}
