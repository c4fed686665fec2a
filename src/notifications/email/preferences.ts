import type { Store } from '../../store/port.js'
import { preferencesCollection } from '../collections.js'
import { chunks, type Contact, type Contacts } from './contacts.js'

export const emailFrequencies = ['immediate', 'daily', 'weekly', 'off'] as const
export type EmailFrequency = (typeof emailFrequencies)[number]
export const digestFrequencies = ['daily', 'weekly'] as const
export type DigestFrequency = (typeof digestFrequencies)[number]

export function isDigestFrequency(value: unknown): value is DigestFrequency {
  return (digestFrequencies as readonly unknown[]).includes(value)
}

/** A preference as stored: keyed by the person's workflow id, so every id they act as reads one record. */
interface PreferenceDoc {
  _id: string
  [field: string]: unknown
  email: EmailFrequency
  updated_at: string
}

export interface EffectivePreference {
  readonly email: EmailFrequency
  /** True when the person never chose: the default for students (immediate) or everyone else (daily). */
  readonly default: boolean
}

/** A recipient with what email needs: their address and how often they want email. */
export interface Recipient extends Contact {
  readonly preference: EffectivePreference
}

export function defaultFrequency(contact: Pick<Contact, 'student'>): EmailFrequency {
  return contact.student ? 'immediate' : 'daily'
}

/**
 * Email preferences (docs/notifications.md). A student's requests have few, awaited outcomes, so they hear at
 * once; approvers hear daily of what awaits them unless they choose otherwise.
 */
export class Preferences {
  constructor(private readonly store: Store, private readonly contacts: Contacts) {}

  private get docs() {
    return this.store.collection<PreferenceDoc>(preferencesCollection)
  }

  /** Each id with its address and effective preference, in a few batched reads. */
  async recipients(ids: readonly string[]): Promise<Map<string, Recipient>> {
    const unique = [...new Set(ids)]
    const contacts = await this.contacts.of(unique)
    const chosen = new Map<string, EmailFrequency>()
    for (const part of chunks(unique)) for (const doc of await this.docs.find({ _id: { $in: part } })) chosen.set(doc._id, doc.email)
    return new Map(unique.map((id) => {
      const contact = contacts.get(id)!
      const email = chosen.get(id)
      return [id, { ...contact, preference: email ? { email, default: false } : { email: defaultFrequency(contact), default: true } }]
    }))
  }

  async of(id: string): Promise<EffectivePreference> {
    return (await this.recipients([id])).get(id)!.preference
  }

  async set(id: string, email: EmailFrequency, now: Date): Promise<EffectivePreference> {
    await this.docs.upsertOne({ _id: id }, { _id: id, email, updated_at: now.toISOString() })
    return { email, default: false }
  }
}
