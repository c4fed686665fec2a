import { normalizeRow } from '../../../src/campus-sync/oneroster/normalize.js'
import type { OneRosterAcademicSession, OneRosterClass, OneRosterCourse, OneRosterEnrollment, OneRosterUser } from '../../../src/domain/campus-sync/model.js'
import type { CurrentRecord, SyncKind } from '../../../src/domain/campus-sync/types.js'
import type { SyncPlan } from '../../../src/domain/campus-sync/plan.js'

/** Rows as the connectors yield them, built from REST-shaped objects through the real normaliser. */
export const course = (n: number, raw: Record<string, unknown>): OneRosterCourse => normalizeRow('courses', raw, n)
export const klass = (n: number, raw: Record<string, unknown>): OneRosterClass => normalizeRow('classes', raw, n)
export const session = (n: number, raw: Record<string, unknown>): OneRosterAcademicSession => normalizeRow('academicSessions', raw, n)
export const enrollment = (n: number, raw: Record<string, unknown>): OneRosterEnrollment => normalizeRow('enrollments', raw, n)
export function user(n: number, sourcedId: string, role: string, extra: Record<string, unknown> = {}): OneRosterUser {
  return normalizeRow('users', { sourcedId, status: 'active', givenName: `G${sourcedId}`, familyName: `F${sourcedId}`, identifier: `net-${sourcedId}`, email: `${sourcedId}@example.edu`, roles: [{ roleType: 'primary', role }], ...extra }, n)
}

/**
 * Applies a plan to an in-memory list the way the sync shell will apply it to the store, so a second
 * planning run sees what the first one wrote.
 */
export function applyPlan(current: readonly CurrentRecord[], plan: SyncPlan, kind: SyncKind): CurrentRecord[] {
  if (plan.refusal) return [...current]
  const byId = new Map(current.map((record) => [record._id, record]))
  for (const update of plan.update) {
    const record = byId.get(update._id)!
    const { active, source, ...values } = update.set as Record<string, unknown>
    byId.set(update._id, {
      ...record,
      active: active === true ? true : record.active,
      source: (source as CurrentRecord['source']) ?? record.source,
      values: { ...record.values, ...values },
      refs: { ...record.refs, ...update.refs },
    })
  }
  for (const gone of plan.deactivate) byId.set(gone._id, { ...byId.get(gone._id)!, active: false })
  for (const created of plan.create) {
    const _id = `${kind}-${created.source.sourced_id}`
    byId.set(_id, { _id, source: created.source, active: true, values: created.values, refs: created.refs })
  }
  return [...byId.values()]
}
