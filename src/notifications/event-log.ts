import type { EventType, outcomeEventTypes } from '../domain/notifications/events.js'
import { DuplicateKeyError, type Store } from '../store/port.js'
import { eventsCollection, type EventRecord } from './collections.js'

/** An outcome event as its producer states it; the log fills in the bookkeeping. */
export interface OutcomeEvent {
  /** Unique per outcome, stable on a retry of the same write: the run's or job's id. */
  readonly key: string
  readonly type: Extract<EventType, (typeof outcomeEventTypes)[number]>
  readonly source: string
  readonly subject: string
  readonly title: string
  readonly link: string
  readonly data: Record<string, unknown>
  readonly recipients: readonly string[]
}

/**
 * Where jobs, syncs and imports write their outcome events, right after their run records (DESIGN
 * 6.7): the event's id follows from the run, so a handler run again writes it once. `written` is told
 * after each landed write, to wake the relay.
 */
export class EventLog {
  constructor(private readonly store: Store, private readonly written: () => void = () => {}) {}

  async record(event: OutcomeEvent, now = new Date()): Promise<void> {
    const { key, recipients, ...rest } = event
    try {
      await this.store.collection<EventRecord>(eventsCollection).insertOne({
        _id: `${key}/${event.type}`, ...rest, time: now.toISOString(), recipients: [...new Set(recipients)], fanned_out: false,
      })
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error
    }
    this.written()
  }
}
