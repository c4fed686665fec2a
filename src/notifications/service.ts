import type { MaintenanceJobs } from '../jobs/maintenance.js'
import type { QueueName, ScheduleSpec } from '../jobs/port.js'
import type { Instances } from '../workflows/persistence.js'
import { notificationIndexes } from './collections.js'
import type { NotificationDeps } from './deps.js'
import { createEmail, type EmailModule } from './email/index.js'
import { EventLog } from './event-log.js'
import { InApp } from './in-app.js'
import { WorkflowOutbox } from './outbox.js'
import { Relay } from './relay.js'
import { createWebhooks, type WebhookModule } from './webhooks/index.js'

/** The classes whose records carry their outcome events until published: a campus sync's run. */
const carrierClasses = ['SyncRun', 'PublicationImportRun']

/** How often the sweep runs: the relay's safety net, and the taking back of stale claims. */
export const sweepEveryMs = 60_000

/** Notifications and webhooks (docs/notifications.md), built once per process from the services they read. */
export class Notifications {
  readonly inApp: InApp
  readonly email: EmailModule
  readonly webhooks: WebhookModule
  readonly relay: Relay
  /** Where jobs, syncs and imports write their outcome events. */
  readonly events: EventLog
  private readonly now: () => Date

  private constructor(private readonly deps: NotificationDeps, instances: Instances) {
    this.now = deps.now ?? (() => new Date())
    this.inApp = new InApp(deps.store)
    this.email = createEmail(deps)
    this.webhooks = createWebhooks(deps)
    const outbox = new WorkflowOutbox(deps.store, deps.records, { admins: deps.admins })
    // Run records that carry their outcome events in their own insert (docs/notifications.md).
    const carriers = Object.fromEntries(carrierClasses.flatMap((name) => {
      const collection = deps.schema.class(name)?.metadata.collection
      return collection ? [[name, collection]] : []
    }))
    this.events = new EventLog(deps.store, () => this.relay.wake(), carriers)
    this.relay = new Relay(deps.store, outbox, [this.inApp, this.email.channel, this.webhooks.channel], deps.jobs, deps.log, this.events)
    instances.onHistory(() => this.relay.wake())
    deps.jobs.register('notifications', { ...this.email.handlers, ...this.webhooks.handlers })
  }

  static async open(deps: NotificationDeps, instances: Instances): Promise<Notifications> {
    for (const [name, indexes] of Object.entries(notificationIndexes)) await deps.store.ensureIndexes(name, indexes)
    return new Notifications(deps, instances)
  }

  /** The maintenance queue's share: the sweep every minute, and each channel's housekeeping. */
  get maintenance(): MaintenanceJobs {
    return {
      'sweep-notifications': { every: sweepEveryMs, run: async (now) => ({ ...await this.relay.sweep(now) }) },
      ...this.email.maintenance, ...this.webhooks.maintenance,
    }
  }

  /** Recurring jobs beyond the maintenance queue's (the digests). */
  get schedules(): readonly { readonly queue: QueueName; readonly spec: ScheduleSpec }[] {
    return [...this.email.schedules, ...this.webhooks.schedules]
  }

  /** Closes what the channels hold open (SMTP connections); after the job driver, whose running sends it waits for. */
  close(): void {
    this.email.close()
  }

  /** The start-up sweep, in the background: an event whose process died before relaying it goes out now. */
  startUpSweep(): void {
    this.relay.sweep(this.now()).catch((error: unknown) => this.deps.log.error({ err: error }, 'the start-up notification sweep failed; the next sweep runs within a minute'))
  }
}
