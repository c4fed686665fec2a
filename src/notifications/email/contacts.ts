import type { UserRecord } from '../../auth/users.js'
import { sameEmail } from '../../privacy/person-link.js'
import type { ApiRecord, RecordService } from '../../records/service.js'
import type { ClassDef, CompiledSchema } from '../../schema/index.js'
import type { Store } from '../../store/port.js'

/** What email needs to know of a recipient (a workflow id: a Person id, else a User id). */
export interface Contact {
  readonly id: string
  /** One plain address, or none (the delivery is then recorded as not sent). */
  readonly address?: string
  /** Students default to immediate emails, everyone else to the daily digest (docs/notifications.md). */
  readonly student: boolean
}

const studentClasses = ['UndergraduateStudent', 'GraduateStudent']
/** One address and nothing else: no display name, list, comment or whitespace a header could be built from. */
const plainAddress = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/
const batch = 500

export function plain(address: unknown): string | undefined {
  return typeof address === 'string' && address.length <= 254 && plainAddress.test(address) ? address : undefined
}

function chunks<T>(items: readonly T[], size = batch): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/**
 * Resolves recipients in a few batched reads, whatever their number (a digest resolves thousands): the
 * Persons by id, the Users by id, and the Users linked to those Persons (by campus id, else by email
 * ignoring case, as sign-in links them). A Person's address is its own `email`, else its User's.
 */
export class Contacts {
  constructor(private readonly store: Store, private readonly records: RecordService, private readonly schema: CompiledSchema) {}

  private isA(cls: ClassDef | undefined, names: readonly string[]): boolean {
    return cls !== undefined && (names.includes(cls.name) || cls.ancestors.some((a) => names.includes(a)))
  }

  async of(ids: readonly string[]): Promise<Map<string, Contact>> {
    const unique = [...new Set(ids)]
    const personIds = unique.filter((id) => this.isA(this.schema.classOfId(id), ['Person']))
    const userIds = unique.filter((id) => id.startsWith('User/'))
    const users = this.store.collection<UserRecord>('users')
    const personClass = this.schema.class('Person')
    const persons: ApiRecord[] = []
    if (personClass) for (const part of chunks(personIds)) persons.push(...await this.records.find(personClass, { _id: { $in: part } }))
    const byId = new Map<string, UserRecord>()
    for (const part of chunks(userIds)) for (const user of await users.find({ _id: { $in: part } })) byId.set(user._id, user)

    const emails = [...new Set(persons.flatMap((p) => (typeof p.email === 'string' ? [p.email, p.email.toLowerCase()] : [])))]
    const campusIds = [...new Set(persons.flatMap((p) => (typeof p.campus_id === 'string' ? [p.campus_id] : [])))]
    const linked: UserRecord[] = []
    for (const part of chunks(emails)) linked.push(...await users.find({ email: { $in: part } }))
    for (const part of chunks(campusIds)) linked.push(...await users.find({ campus_id: { $in: part } }))
    const byCampusId = new Map(linked.flatMap((u) => (typeof u.campus_id === 'string' ? [[u.campus_id, u] as const] : [])))
    const byEmail = new Map<string, UserRecord[]>()
    for (const user of linked) byEmail.set(user.email.toLowerCase(), [...byEmail.get(user.email.toLowerCase()) ?? [], user])
    const userOf = (person: ApiRecord): UserRecord | undefined => {
      const campusId = typeof person.campus_id === 'string' ? person.campus_id : undefined
      const sameCampus = campusId ? byCampusId.get(campusId) : undefined
      if (sameCampus) return sameCampus
      const candidates = typeof person.email === 'string' ? byEmail.get(person.email.toLowerCase()) ?? [] : []
      // A user signed in under another campus id is another person, whatever email they share.
      return candidates.find((u) => sameEmail(person.email, u.email) && !(campusId && typeof u.campus_id === 'string' && u.campus_id !== campusId))
    }

    const contacts = new Map<string, Contact>()
    for (const person of persons) {
      const user = userOf(person)
      const address = plain(person.email) ?? plain(user?.email)
      contacts.set(person._id, {
        id: person._id, student: this.isA(this.schema.classOfId(person._id), studentClasses) || user?.role === 'student',
        ...(address ? { address } : {}),
      })
    }
    for (const user of byId.values()) {
      const address = plain(user.email)
      contacts.set(user._id, { id: user._id, student: user.role === 'student', ...(address ? { address } : {}) })
    }
    for (const id of unique) if (!contacts.has(id)) contacts.set(id, { id, student: false })
    return contacts
  }
}

export { chunks }
