import { courseCodeKey } from '../course-code.js'
import type { CurrentRecord, MappedRecord, Refs, SourceRef, SyncKind } from './types.js'

const refId = (refs: Refs, field: string): string | undefined => {
  const ref = refs[field]
  return ref !== undefined && !Array.isArray(ref) ? (ref as SourceRef).sourced_id : undefined
}

/**
 * The second way to find a record after its source id: the natural key each kind has in this service.
 * People by campus_id, never by email alone (an address can be reused or shared); courses by code in its
 * normal form (case and spacing ignored); sections and enrollments by their unique keys, references
 * given as sourcedIds.
 */
const naturalKeys: Record<SyncKind, (values: Readonly<Record<string, unknown>>, refs: Refs) => string | undefined> = {
  person: (values) => (typeof values.campus_id === 'string' ? values.campus_id.toLowerCase() : undefined),
  course: (values) => (typeof values.course_code === 'string' ? courseCodeKey(values.course_code) : undefined),
  section: (values, refs) => joinKey(refId(refs, 'course'), values.term, values.section_number),
  enrollment: (values, refs) => joinKey(refId(refs, 'student'), refId(refs, 'course'), values.term),
}

function joinKey(...parts: unknown[]): string | undefined {
  return parts.every((part) => typeof part === 'string' && part !== '') ? parts.join('\u0000') : undefined
}

export interface Matcher {
  /** The current record an incoming one updates, or undefined for a new record. */
  find(record: MappedRecord): CurrentRecord | undefined
}

export function matcher(kind: SyncKind, system: string, current: readonly CurrentRecord[]): Matcher {
  const bySource = new Map<string, CurrentRecord>()
  const byKey = new Map<string, CurrentRecord>()
  for (const record of current) {
    if (record.source?.system === system) bySource.set(record.source.sourced_id, record)
    const key = naturalKeys[kind](record.values, record.refs)
    if (key !== undefined) byKey.set(key, record)
  }
  return {
    find(record) {
      const bySourceId = bySource.get(record.source.sourced_id)
      if (bySourceId) return bySourceId
      const key = naturalKeys[kind](record.values, record.refs)
      const found = key === undefined ? undefined : byKey.get(key)
      // A record the feed already owns under another sourcedId is not taken over by a key collision.
      return found && found.source?.system !== system ? found : undefined
    },
  }
}
