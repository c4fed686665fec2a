import { words } from '../domain/text.js'
import type { ApiRecord, RecordService } from '../records/service.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'
import type { Filter } from '../store/port.js'

/** What links a user to a Person record: their campus id (the NetID), else their email. */
export interface LinkKeys {
  readonly campusId?: string | undefined
  readonly email: string
}

/** Emails compare without regard to case: `Jane.Doe@x.edu` and `jane.doe@x.edu` are one person. */
export function sameEmail(stored: unknown, email: string): boolean {
  return typeof stored === 'string' && stored.toLowerCase() === email.toLowerCase()
}

/** The longest word of the address's local part (else of the whole address): the most telling one. */
function anchorWord(email: string): string | undefined {
  const at = email.lastIndexOf('@')
  const pick = (found: string[]) => found.reduce<string | undefined>((best, word) => (!best || word.length > best.length ? word : best), undefined)
  return pick(words(at > 0 ? email.slice(0, at) : email)) ?? pick(words(email))
}

/**
 * The Persons whose email may equal `email` ignoring case, a superset for `sameEmail` to settle (a prefix
 * also matches longer addresses). The store has no case-insensitive equality, and its case-insensitive
 * prefix match reads every record; so where emails are searchable the look-up is anchored on one word
 * of the address in the indexed search words (`_search`, folded to lower case on every write), which
 * both adapters answer from an index, and the prefix match only sorts out the few records found.
 */
function emailClause(person: ClassDef, email: string): Filter {
  const prefix: Filter = { email: { $iprefix: email } }
  const anchor = person.metadata.searchable.includes('email') ? anchorWord(email) : undefined
  return anchor ? { $and: [{ _search: anchor }, prefix] } : prefix
}

/**
 * Of the records found, the one a user is (docs/auth.md, "Registering the service with your identity
 * provider"): the one with their campus id, else one whose email equals theirs ignoring case, unless it
 * carries another campus id (an identity provider that sends another person's email must not make the caller
 * that person). Where two records differ only in the case of their email, the one spelled as the user's wins,
 * then the first by id.
 */
function pick(found: readonly ApiRecord[], keys: LinkKeys): ApiRecord | null {
  if (keys.campusId) {
    const byCampusId = found.find((p) => p.campus_id === keys.campusId)
    if (byCampusId) return byCampusId
  }
  const byEmail = found
    .filter((p) => sameEmail(p.email, keys.email))
    .filter((p) => !(keys.campusId && typeof p.campus_id === 'string' && p.campus_id !== keys.campusId))
    .sort((a, b) => Number(b.email === keys.email) - Number(a.email === keys.email) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
  return byEmail[0] ?? null
}

/** The Person each user is linked to, or null, in one look-up for all of them. */
export async function linkedPersons(records: RecordService, schema: CompiledSchema, users: readonly LinkKeys[]): Promise<(ApiRecord | null)[]> {
  const person = schema.class('Person')!
  const campusIds = [...new Set(users.flatMap((u) => (u.campusId ? [u.campusId] : [])))]
  const emails = [...new Map(users.filter((u) => u.email).map((u) => [u.email.toLowerCase(), u.email])).values()]
  const clauses: Filter[] = [
    ...(campusIds.length ? [{ campus_id: { $in: campusIds } }] : []),
    ...emails.map((email) => emailClause(person, email)),
  ]
  if (!clauses.length) return users.map(() => null)
  const found = await records.find(person, clauses.length === 1 ? clauses[0]! : { $or: clauses })
  return users.map((keys) => pick(found, keys))
}
