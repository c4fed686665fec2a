import type { JobDriver } from '../jobs/port.js'
import type { Store } from '../store/port.js'
import type { DeliveryJob, NotificationChannel } from './channel.js'
import { eventsCollection, type EventRecord } from './collections.js'
import type { WorkflowOutbox } from './outbox.js'

export interface RelayLog {
  error(detail: object, message: string): void
}

/**
 * The relay (docs/notifications.md): new history entries become events (outbox.ts), and every event not yet fanned
 * out gets each channel's delivery records and the jobs that send them, on the `notifications` queue.
 * It runs when a write lands (`wake`, in the writing process, never on its request path), and the sweep
 * runs it at start-up and every minute. Passes never overlap in one process; across processes every
 * step is keyed, so two relays meeting on one event write its deliveries once.
 */
export class Relay {
  private loop: Promise<void> | null = null
  private again = false

  constructor(
    private readonly store: Store,
    private readonly outbox: WorkflowOutbox,
    private readonly channels: readonly NotificationChannel[],
    private readonly jobs: Pick<JobDriver, 'enqueue'>,
    private readonly log: RelayLog,
    /**
     * The outcome events run records still carry (event-log.ts): only a dead process leaves any, so the
     * sweep, not every pass, reads for them, their collection having no index on the field.
     */
    private readonly carried: { drain(): Promise<number> } = { drain: async () => 0 },
  ) {}

  /** Runs a pass soon; a wake during a pass runs one more after it. */
  wake(): void {
    this.again = true
    this.loop ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      while (this.again) {
        this.again = false
        try {
          await this.pass()
        } catch (error) {
          this.log.error({ err: error }, 'the notification relay failed; the sweep tries again within a minute')
        }
      }
      this.loop = null
    })
  }

  /** Waits until no pass is running or asked for (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.loop) await this.loop
  }

  /** One pass: relay the outbox, then fan out every event not yet fanned out. Answers how many events it fanned out. */
  async pass(): Promise<number> {
    await this.outbox.relayAll()
    const events = this.store.collection<EventRecord>(eventsCollection)
    let fanned = 0
    for (const event of await events.find({ fanned_out: false }, { sort: [['time', 1], ['_id', 1]] })) {
      const jobs: DeliveryJob[] = []
      for (const channel of this.channels) jobs.push(...await channel.fanOut(event))
      await this.enqueue(jobs)
      await events.updateOne({ _id: event._id }, { $set: { fanned_out: true } })
      fanned++
    }
    return fanned
  }

  /** The sweep: the events run records still carry published, a pass, then every channel's unsent deliveries enqueued again. */
  async sweep(now: Date): Promise<{ fanned_out: number; requeued: number }> {
    await this.carried.drain()
    const fanned = await this.pass()
    const jobs: DeliveryJob[] = []
    for (const channel of this.channels) if (channel.sweep) jobs.push(...await channel.sweep(now))
    await this.enqueue(jobs)
    return { fanned_out: fanned, requeued: jobs.length }
  }

  private async enqueue(jobs: readonly DeliveryJob[]): Promise<void> {
    for (const job of jobs) {
      await this.jobs.enqueue('notifications', job.name, job.data, { attempts: 1, ...(job.delayMs !== undefined ? { delayMs: job.delayMs } : {}) })
    }
  }
}
