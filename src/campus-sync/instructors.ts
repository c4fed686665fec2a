import type { SyncPlan } from '../domain/campus-sync/plan.js'
import type { ApiRecord } from '../records/service.js'
import type { KindRecords } from './current.js'
import { oneRosterSystem } from './source.js'

/**
 * Section instructors from teacher enrollments, as a plan of section updates: for each synced section,
 * the synced teachers the feed names. Instructors no sync owns are not compared (and kept when written).
 */
export function instructorPlan(sections: readonly ApiRecord[], maps: Readonly<Record<string, KindRecords>>, byClass: ReadonlyMap<string, readonly string[]>): SyncPlan {
  const plan: SyncPlan = { kind: 'section', create: [], update: [], unchanged: 0, deactivate: [], skipped: [], errors: [], warnings: [] }
  let unchanged = 0
  for (const section of sections) {
    const sourcedId = maps.section?.sourcedOf.get(section._id)
    if (sourcedId === undefined) continue
    const wanted = [...new Set(byClass.get(sourcedId) ?? [])].sort()
    const held = (Array.isArray(section.instructors) ? section.instructors : [])
      .map((id: unknown) => (typeof id === 'string' ? maps.person?.sourcedOf.get(id) : undefined)).filter((id): id is string => id !== undefined).sort()
    if (wanted.join('|') === held.join('|')) unchanged++
    else plan.update.push({ _id: section._id, row: 0, source: { system: oneRosterSystem, sourced_id: sourcedId }, set: {}, refs: { instructors: wanted.map((id) => ({ kind: 'person' as const, sourced_id: id })) } })
  }
  return { ...plan, unchanged }
}
