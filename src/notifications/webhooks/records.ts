import type { EventType } from '../../domain/notifications/events.js'

/** A webhook as stored. Its secrets are sealed (SecretBox) and bound to its id; no answer carries them. */
export interface WebhookRecord {
  _id: string
  [field: string]: unknown
  url: string
  events: EventType[]
  description: string
  active: boolean
  secret: string
  /** The secret a rotation replaced, signing beside the new one until `previous_secret_until`. */
  previous_secret?: string
  previous_secret_until?: string
  /** Deliveries that failed for good in a row; a success sets it back to 0, and 50 disable the webhook. */
  consecutive_failures: number
  disabled_reason: string | null
  disabled_at: string | null
  secret_rotated_at: string | null
  created_at: string
  updated_at: string
}

export type WebhookView = Pick<WebhookRecord, '_id' | 'url' | 'events' | 'description' | 'active' | 'consecutive_failures' | 'disabled_reason' | 'disabled_at' | 'secret_rotated_at' | 'created_at' | 'updated_at'> & {
  /** Until when the secret a rotation replaced still signs beside the new one; null when none does. */
  previous_secret_expires_at: string | null
}

export function webhookView(record: WebhookRecord, now: Date): WebhookView {
  const { _id, url, events, description, active, consecutive_failures, disabled_reason, disabled_at, secret_rotated_at, created_at, updated_at } = record
  const until = record.previous_secret && record.previous_secret_until && Date.parse(record.previous_secret_until) > now.getTime() ? record.previous_secret_until : null
  return { _id, url, events, description, active, consecutive_failures, disabled_reason, disabled_at, secret_rotated_at, created_at, updated_at, previous_secret_expires_at: until }
}

/** One try at sending a delivery, as the delivery log shows it. */
export interface Attempt {
  at: string
  /** The receiver's status; null when none came (network error, timeout, refused address). */
  status_code: number | null
  /** Why it failed; null on success. */
  error: string | null
  /** The first 4 KB of the receiver's answer, for the admin reading the log. */
  response_body: string | null
}

export const deliveryStatuses = ['pending', 'succeeded', 'failed'] as const
export type DeliveryStatus = (typeof deliveryStatuses)[number]

/** The delivery of one event to one webhook: keyed by (event, webhook), so an event reaches a webhook once (and again only on request). */
export interface DeliveryRecord {
  _id: string
  [field: string]: unknown
  webhook: string
  event_id: string
  type: EventType
  status: DeliveryStatus
  /** The exact bytes every attempt sends: the CloudEvent, built once when the delivery was written. */
  payload: string
  attempts: Attempt[]
  /** When the next attempt is due; null once the delivery succeeded or failed for good. */
  next_attempt_at: string | null
  /** A sender holds it (compare-and-set on `claim`); a claim older than a minute is a dead process's. */
  claimed: boolean
  claim: string
  claimed_at: string
  /** Sent again on an admin's request: one attempt, no retry schedule, and not counted against the webhook. */
  manual: boolean
  created_at: string
}

export type DeliveryView = Pick<DeliveryRecord, '_id' | 'event_id' | 'type' | 'status' | 'attempts' | 'next_attempt_at' | 'created_at'>

export function deliveryView({ _id, event_id, type, status, attempts, next_attempt_at, created_at }: DeliveryRecord): DeliveryView {
  return { _id, event_id, type, status, attempts, next_attempt_at, created_at }
}
