import type { SecretBox } from '../auth/secret-box.js'
import type { Config } from '../config.js'
import type { DriverLogger, HandlerMap, JobDriver, QueueName, ScheduleSpec } from '../jobs/port.js'
import type { MaintenanceJobs } from '../jobs/maintenance.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import type { Store } from '../store/port.js'
import type { NotificationChannel } from './channel.js'

/** What every part of notifications is built from. */
export interface NotificationDeps {
  readonly store: Store
  readonly records: RecordService
  readonly schema: CompiledSchema
  readonly config: Config
  readonly jobs: JobDriver
  readonly secrets: SecretBox
  readonly log: DriverLogger
  /** The department admins, by workflow id (workflows/approvers.ts). */
  readonly admins: () => Promise<string[]>
  readonly now?: () => Date
}

/** A channel with the jobs that send its deliveries. */
export interface ChannelModule {
  readonly channel: NotificationChannel
  /** Handlers on the `notifications` queue, by job name. */
  readonly handlers: HandlerMap
  /** Recurring jobs it needs (the digests), upserted where the maintenance jobs are. */
  readonly schedules: readonly { readonly queue: QueueName; readonly spec: ScheduleSpec }[]
  /** Housekeeping on the maintenance queue (removing old delivery records). */
  readonly maintenance: MaintenanceJobs
}
