import { parseCourseCode } from '../domain/course-code.js'
import { words } from '../domain/text.js'
import type { ClassDef } from '../schema/index.js'

/** Stored beside a record's fields for lookups, never shown in answers. */
export const lookupFields = ['_search', '_subject', '_level'] as const

/**
 * Stored beside a record's fields, never shown in answers: the lookups, a revision on its way
 * (history/writes.ts), and the outcome events a run record carries until they are published
 * (`carry` of `create`, docs/notifications.md).
 */
export const internalFields = [...lookupFields, '_revision', '_events'] as const

/**
 * Fields computed from a record on every write: `_search` holds the folded words of its searchable
 * fields (a course code also as one word, so "cs101" finds "CS 101"); courses carry their subject and
 * level for the department filter and requirement patterns.
 */
export function derivedFields(cls: ClassDef, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const derived: Record<string, unknown> = {}
  if (cls.metadata.searchable.length) {
    const terms = new Set<string>()
    for (const field of cls.metadata.searchable) {
      const value = record[field]
      for (const text of Array.isArray(value) ? value : [value]) {
        if (typeof text === 'string') words(text).forEach((w) => terms.add(w))
      }
    }
    const code = typeof record.course_code === 'string' ? parseCourseCode(record.course_code) : undefined
    if (code) terms.add(`${code.subject}${code.level}`.toLowerCase())
    derived._search = [...terms]
  }
  if (typeof record.course_code === 'string') {
    const code = parseCourseCode(record.course_code)
    if (code) Object.assign(derived, { _subject: code.subject, _level: code.level })
  }
  return derived
}
