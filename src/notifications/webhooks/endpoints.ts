import { randomBytes } from 'node:crypto'
import type { SecretBox } from '../../auth/secret-box.js'
import { eventTypes, isEventType, type EventType } from '../../domain/notifications/events.js'
import { RecordNotFound, ValidationFailed, WriteContended } from '../../errors.js'
import type { Store } from '../../store/port.js'
import { webhookDeliveriesCollection, webhooksCollection } from '../collections.js'
import { checkTarget, TargetRefused, type Resolver } from './address.js'
import { webhookView, type DeliveryRecord, type WebhookRecord, type WebhookView } from './records.js'
import { newSecret } from './signature.js'

/** How long the secret a rotation replaced keeps signing beside the new one. */
export const rotationGraceMs = 24 * 60 * 60 * 1000

export interface WebhookInput {
  readonly url: string
  readonly events: readonly string[]
  readonly description?: string
  readonly active?: boolean
}

export interface WebhookPage {
  readonly items: WebhookView[]
  readonly total: number
  readonly limit: number
  readonly offset: number
}

/** The context a webhook's secrets are sealed under: a sealed secret copied to another webhook does not open there. */
export const secretContext = (id: string) => `webhook secret ${id}`

/** The department's webhooks, as admins configure them (docs/notifications.md). */
export class WebhookEndpoints {
  constructor(
    private readonly store: Store,
    private readonly secrets: SecretBox,
    private readonly options: { allowPrivate: boolean; now: () => Date; resolve?: Resolver },
  ) {}

  private get hooks() {
    return this.store.collection<WebhookRecord>(webhooksCollection)
  }

  /** Checks an admin's input: known event types, and a URL that points where webhooks may go. */
  private async checked(input: WebhookInput): Promise<{ url: string; events: EventType[] }> {
    const unknown = input.events.filter((type) => !isEventType(type))
    if (unknown.length > 0) {
      throw new ValidationFailed(`Unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the types are ${eventTypes.join(', ')}`)
    }
    try {
      const target = await checkTarget(input.url, { allowPrivate: this.options.allowPrivate, ...(this.options.resolve ? { resolve: this.options.resolve } : {}) })
      return { url: target.url.href, events: [...new Set(input.events as EventType[])] }
    } catch (error) {
      if (error instanceof TargetRefused) throw new ValidationFailed(error.message)
      throw error
    }
  }

  /** Creates a webhook; its secret is answered here and never again. */
  async create(input: WebhookInput): Promise<WebhookView & { secret: string }> {
    const { url, events } = await this.checked(input)
    const now = this.options.now().toISOString()
    const id = randomBytes(12).toString('hex')
    const secret = newSecret()
    const record: WebhookRecord = {
      _id: id, url, events, description: input.description ?? '', active: input.active ?? true, secret: this.secrets.seal(secret, secretContext(id)),
      consecutive_failures: 0, disabled_reason: null, disabled_at: null, secret_rotated_at: null, created_at: now, updated_at: now,
    }
    await this.hooks.insertOne(record)
    return { ...webhookView(record, this.options.now()), secret }
  }

  async list(page: { limit: number; offset: number }): Promise<WebhookPage> {
    const [items, total] = await Promise.all([
      this.hooks.find({}, { sort: [['created_at', -1], ['_id', 1]], skip: page.offset, limit: page.limit }),
      this.hooks.count({}),
    ])
    const now = this.options.now()
    return { items: items.map((item) => webhookView(item, now)), total, limit: page.limit, offset: page.offset }
  }

  async record(id: string): Promise<WebhookRecord> {
    const record = await this.hooks.findById(id)
    if (!record) throw new RecordNotFound(`Webhook ${id} not found`)
    return record
  }

  async get(id: string): Promise<WebhookView> {
    return webhookView(await this.record(id), this.options.now())
  }

  /**
   * Replaces the URL and the event types (the URL checked again); a description or `active` left out
   * keeps its value. Activating a disabled webhook clears why it was disabled and its failure count.
   */
  async update(id: string, input: WebhookInput): Promise<WebhookView> {
    const current = await this.record(id)
    const { url, events } = await this.checked(input)
    const now = this.options.now()
    const active = input.active ?? current.active
    const reactivated = active && !current.active
    const updated = await this.hooks.updateOne({ _id: id }, {
      $set: {
        url, events, description: input.description ?? current.description, active, updated_at: now.toISOString(),
        ...(reactivated ? { consecutive_failures: 0, disabled_reason: null, disabled_at: null } : {}),
      },
    })
    if (!updated) throw new RecordNotFound(`Webhook ${id} not found`)
    return webhookView(updated, now)
  }

  /** Removes the webhook and its delivery log; sends still queued for it find nothing to send. */
  async remove(id: string): Promise<void> {
    if ((await this.hooks.deleteOne({ _id: id })) === 0) throw new RecordNotFound(`Webhook ${id} not found`)
    await this.store.collection<DeliveryRecord>(webhookDeliveriesCollection).deleteMany({ webhook: id })
  }

  /** A new secret, answered once; the one it replaces signs beside it for 24 hours (a second rotation drops the oldest). */
  async rotateSecret(id: string): Promise<WebhookView & { secret: string }> {
    const current = await this.record(id)
    const now = this.options.now()
    const secret = newSecret()
    const updated = await this.hooks.updateOne({ _id: id, secret: current.secret }, {
      $set: {
        secret: this.secrets.seal(secret, secretContext(id)), previous_secret: current.secret,
        previous_secret_until: new Date(now.getTime() + rotationGraceMs).toISOString(), secret_rotated_at: now.toISOString(), updated_at: now.toISOString(),
      },
    })
    // Two rotations at once: one wins, and the other's secret would never have signed anything.
    if (!updated) throw new WriteContended(`Webhook ${id} had its secret rotated at the same moment; rotate again if you need another`)
    return { ...webhookView(updated, now), secret }
  }

  /** The secrets that sign a delivery now: the current one, then the one it replaced while its grace lasts. */
  signingSecrets(record: WebhookRecord, now: Date): string[] {
    const secrets = [this.secrets.open(record.secret, secretContext(record._id))]
    if (record.previous_secret && record.previous_secret_until && Date.parse(record.previous_secret_until) > now.getTime()) {
      secrets.push(this.secrets.open(record.previous_secret, secretContext(record._id)))
    }
    return secrets
  }

  /** Forgets replaced secrets whose grace has ended; answers how many. */
  async forgetExpiredSecrets(now: Date): Promise<number> {
    return this.hooks.updateMany(
      { previous_secret_until: { $lt: now.toISOString() } },
      { $unset: { previous_secret: true, previous_secret_until: true } },
    )
  }
}
