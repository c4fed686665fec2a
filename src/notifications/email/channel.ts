import { DuplicateKeyError, type Store } from '../../store/port.js'
import type { DeliveryJob, NotificationChannel } from '../channel.js'
import { deliveryId, type EventRecord } from '../collections.js'
import { absoluteLink } from '../links.js'
import { deliveries, type EmailDelivery } from './deliveries.js'
import type { Preferences, Recipient } from './preferences.js'
import { noSmtp, type Sender } from './sender.js'
import { eventVars, renderEvent } from './templates.js'

export const sendJob = 'send-email'
/** Ids per send job: a sweep after a long outage hands out many small jobs rather than one long one. */
const perJob = 50

export function sendJobs(ids: readonly string[]): DeliveryJob[] {
  const jobs: DeliveryJob[] = []
  for (let i = 0; i < ids.length; i += perJob) jobs.push({ name: sendJob, data: { deliveries: ids.slice(i, i + perJob) } })
  return jobs
}

/** Where an event's email to one recipient goes: sent now, held for their digest, or not at all (and why). */
function disposition(recipient: Recipient, smtp: boolean): Pick<EmailDelivery, 'status' | 'reason'> {
  if (recipient.preference.email === 'off') return { status: 'skipped', reason: 'their email preference is off' }
  if (!smtp) return { status: 'not_sent', reason: noSmtp }
  if (!recipient.address) return { status: 'not_sent', reason: 'no email address' }
  return recipient.preference.email === 'immediate' ? { status: 'pending' } : { status: 'held' }
}

/**
 * The email channel's relay side: one record per (event, recipient) written before anything is sent,
 * the message rendered into it once; one send job per event for those to send now.
 */
export class EmailChannel implements NotificationChannel {
  readonly name = 'email'

  constructor(
    private readonly store: Store,
    private readonly preferences: Preferences,
    private readonly sender: Sender,
    private readonly options: { readonly smtp: boolean; readonly frontendUrl: string; readonly now: () => Date },
  ) {}

  async fanOut(event: EventRecord): Promise<readonly DeliveryJob[]> {
    if (!event.recipients.length) return []
    const recipients = await this.preferences.recipients(event.recipients)
    const link = absoluteLink(this.options.frontendUrl, event.link)
    const stage = typeof event.data.stage === 'string' ? event.data.stage : undefined
    const message = renderEvent(event.type, eventVars({ title: event.title, stage }, link))
    const now = this.options.now().toISOString()
    const toSend: string[] = []
    for (const id of new Set(event.recipients)) {
      const recipient = recipients.get(id)!
      const { status, reason } = disposition(recipient, this.options.smtp)
      const record: EmailDelivery = {
        _id: deliveryId(event._id, id, 'email'), kind: 'event', recipient: id, to: recipient.address ?? null, status,
        ...(reason ? { reason } : {}), created_at: now, attempts: 0,
        event_id: event._id, type: event.type, title: event.title, link: event.link, what: message.subject,
        ...(status === 'pending' ? { message } : {}),
      }
      try {
        await deliveries(this.store).insertOne(record)
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error
      }
      // A record written by an earlier, interrupted fan-out is named again; its claim sorts out who sends.
      if (status === 'pending') toSend.push(record._id)
    }
    return sendJobs(toSend)
  }

  async sweep(now: Date): Promise<readonly DeliveryJob[]> {
    return sendJobs(await this.sender.unsent(now))
  }
}
