import { maintenanceSchedule, runMaintenance, type MaintenanceDeps } from './maintenance.js'
import type { HandlerMap, JobDriver } from './port.js'

/** The maintenance queue's handlers: one per job of the maintenance schedule. */
export function maintenanceHandlers(deps: MaintenanceDeps): HandlerMap {
  return Object.fromEntries(Object.keys(maintenanceSchedule).map((name) => [name, async () => runMaintenance(name, deps)]))
}

/** Upserts one scheduler per maintenance job (its id is the job's name); running it again changes nothing. */
export async function scheduleMaintenanceJobs(jobs: JobDriver): Promise<void> {
  for (const [name, every] of Object.entries(maintenanceSchedule)) await jobs.upsertScheduler('maintenance', { id: name, every })
}
