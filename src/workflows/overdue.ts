import { activeStage, escalate, escalatesAt, markDueSoon, markOverdue, type Outcome } from '../domain/workflows/index.js'
import { hour, type MaintenanceJobs } from '../jobs/maintenance.js'
import type { Approvers } from './approvers.js'
import type { Definitions } from './definitions.js'
import { WorkflowConflictError } from './errors.js'
import type { Instances } from './persistence.js'
import type { OverdueReport, StoredInstance } from './types.js'

/** How long before its due time a stage's pending approvers are reminded. */
export const dueSoonWindowMs = 24 * hour

/**
 * The maintenance job's sweep of approvals past their due time (docs/workflows.md): each instance in
 * review whose active stage is overdue is marked so, and escalated to the department admins once its
 * definition's escalation time has passed. Only the instance changes: neither touches the entity's status.
 */
export class OverdueSweep {
  constructor(private readonly instances: Instances, private readonly definitions: Definitions, private readonly approvers: Approvers) {}

  async sweep(now: Date): Promise<OverdueReport> {
    let marked = 0
    let escalated = 0
    let dueSoon = 0
    const admins = { roles: { department_admin: await this.approvers.admins() } }
    for (const instance of await this.instances.collection.find({ status: 'in_review' })) {
      const stage = activeStage(instance)
      if (!stage?.due_at) continue
      if (now.getTime() < Date.parse(stage.due_at)) {
        if (await this.quietly(instance._id, (current) => markDueSoon(current, now, dueSoonWindowMs))) dueSoon++
        continue
      }
      const definition = await this.definitions.byId(instance.workflow)
      const def = definition?.stages.find((s) => s.key === stage.key)
      if (!definition || !def) continue
      if ((await this.quietly(instance._id, (current) => markOverdue(current, now)))) marked++
      const at = def.due_in_days !== undefined ? escalatesAt(stage, def.due_in_days) : undefined
      if (at !== undefined && now.getTime() >= Date.parse(at) && stage.escalated_at === undefined) {
        if (await this.quietly(instance._id, (current) => escalate(current, definition, admins, now))) escalated++
      }
    }
    return { marked, escalated, due_soon: dueSoon }
  }

  /** One action of the sweep: true when applied; a lost race or refusal is left for the next run. */
  private async quietly(id: string, run: (current: StoredInstance) => Outcome<StoredInstance>): Promise<boolean> {
    try {
      return (await this.instances.act(id, run)).applied
    } catch (error) {
      if (error instanceof WorkflowConflictError) return false
      throw error
    }
  }
}

/**
 * Approvals past their stage's due_at are marked overdue, and stages past twice their due time gain the
 * department admins (docs/workflows.md). Due times are whole days: hourly marks each within the hour.
 */
export function overdueMaintenance(sweep: Pick<OverdueSweep, 'sweep'>): MaintenanceJobs {
  return { 'sweep-overdue-approvals': { every: hour, run: async (now) => ({ ...await sweep.sweep(now) }) } }
}
