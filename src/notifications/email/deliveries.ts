import type { EventType } from '../../domain/notifications/events.js'
import type { Collection, Store } from '../../store/port.js'
import { emailCollection } from '../collections.js'
import type { Rendered } from './templates.js'

/**
 * An email delivery's life (docs/notifications.md):
 * - `pending` → `sending` (claimed by one sender, `claimed_at`) → `sent` (`sent_at`); a send the SMTP
 *   server did not accept goes back to `pending` (attempts + 1, `error`) for the sweep's next run; a
 *   5xx refusal, or no acceptance within a day, ends it as `failed`.
 * - `held` → `digested`: news for someone on a daily or weekly digest, listed once in the next one.
 * - `skipped` (their preference is off) and `not_sent` (no SMTP_URL, no address) are final, with `reason`.
 */
export type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'held' | 'digested' | 'skipped' | 'not_sent'

export interface EmailDelivery {
  /** deliveryId(event, recipient, 'email'), or deliveryId(`digest/<frequency>/<period>`, recipient, 'email'). */
  _id: string
  [field: string]: unknown
  kind: 'event' | 'digest'
  recipient: string
  /** The address it goes to; null when the recipient has none. */
  to: string | null
  status: DeliveryStatus
  reason?: string
  created_at: string
  attempts: number
  error?: string
  claimed_at?: string
  sent_at?: string
  /** The message as it is sent, on every attempt the same (deliveries that will be sent). */
  message?: Rendered
  // An event's delivery: what a digest lists of it.
  event_id?: string
  type?: EventType
  title?: string
  /** The web app's path of what it is about. */
  link?: string
  /** The subject its own email would have had: the digest's line for it. */
  what?: string
  /** The digest that listed it (held → digested). */
  digest?: string
  // A digest's delivery.
  frequency?: string
  period?: string
  /** The held deliveries it lists. */
  items?: string[]
}

/** A claim older than this, not marked sent, is taken back by the sweep (docs/notifications.md). */
export const claimTimeoutMs = 60_000
/** An email not accepted for this long fails: news a day late is not worth a flood when the server returns. */
export const giveUpAfterMs = 24 * 60 * 60 * 1000

export function deliveries(store: Store): Collection<EmailDelivery> {
  return store.collection<EmailDelivery>(emailCollection)
}
