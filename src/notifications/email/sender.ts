import type { DriverLogger } from '../../jobs/port.js'
import type { Store } from '../../store/port.js'
import { claimTimeoutMs, deliveries, giveUpAfterMs, type EmailDelivery } from './deliveries.js'
import { messageIdDomain, type Mailer } from './mailer.js'

export interface SendTally {
  sent: number
  retrying: number
  failed: number
  /** Not claimed: sent already, or another sender has it. */
  passed: number
}

export const noSmtp = 'SMTP_URL is not set'

/**
 * Sends delivery records. A record is claimed by a compare-and-set (pending → sending) before it is
 * sent, so of any number of jobs naming it one sends it; it is marked sent once the SMTP server has
 * accepted it. Its Message-ID follows from its id, the same on every attempt.
 */
export class Sender {
  private readonly domain: string

  constructor(
    private readonly store: Store,
    private readonly mailer: Mailer | null,
    from: string,
    private readonly log: DriverLogger,
    private readonly now: () => Date,
  ) {
    this.domain = messageIdDomain(from)
  }

  private get records() {
    return deliveries(this.store)
  }

  messageId(id: string): string {
    return `${id}.email@${this.domain}`
  }

  async claim(id: string): Promise<EmailDelivery | null> {
    return this.records.updateOne({ _id: id, status: 'pending' }, { $set: { status: 'sending', claimed_at: this.now().toISOString() } })
  }

  /**
   * Sends one claimed record. Answers false when the SMTP server could not be reached, so a batch
   * stops there and leaves the rest pending for the next sweep instead of trying each in turn.
   */
  async deliver(record: EmailDelivery, tally: SendTally): Promise<boolean> {
    const claim = { _id: record._id, status: 'sending', claimed_at: record.claimed_at ?? '' }
    if (!this.mailer || !record.to || !record.message) {
      await this.records.updateOne(claim, { $set: { status: 'not_sent', reason: this.mailer ? 'nothing to send' : noSmtp } })
      tally.failed++
      return true
    }
    const outcome = await this.mailer.send({ ...record.message, to: record.to, messageId: this.messageId(record._id) })
    if (outcome.ok) {
      // Whoever holds the claim now, the message was accepted: it is sent, and never sent again.
      await this.records.updateOne({ _id: record._id }, { $set: { status: 'sent', sent_at: this.now().toISOString() }, $unset: { error: true } })
      tally.sent++
      return true
    }
    const failed = outcome.permanent || this.now().getTime() - Date.parse(record.created_at) > giveUpAfterMs
    await this.records.updateOne(claim, {
      $set: { status: failed ? 'failed' : 'pending', error: outcome.error, ...(failed ? { reason: outcome.permanent ? 'refused by the SMTP server' : 'not accepted within a day' } : {}) },
      $inc: { attempts: 1 },
    })
    if (failed) tally.failed++
    else tally.retrying++
    this.log.warn({ delivery: record._id, error: outcome.error, retry: !failed }, failed ? 'an email was refused; it is not sent' : 'an email was not accepted; the sweep sends it again')
    return !outcome.connection
  }

  /** Claims and sends the records one after another; stops when the server is away or the job is asked to stop. */
  async sendAll(ids: readonly string[], signal?: AbortSignal): Promise<SendTally> {
    const tally: SendTally = { sent: 0, retrying: 0, failed: 0, passed: 0 }
    for (const id of ids) {
      if (signal?.aborted) break
      const record = await this.claim(id)
      if (!record) {
        tally.passed++
        continue
      }
      if (!await this.deliver(record, tally)) break
    }
    return tally
  }

  /** The sweep's share: stale claims taken back, then the ids of everything pending. */
  async unsent(now: Date): Promise<string[]> {
    const stale = new Date(now.getTime() - claimTimeoutMs).toISOString()
    for (const record of await this.records.find({ status: 'sending', claimed_at: { $lt: stale } })) {
      const back = await this.records.updateOne({ _id: record._id, status: 'sending', claimed_at: record.claimed_at! }, { $set: { status: 'pending' } })
      if (back) this.log.warn({ delivery: record._id, claimed_at: record.claimed_at }, 'an email claimed over a minute ago and not marked sent was taken back')
    }
    return (await this.records.find({ status: 'pending' }, { sort: [['created_at', 1], ['_id', 1]] })).map((r) => r._id)
  }
}
