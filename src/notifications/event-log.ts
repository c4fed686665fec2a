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

/** The internal field of a run record that carries its outcome events until they are published (records/derived.ts). */
export const carriedField = '_events'

/** Outcome events ready to ride in their run record's insert, then to be published once it has landed. */
export interface Carried {
  /** Internal fields for the record's own insert (`carry` of RecordService.create). */
  readonly fields: { readonly [carriedField]: readonly EventRecord[] }
  /** After the insert landed: the events published, and the record's field cleared. */
  publish(recordId: string): Promise<void>
}

/**
 * Where jobs, syncs and imports write their outcome events (docs/notifications.md): the event's id
 * follows from the run, so a handler run again writes it once. A run with a record of its own carries
 * its events in that record's insert (the outbox), so a process killed after the insert loses none: they
 * are published after it, and `drain` (the relay's sweep) publishes those a dead process left. `written`
 * is told after each landed write, to wake the relay.
 */
export class EventLog {
  /** `carriers`: the classes whose records may carry events, by name, with their collections, which `drain` reads. */
  constructor(private readonly store: Store, private readonly written: () => void = () => {}, private readonly carriers: Readonly<Record<string, string>> = {}) {}

  async record(event: OutcomeEvent, now = new Date()): Promise<void> {
    await this.insert(eventRecord(event, now))
    this.written()
  }

  /** The events for a record of `className` (one of the carriers) to carry in its insert. */
  carry(className: string, events: readonly OutcomeEvent[], now = new Date()): Carried {
    const collection = this.carriers[className]
    if (collection === undefined) throw new Error(`${className} records carry no events`)
    const records = events.map((event) => eventRecord(event, now))
    return { fields: { [carriedField]: records }, publish: (recordId) => this.publish(collection, recordId, records) }
  }

  /**
   * Publishes the events each carrier record still carries: those whose process died between the
   * record's insert and their publishing. Answers how many records it cleared.
   */
  async drain(): Promise<number> {
    let cleared = 0
    for (const collection of new Set(Object.values(this.carriers))) {
      const left = await this.store.collection<{ _id: string; [carriedField]?: EventRecord[] }>(collection).find({ [carriedField]: { $exists: true } })
      for (const record of left) {
        await this.publish(collection, record._id, record[carriedField] ?? [])
        cleared++
      }
    }
    return cleared
  }

  /**
   * Inserts the events, then clears the record's field. A crash between the two leaves the field, and
   * the next drain inserts them again: the insert of an event already there does nothing, so each is
   * published, and delivered, once.
   */
  private async publish(collection: string, recordId: string, records: readonly EventRecord[]): Promise<void> {
    for (const record of records) await this.insert(record)
    await this.store.collection(collection).updateOne({ _id: recordId }, { $unset: { [carriedField]: true } })
    this.written()
  }

  private async insert(record: EventRecord): Promise<void> {
    try {
      await this.store.collection<EventRecord>(eventsCollection).insertOne(record)
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error
    }
  }
}

function eventRecord(event: OutcomeEvent, now: Date): EventRecord {
  const { key, recipients, ...rest } = event
  return { _id: `${key}/${event.type}`, ...rest, time: now.toISOString(), recipients: [...new Set(recipients)], fanned_out: false }
}
