import type { EventType } from '../domain/notifications/events.js'
import type { Store } from '../store/port.js'
import { DuplicateKeyError } from '../store/port.js'
import type { NotificationChannel } from './channel.js'
import { deliveryId, inAppCollection, type EventRecord } from './collections.js'

/** An in-app notification, as stored and (without `recipient` and `event_id`) answered. */
export interface InAppNotification {
  _id: string
  [field: string]: unknown
  recipient: string
  event_id: string
  type: EventType
  subject: string
  title: string
  link: string
  created_at: string
  read_at: string | null
  /** Kept beside read_at because store filters match no null. */
  read: boolean
}

export type NotificationView = Pick<InAppNotification, '_id' | 'type' | 'subject' | 'title' | 'link' | 'created_at' | 'read_at'>

export interface NotificationPage {
  readonly items: NotificationView[]
  readonly total: number
  readonly unread: number
  readonly limit: number
  readonly offset: number
}

function answer({ _id, type, subject, title, link, created_at, read_at }: InAppNotification): NotificationView {
  return { _id, type, subject, title, link, created_at, read_at }
}

/**
 * The in-app channel: one record per (event, recipient), written when the event is fanned out, so a
 * notification is visible as soon as the relay has run; nothing to send, so no jobs.
 */
export class InApp implements NotificationChannel {
  readonly name = 'inapp'
  constructor(private readonly store: Store) {}

  private get items() {
    return this.store.collection<InAppNotification>(inAppCollection)
  }

  async fanOut(event: EventRecord): Promise<[]> {
    for (const recipient of event.recipients) {
      try {
        await this.items.insertOne({
          _id: deliveryId(event._id, recipient, 'inapp'), recipient, event_id: event._id, type: event.type, subject: event.subject,
          title: event.title, link: event.link, created_at: event.time, read_at: null, read: false,
        })
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error
      }
    }
    return []
  }

  /** The caller's notifications (any of their ids), newest first. */
  async list(ids: readonly string[], query: { unread?: boolean; limit: number; offset: number }): Promise<NotificationPage> {
    const mine = { recipient: { $in: ids } }
    const filter = query.unread ? { ...mine, read: false } : mine
    const unreadFilter = { ...mine, read: false }
    const [items, total, unread] = await Promise.all([
      this.items.find(filter, { sort: [['created_at', -1], ['_id', 1]], skip: query.offset, limit: query.limit }),
      this.items.count(filter),
      this.items.count(unreadFilter),
    ])
    return { items: items.map(answer), total, unread, limit: query.limit, offset: query.offset }
  }

  /** How many of the caller's notifications (any of their ids) are unread. */
  unreadCount(ids: readonly string[]): Promise<number> {
    return this.items.count({ recipient: { $in: ids }, read: false })
  }

  /** Marks one of the caller's notifications read (a repeat keeps the first time); null when it is not theirs. */
  async markRead(ids: readonly string[], id: string, now: Date): Promise<NotificationView | null> {
    const mine = { _id: id, recipient: { $in: ids } }
    const updated = await this.items.updateOne({ ...mine, read: false }, { $set: { read: true, read_at: now.toISOString() } })
    const current = updated ?? await this.items.findOne(mine)
    return current ? answer(current) : null
  }

  /** Marks every unread notification of the caller read; answers how many were. */
  async markAllRead(ids: readonly string[], now: Date): Promise<number> {
    return this.items.updateMany({ recipient: { $in: ids }, read: false }, { $set: { read: true, read_at: now.toISOString() } })
  }
}
