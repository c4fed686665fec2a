import { createHash } from 'node:crypto'
import type { EventType } from '../domain/notifications/events.js'
import type { IndexSpec } from '../store/port.js'

/**
 * The notifications' own collections (docs/notifications.md). Events are the outbox's output; each delivery
 * is a record keyed by its (event, recipient, channel) before anything is sent, which is what makes a
 * delivery at most once.
 */
export const eventsCollection = 'notification_events'
export const inAppCollection = 'notifications'
export const emailCollection = 'email_deliveries'
export const preferencesCollection = 'notification_preferences'
export const webhooksCollection = 'webhooks'
export const webhookDeliveriesCollection = 'webhook_deliveries'

export const notificationIndexes: Readonly<Record<string, IndexSpec[]>> = {
  [eventsCollection]: [{ fields: ['fanned_out'] }, { fields: ['time'] }],
  [inAppCollection]: [{ fields: ['recipient'] }, { fields: ['created_at'] }, { fields: ['event_id'] }],
  [emailCollection]: [{ fields: ['status'] }, { fields: ['recipient'] }, { fields: ['created_at'] }],
  [preferencesCollection]: [],
  [webhooksCollection]: [{ fields: ['active'] }, { fields: ['created_at'] }],
  [webhookDeliveriesCollection]: [
    { fields: ['webhook'] }, { fields: ['status'] }, { fields: ['created_at'] },
    // A webhook's log, newest first; due deliveries (sweep, send jobs); a send job's claimed ones.
    { fields: ['webhook', 'created_at'], descending: ['created_at'] }, { fields: ['status', 'next_attempt_at'] }, { fields: ['claim'] },
  ],
}

/** An event, as the outbox or an outcome wrote it: what the channels turn into deliveries. */
export interface EventRecord {
  /** `<instance>#<N>/<type>` for workflow events, `<run id>/<type>` for outcomes: the webhook-id too. */
  _id: string
  [field: string]: unknown
  type: EventType
  /** CloudEvents `source`: the path of what it came from, e.g. `/api/thesis/requests`. */
  source: string
  /** CloudEvents `subject`: the id of the entity, job or run it is about. */
  subject: string
  time: string
  /** The entity's title or a short fixed phrase; never a grade, comment or token. */
  title: string
  /** A path into the web app (`/approvals/thesis/ThesisRequest%2F...`), joined to FRONTEND_URL in emails. */
  link: string
  /** Thin facts for webhooks (ids, type, stage, round, counts); FERPA rules in docs/notifications.md. */
  data: Record<string, unknown>
  /** Who hears of it by in-app and email, resolved from the instance when the event was relayed. */
  recipients: string[]
  /** The one who acted, never among the recipients. */
  actor?: string
  /** False until every channel has its deliveries; the sweep finishes those left false. */
  fanned_out: boolean
}

export type Channel = 'inapp' | 'email' | `webhook:${string}`

/** The id of the delivery of one event to one recipient on one channel: short, URL-safe, the same in every process. */
export function deliveryId(eventId: string, recipient: string, channel: Channel): string {
  return createHash('sha256').update(`${eventId}\n${recipient}\n${channel}`).digest('base64url').slice(0, 24)
}
