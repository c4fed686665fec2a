import { activeStage, approvalsOfRound } from '../../domain/workflows/index.js'
import type { RecordService } from '../../records/service.js'
import type { CompiledSchema } from '../../schema/index.js'
import { DuplicateKeyError, type Doc, type Store } from '../../store/port.js'
import { instancesCollection } from '../../workflows/persistence.js'
import type { WorkflowDomainKey } from '../../workflows/registry.js'
import { entityTitles, readerOf } from '../../workflows/titles.js'
import type { StoredInstance } from '../../workflows/types.js'
import { deliveryId } from '../collections.js'
import { absoluteLink, entityLink } from '../links.js'
import { chunks } from './contacts.js'
import { deliveries, type EmailDelivery } from './deliveries.js'
import { localDate, periodOf } from './period.js'
import type { DigestFrequency, Preferences, Recipient } from './preferences.js'
import { noSmtp, type Sender, type SendTally } from './sender.js'
import { renderDigest, type DigestEntry, type NewsEntry } from './templates.js'

export interface DigestResult {
  [field: string]: unknown
  readonly frequency: DigestFrequency
  readonly period: string
  /** People on this frequency with something to hear of. */
  readonly recipients: number
  readonly sent: number
  /** Recorded as not sent: no SMTP_URL, or no address. */
  readonly not_sent: number
  /** Had their digest of this period already. */
  readonly already: number
  /** Not accepted now: pending, for the sweep. */
  readonly retrying: number
  readonly failed: number
  /** Held news of people who have since chosen immediate or off, marked skipped. */
  readonly held_skipped: number
}

/** One pending approval, as the digest lists it. */
interface Awaiting {
  readonly instance: string
  readonly entity: string
  readonly domain: WorkflowDomainKey
  readonly stage: string
  readonly due_at?: string
  readonly overdue: boolean
  readonly submitted_at: string
}

/**
 * Held news that asked for a decision: the digest lists what awaits the person now instead, so these
 * are marked digested without a line of their own (a request decided since is not listed at all).
 */
const asksForDecision: ReadonlySet<string> = new Set(['workflow.stage_activated', 'workflow.delegated', 'workflow.due_soon', 'workflow.overdue'])

/** Digests go out a few at a time: as many as the SMTP pool has connections. */
const concurrency = 5

/**
 * The digest job (docs/notifications.md): for each person whose preference is the run's frequency, one email
 * per period listing what still awaits them (their pending approvals now) and the news held for them since
 * their last digest; none when both are empty. The digest's delivery is keyed by the period, so a second run
 * in one period sends nothing. It reads in-review instances once and resolves everyone in batches, never one
 * full read per person.
 */
export class Digest {
  constructor(
    private readonly store: Store,
    private readonly records: RecordService,
    private readonly schema: CompiledSchema,
    private readonly preferences: Preferences,
    private readonly sender: Sender,
    private readonly options: { readonly smtp: boolean; readonly frontendUrl: string; readonly timeZone: string; readonly now: () => Date },
  ) {}

  async run(frequency: DigestFrequency, signal?: AbortSignal): Promise<DigestResult> {
    const now = this.options.now()
    const period = periodOf(frequency, now, this.options.timeZone)
    const awaiting = await this.awaiting(now)
    const held = new Map<string, EmailDelivery[]>()
    for (const record of await deliveries(this.store).find({ status: 'held' }, { sort: [['created_at', 1], ['_id', 1]] })) {
      held.set(record.recipient, [...held.get(record.recipient) ?? [], record])
    }
    const recipients = await this.preferences.recipients([...new Set([...awaiting.keys(), ...held.keys()])])
    const heldSkipped = await this.skipHeldOfOthers(held, recipients)
    const targets = [...recipients.values()].filter((r) => r.preference.email === frequency).sort((a, b) => (a.id < b.id ? -1 : 1))
    const titles = await this.titles(targets.flatMap((r) => awaiting.get(r.id) ?? []))

    const tally: SendTally & { not_sent: number; already: number } = { sent: 0, retrying: 0, failed: 0, passed: 0, not_sent: 0, already: 0 }
    let away = false
    let next = 0
    const work = async () => {
      while (next < targets.length && !signal?.aborted) {
        const recipient = targets[next++]!
        const theirs = held.get(recipient.id) ?? []
        const record = this.digestRecord(frequency, period, recipient, awaiting.get(recipient.id) ?? [], theirs, titles, now, away)
        if (!record) {
          if (theirs.length) await this.markHeld(theirs.map((r) => r._id), { status: 'skipped', reason: 'nothing awaits them any more' })
          continue
        }
        try {
          await deliveries(this.store).insertOne(record)
        } catch (error) {
          if (!(error instanceof DuplicateKeyError)) throw error
          tally.already++
          continue
        }
        if (record.items?.length) await this.markHeld(record.items, { status: 'digested', digest: record._id })
        if (record.status === 'not_sent') tally.not_sent++
        else if (record.status === 'pending') tally.retrying++
        else if (!await this.sender.deliver(record, tally)) away = true
      }
    }
    await Promise.all(Array.from({ length: concurrency }, work))
    const { sent, retrying, failed, not_sent, already } = tally
    return { frequency, period, recipients: targets.length, sent, not_sent, already, retrying, failed, held_skipped: heldSkipped }
  }

  /** Everyone's pending approvals now, by approver: the in-review instances, read once. */
  private async awaiting(now: Date): Promise<Map<string, Awaiting[]>> {
    const instances = this.store.collection<StoredInstance & Doc>(instancesCollection)
    const byApprover = new Map<string, Awaiting[]>()
    for (const instance of await instances.view({ status: 'in_review' })) {
      const stage = activeStage(instance as StoredInstance)
      if (!stage) continue
      for (const approval of approvalsOfRound(stage, instance.round)) {
        if (approval.status !== 'pending') continue
        const items = byApprover.get(approval.approver) ?? []
        if (items.some((i) => i.instance === instance._id)) continue
        items.push({
          instance: instance._id, entity: instance.entity, domain: instance.domain as WorkflowDomainKey, stage: stage.key,
          ...(stage.due_at !== undefined ? { due_at: stage.due_at } : {}),
          overdue: approval.overdue === true || (stage.due_at !== undefined && now.getTime() > Date.parse(stage.due_at)),
          submitted_at: instance.submitted_at,
        })
        byApprover.set(approval.approver, items)
      }
    }
    return byApprover
  }

  /** The entities' titles, as the pending queues show them, read in batches per class. */
  private async titles(items: readonly Awaiting[]): Promise<Map<string, string>> {
    const byClass = new Map<string, { domain: WorkflowDomainKey; ids: Set<string> }>()
    for (const item of items) {
      const cls = this.schema.classOfId(item.entity)
      if (!cls) continue
      const entry = byClass.get(cls.name) ?? { domain: item.domain, ids: new Set<string>() }
      entry.ids.add(item.entity)
      byClass.set(cls.name, entry)
    }
    const titles = new Map<string, string>()
    const read = readerOf(this.records, this.schema)
    for (const [name, { ids }] of byClass) {
      for (const part of chunks([...ids])) {
        const entities = await this.records.find(this.schema.class(name)!, { _id: { $in: part } })
        // A major plan's title names its plan and student (titles.ts), read for the whole chunk at once.
        const named = await entityTitles(entities, read)
        for (const entity of entities) titles.set(entity._id, named.get(entity._id) || entity._id)
      }
    }
    return titles
  }

  /** Held news of people no longer on a digest would wait forever: it is marked skipped. */
  private async skipHeldOfOthers(held: ReadonlyMap<string, EmailDelivery[]>, recipients: ReadonlyMap<string, Recipient>): Promise<number> {
    const ids: string[] = []
    for (const [recipient, records] of held) {
      const email = recipients.get(recipient)?.preference.email
      if (email === 'immediate' || email === 'off') ids.push(...records.map((r) => r._id))
    }
    await this.markHeld(ids, { status: 'skipped', reason: 'their email preference changed from a digest' })
    return ids.length
  }

  /** Only records still held change: one digest of two racing on a record takes it. */
  private async markHeld(ids: readonly string[], change: Partial<EmailDelivery>): Promise<void> {
    for (const part of chunks(ids)) await deliveries(this.store).updateMany({ _id: { $in: part }, status: 'held' }, { $set: change })
  }

  private digestRecord(
    frequency: DigestFrequency, period: string, recipient: Recipient, awaiting: readonly Awaiting[], held: readonly EmailDelivery[],
    titles: ReadonlyMap<string, string>, now: Date, away: boolean,
  ): EmailDelivery | null {
    const news = held.filter((r) => !asksForDecision.has(r.type ?? ''))
    if (!awaiting.length && !news.length) return null
    const link = (path: string) => absoluteLink(this.options.frontendUrl, path)
    const entries: DigestEntry[] = [...awaiting].sort((a, b) => a.submitted_at.localeCompare(b.submitted_at) || a.instance.localeCompare(b.instance)).map((item) => ({
      title: titles.get(item.entity) ?? item.entity, link: link(entityLink(item.domain, item.entity)), stage: `${item.stage} stage`, due: this.due(item),
    }))
    const lines: NewsEntry[] = news.map((r) => ({ what: r.what ?? r.title ?? 'An update', link: link(r.link ?? '/') }))
    const message = renderDigest(frequency, entries, lines)
    const at = now.toISOString()
    const status = !this.options.smtp ? 'not_sent' : !recipient.address ? 'not_sent' : away ? 'pending' : 'sending'
    return {
      _id: deliveryId(`digest/${frequency}/${period}`, recipient.id, 'email'), kind: 'digest', recipient: recipient.id, to: recipient.address ?? null,
      status, ...(status === 'not_sent' ? { reason: this.options.smtp ? 'no email address' : noSmtp } : {}),
      created_at: at, attempts: 0, frequency, period, items: held.map((r) => r._id),
      ...(status === 'not_sent' ? {} : { message }), ...(status === 'sending' ? { claimed_at: at } : {}),
    }
  }

  private due(item: Awaiting): string {
    const day = (iso: string) => {
      const { year, month, day } = localDate(new Date(iso), this.options.timeZone)
      return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
    }
    if (item.overdue) return item.due_at ? `overdue since ${day(item.due_at)}` : 'overdue'
    return item.due_at ? `due ${day(item.due_at)}` : 'no due date'
  }
}
