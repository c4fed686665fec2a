import { eventsOfEntry, workflowEventId } from '../domain/notifications/events.js'
import type { RecordService } from '../records/service.js'
import type { Collection, Store } from '../store/port.js'
import { DuplicateKeyError } from '../store/port.js'
import type { Approvers } from '../workflows/approvers.js'
import { instancesCollection } from '../workflows/persistence.js'
import { domainSpec, type WorkflowDomainKey } from '../workflows/registry.js'
import { entityTitles, readerOf } from '../workflows/titles.js'
import type { StoredInstance } from '../workflows/types.js'
import { eventsCollection, type EventRecord } from './collections.js'
import { entityLink } from './links.js'

/**
 * Turns workflow history into events (docs/notifications.md): each new entry of an instance becomes its event
 * records, recipients resolved from the instance and entity as they are now; then the instance's
 * outbox flag is cleared by a write conditional on the version read, so an entry written meanwhile is
 * relayed by the next pass. Writing an event that exists already does nothing.
 */
export class WorkflowOutbox {
  constructor(private readonly store: Store, private readonly records: RecordService, private readonly approvers: Pick<Approvers, 'admins'>) {}

  private get instances(): Collection<StoredInstance & { [field: string]: unknown }> {
    return this.store.collection(instancesCollection)
  }

  private get events(): Collection<EventRecord> {
    return this.store.collection<EventRecord>(eventsCollection)
  }

  /** Relays every instance with unrelayed entries; answers how many events it wrote. */
  async relayAll(): Promise<number> {
    let written = 0
    for (const instance of await this.instances.find({ events_pending: true })) written += await this.relay(instance)
    return written
  }

  async relay(instance: StoredInstance): Promise<number> {
    const from = instance.events_relayed ?? instance.history.length
    let written = 0
    if (from < instance.history.length) {
      const domain = instance.domain as WorkflowDomainKey
      const spec = domainSpec(domain)
      const entity = await this.records.get(instance.entity)
      const student = entity ? spec.student(entity) : undefined
      const title = entity ? (await entityTitles([entity], readerOf(this.records))).get(entity._id) ?? instance.entity : instance.entity
      let admins: readonly string[] | undefined
      for (let index = from; index < instance.history.length; index++) {
        const entry = instance.history[index]!
        if (entry.action === 'overdue') admins ??= await this.approvers.admins()
        for (const event of eventsOfEntry(instance, index, { ...(student ? { student } : {}), admins: admins ?? [] })) {
          const record: EventRecord = {
            _id: workflowEventId(instance._id, index, event.type), type: event.type, source: spec.base, subject: instance.entity, time: entry.at,
            title, link: entityLink(domain, instance.entity),
            data: {
              domain, entity: instance.entity, instance: instance._id, round: entry.round, ...(event.stage !== undefined ? { stage: event.stage } : {}),
            },
            recipients: [...event.recipients], actor: entry.actor, fanned_out: false,
          }
          if (await this.write(record)) written++
        }
      }
    }
    await this.instances.updateOne({ _id: instance._id, _version: instance._version }, { $set: { events_pending: false, events_relayed: instance.history.length } })
    return written
  }

  private async write(record: EventRecord): Promise<boolean> {
    try {
      await this.events.insertOne(record)
      return true
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false
      throw error
    }
  }
}
