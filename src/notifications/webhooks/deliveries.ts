import { randomUUID } from 'node:crypto'
import { RecordNotFound, ValidationFailed } from '../../errors.js'
import { PermanentJobError, type DriverLogger, type JobContext, type JobDriver } from '../../jobs/port.js'
import { TransportError } from '../../net/outbound.js'
import { DuplicateKeyError, type Store } from '../../store/port.js'
import type { DeliveryJob, NotificationChannel } from '../channel.js'
import { deliveryId, webhookDeliveriesCollection, webhooksCollection, type EventRecord } from '../collections.js'
import { checkTarget, TargetRefused, type Resolver } from './address.js'
import type { WebhookEndpoints } from './endpoints.js'
import { cloudEvent, type PayloadUrls } from './payload.js'
import { deliveryView, type Attempt, type DeliveryRecord, type DeliveryStatus, type DeliveryView, type WebhookRecord } from './records.js'
import { signatureHeader } from './signature.js'
import { postPinned } from './transport.js'

export const sendJobName = 'webhook-send'
/** A claim this old was a process that died mid-send (an attempt takes at most the 10 s timeout). */
export const claimStaleMs = 60_000
export const defaultTimeoutMs = 10_000
export const answerBytes = 4096
/** Deliveries failed for good in a row that disable a webhook. */
export const disableAfterFailures = 50
/** Deliveries one send job carries; they go out concurrently. */
const batchSize = 25
/** Deliveries due besides its own that a send job takes along. */
const drainSize = 50
/** Deliveries one sweep takes back, oldest due first; the next sweep takes the rest. */
const sweepLimit = 2000
/** A delayed job may run a little before its time on another clock; it still finds its delivery due. */
const earlyMs = 1000

export interface DeliverySettings {
  /** The waits before each retry; after the last, the delivery fails. */
  readonly retryDelaysMs: readonly number[]
  readonly allowPrivate: boolean
  readonly urls: PayloadUrls
  readonly timeoutMs: number
  readonly resolve?: Resolver
  readonly now: () => Date
}

type Outcome = 'succeeded' | 'retrying' | 'failed' | 'skipped'

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300

/**
 * The webhook channel (docs/notifications.md). An event becomes one delivery per active webhook subscribed to
 * its type, keyed by (event, webhook), carrying the CloudEvent it will send; one job sends an event's
 * deliveries concurrently, with other deliveries already due. Each attempt claims its delivery by
 * compare-and-set, checks the URL's address again, signs the exact bytes it sends, and records what came
 * back. Failures are retried on the configured schedule by delayed jobs, and the sweep takes back what a dead
 * process left. Delivery is at least once (a process killed after sending, before recording, sends again),
 * always with the event id as `webhook-id` for the receiver's dedupe.
 */
export class WebhookDeliveries implements NotificationChannel {
  readonly name = 'webhooks'
  /** The fields that let go of a claim. */
  private readonly released = { claimed: false, claim: '' }

  constructor(
    private readonly store: Store,
    private readonly endpoints: WebhookEndpoints,
    private readonly jobs: Pick<JobDriver, 'enqueue'>,
    private readonly log: DriverLogger,
    private readonly settings: DeliverySettings,
  ) {}

  private get items() {
    return this.store.collection<DeliveryRecord>(webhookDeliveriesCollection)
  }

  private get hooks() {
    return this.store.collection<WebhookRecord>(webhooksCollection)
  }

  async fanOut(event: EventRecord): Promise<DeliveryJob[]> {
    const hooks = await this.hooks.find({ active: true, events: { $in: [event.type] } }, { sort: [['_id', 1]] })
    if (hooks.length === 0) return []
    const payload = cloudEvent(event, this.settings.urls)
    const now = this.settings.now().toISOString()
    const records: DeliveryRecord[] = hooks.map((hook) => ({
      _id: deliveryId(event._id, hook._id, `webhook:${hook._id}`), webhook: hook._id, event_id: event._id, type: event.type, status: 'pending',
      payload, attempts: [], next_attempt_at: now, claimed: false, claim: '', claimed_at: now, manual: false, created_at: now,
    }))
    // One write for the event's deliveries; written before (a relay that died), they are written one by one, the existing kept.
    try {
      await this.items.insertMany(records)
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error
      for (const record of records) {
        try {
          await this.items.insertOne(record)
        } catch (again) {
          if (!(again instanceof DuplicateKeyError)) throw again
        }
      }
    }
    return [{ name: sendJobName, data: { deliveries: records.map((r) => r._id) } }]
  }

  /** Deliveries due and not held (or held by a claim a minute old), as send jobs. */
  async sweep(now: Date): Promise<DeliveryJob[]> {
    const due = await this.items.find({
      status: 'pending', next_attempt_at: { $lte: now.toISOString() },
      $or: [{ claimed: false }, { claimed_at: { $lt: new Date(now.getTime() - claimStaleMs).toISOString() } }],
    }, { sort: [['next_attempt_at', 1], ['_id', 1]], limit: sweepLimit, omit: ['payload', 'attempts'] })
    const jobs: DeliveryJob[] = []
    for (let at = 0; at < due.length; at += batchSize) jobs.push({ name: sendJobName, data: { deliveries: due.slice(at, at + batchSize).map((d) => d._id) } })
    return jobs
  }

  /**
   * The `webhook-send` job: claims its deliveries that are due and not held, by a compare-and-set on
   * each (a duplicate job, or a sweep's, finds them held or done), and sends them concurrently.
   */
  async handle(context: JobContext): Promise<Record<Outcome, number>> {
    const ids = context.data.deliveries
    if (!Array.isArray(ids) || !ids.every((id): id is string => typeof id === 'string')) throw new PermanentJobError('webhook-send needs deliveries: [id]')
    const now = this.settings.now()
    const token = randomUUID()
    const claimable = {
      status: 'pending', next_attempt_at: { $lte: new Date(now.getTime() + earlyMs).toISOString() },
      $or: [{ claimed: false }, { claimed_at: { $lt: new Date(now.getTime() - claimStaleMs).toISOString() } }],
    }
    const claim = { $set: { claimed: true, claim: token, claimed_at: now.toISOString() } }
    await this.items.updateMany({ _id: { $in: ids }, ...claimable }, claim)
    // A burst queues one job per event, run one at a time: this one takes along others already due, so
    // they go out together and the later jobs find them done.
    const others = await this.items.find({ ...claimable, _id: { $nin: ids } }, { sort: [['next_attempt_at', 1], ['_id', 1]], limit: drainSize, omit: ['payload', 'attempts'] })
    if (others.length > 0) await this.items.updateMany({ _id: { $in: others.map((d) => d._id) }, ...claimable }, claim)
    const held = await this.items.find({ claim: token })
    const outcomes = await Promise.all(held.map((delivery) => this.send(delivery, token, context.signal)))
    // Stopped by shutdown: the driver hands the job back, and the deliveries it had not finished with it.
    if (context.signal.aborted) throw context.signal.reason instanceof Error ? context.signal.reason : new Error('stopped')
    const count = (outcome: Outcome) => outcomes.filter((o) => o === outcome).length
    const sent = new Set(held.map((d) => d._id))
    // Skipped: its own deliveries another job had sent or held, or that were not due.
    return { succeeded: count('succeeded'), retrying: count('retrying'), failed: count('failed'), skipped: ids.filter((id) => !sent.has(id)).length + count('skipped') }
  }

  private async send(delivery: DeliveryRecord, token: string, signal: AbortSignal): Promise<Outcome> {
    const now = this.settings.now()
    const id = delivery._id
    const mine = { _id: id, claim: token }
    const hook = await this.hooks.findById(delivery.webhook)
    if (!hook) {
      await this.items.deleteOne(mine)
      return 'skipped'
    }
    if (!hook.active) {
      const note: Attempt = { at: now.toISOString(), status_code: null, error: `not sent: the webhook is inactive${hook.disabled_reason ? ` (${hook.disabled_reason})` : ''}`, response_body: null }
      await this.items.updateOne(mine, { $set: { ...this.released, status: 'failed', next_attempt_at: null }, $push: { attempts: note } })
      return 'failed'
    }
    const attempt = await this.attempt(hook, delivery, signal)
    if (signal.aborted) {
      await this.items.updateOne(mine, { $set: this.released }).catch(() => undefined)
      return 'skipped'
    }
    return this.record(hook, delivery, token, attempt)
  }

  /** One try: the address checked again, the exact bytes signed and posted, the answer read for the log. */
  private async attempt(hook: WebhookRecord, delivery: DeliveryRecord, signal: AbortSignal): Promise<Attempt> {
    const at = this.settings.now()
    const failed = (error: string, status: number | null = null, body: string | null = null): Attempt => ({ at: at.toISOString(), status_code: status, error, response_body: body })
    let secrets: string[]
    try {
      secrets = this.endpoints.signingSecrets(hook, at)
    } catch (error) {
      this.log.error({ webhook: hook._id, err: error }, 'a webhook secret cannot be opened')
      return failed('not sent: the webhook secret cannot be opened with this SECRETS_KEY (rotate the secret)')
    }
    let target
    try {
      target = await checkTarget(hook.url, { allowPrivate: this.settings.allowPrivate, ...(this.settings.resolve ? { resolve: this.settings.resolve } : {}) })
    } catch (error) {
      if (error instanceof TargetRefused) return failed(`not sent: ${error.message.replace(/^Webhook URL \S+ is refused: /, 'the URL is refused: ')}`)
      return failed(`not sent: ${(error as Error).message}`)
    }
    const body = Buffer.from(delivery.payload)
    const timestamp = Math.floor(at.getTime() / 1000)
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'department-knowledge-service-webhooks/1',
      'webhook-id': delivery.event_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, delivery.event_id, timestamp, body),
    }
    try {
      const answer = await postPinned(target, { headers, body, timeoutMs: this.settings.timeoutMs, maxBytes: answerBytes, signal })
      if (isSuccess(answer.status)) return { at: at.toISOString(), status_code: answer.status, error: null, response_body: answer.body }
      if (answer.status >= 300 && answer.status < 400) {
        return failed(`redirect not followed (to ${String(answer.location ?? 'nowhere').slice(0, 300)})`, answer.status, answer.body)
      }
      return failed(`the receiver answered ${answer.status}`, answer.status, answer.body)
    } catch (error) {
      if (error instanceof TransportError) return failed(error.failure === 'timeout' ? `timeout: ${error.message}` : `network error: ${error.message}`)
      // Anything else (a shutdown's abort, a header Node refuses) is a failed attempt too, not a failed job.
      return failed(signal.aborted ? 'stopped' : `not sent: ${(error as Error).message}`)
    }
  }

  /** Writes the attempt and what follows from it: done, a retry scheduled, or failed for good. */
  private async record(hook: WebhookRecord, delivery: DeliveryRecord, token: string, attempt: Attempt): Promise<Outcome> {
    const mine = { _id: delivery._id, claim: token }
    const push = { $push: { attempts: attempt } }
    if (isSuccess(attempt.status_code)) {
      await this.items.updateOne(mine, { $set: { ...this.released, status: 'succeeded', next_attempt_at: null }, ...push })
      if (hook.consecutive_failures > 0) await this.hooks.updateOne({ _id: hook._id }, { $set: { consecutive_failures: 0 } })
      return 'succeeded'
    }
    this.log.warn({ webhook: hook._id, delivery: delivery._id, status_code: attempt.status_code, error: attempt.error }, 'a webhook delivery attempt failed')
    if (attempt.status_code === 410) {
      await this.items.updateOne(mine, { $set: { ...this.released, status: 'failed', next_attempt_at: null }, ...push })
      await this.disable(hook._id, 'the receiver answered 410 Gone')
      return 'failed'
    }
    const made = delivery.attempts.length + 1
    const wait = delivery.manual ? undefined : this.settings.retryDelaysMs[made - 1]
    if (wait !== undefined) {
      const next = new Date(Date.parse(attempt.at) + wait)
      const written = await this.items.updateOne(mine, { $set: { ...this.released, next_attempt_at: next.toISOString() }, ...push })
      // If this enqueue is lost, the sweep finds the delivery due and unclaimed.
      if (written) await this.jobs.enqueue('notifications', sendJobName, { deliveries: [delivery._id] }, { attempts: 1, delayMs: wait })
        .catch((error: unknown) => this.log.error({ err: error, delivery: delivery._id }, 'could not queue a webhook retry; the sweep will'))
      return 'retrying'
    }
    await this.items.updateOne(mine, { $set: { ...this.released, status: 'failed', next_attempt_at: null }, ...push })
    if (!delivery.manual) {
      const counted = await this.hooks.updateOne({ _id: hook._id }, { $inc: { consecutive_failures: 1 } })
      if (counted && counted.consecutive_failures >= disableAfterFailures) await this.disable(hook._id, `${counted.consecutive_failures} consecutive deliveries failed`)
    }
    return 'failed'
  }

  private async disable(id: string, reason: string): Promise<void> {
    const now = this.settings.now().toISOString()
    const disabled = await this.hooks.updateOne({ _id: id, active: true }, { $set: { active: false, disabled_reason: reason, disabled_at: now, updated_at: now } })
    if (disabled) this.log.warn({ webhook: id, reason }, 'a webhook was disabled')
  }

  /** A webhook's delivery log, newest first. */
  async list(webhook: string, query: { status?: DeliveryStatus; limit: number; offset: number }): Promise<{ items: DeliveryView[]; total: number; limit: number; offset: number }> {
    await this.endpoints.record(webhook)
    const filter = { webhook, ...(query.status ? { status: query.status } : {}) }
    const [items, total] = await Promise.all([
      this.items.find(filter, { sort: [['created_at', -1], ['_id', 1]], skip: query.offset, limit: query.limit, omit: ['payload'] }),
      this.items.count(filter),
    ])
    return { items: items.map(deliveryView), total, limit: query.limit, offset: query.offset }
  }

  /**
   * Sends a delivery again, with the same webhook-id and body, by a job (nothing is sent from the request
   * path). A finished delivery gets one more attempt, without the retry schedule and not counted toward
   * disabling; a pending one has its next attempt brought forward, its schedule kept.
   */
  async redeliver(webhook: string, id: string): Promise<DeliveryView> {
    const hook = await this.endpoints.record(webhook)
    if (!hook.active) throw new ValidationFailed(`Webhook ${webhook} is inactive${hook.disabled_reason ? ` (${hook.disabled_reason})` : ''}; set active to true before redelivering`)
    const current = await this.items.findOne({ _id: id, webhook }, { omit: ['payload'] })
    if (!current) throw new RecordNotFound(`Delivery ${id} of webhook ${webhook} not found`)
    const now = this.settings.now().toISOString()
    const updated = current.status === 'pending'
      ? await this.items.updateOne({ _id: id, status: 'pending' }, { $set: { next_attempt_at: now } })
      : await this.items.updateOne({ _id: id, status: current.status }, { $set: { ...this.released, status: 'pending', next_attempt_at: now, manual: true } })
    await this.jobs.enqueue('notifications', sendJobName, { deliveries: [id] }, { attempts: 1 })
    return deliveryView(updated ?? (await this.items.findById(id)) ?? current)
  }

  /** Removes finished deliveries created before `before`; answers how many. */
  async prune(before: Date): Promise<number> {
    return this.items.deleteMany({ created_at: { $lt: before.toISOString() }, status: { $in: ['succeeded', 'failed'] } })
  }
}
