import type { EventRecord } from './collections.js'

/** A job the relay puts on the `notifications` queue for a channel to send. */
export interface DeliveryJob {
  readonly name: string
  readonly data: Record<string, unknown>
  readonly delayMs?: number
}

/**
 * One way people or systems hear of events (in-app, email, webhooks). `fanOut` writes the channel's
 * delivery records for an event, keyed by (event, recipient, channel) so a second call writes nothing
 * new, and answers the jobs that send them; `sweep` answers the jobs for deliveries left unsent (a
 * process died between claim and send, or a retry is due).
 */
export interface NotificationChannel {
  readonly name: string
  fanOut(event: EventRecord): Promise<readonly DeliveryJob[]>
  sweep?(now: Date): Promise<readonly DeliveryJob[]>
}
