import { flag, list, refId, status, text } from './fields.js'
import type { Collection, OneRosterRole, OneRosterUser, RowOf } from '../../domain/campus-sync/model.js'

/**
 * Turns one raw row into the shared row model. The raw row is either a REST JSON object (references as
 * `{sourcedId}` objects, lists as arrays) or a CSV record (references as `...SourcedId` columns, lists
 * as comma-separated cells), so each field reads both spellings. A row without a sourcedId keeps an
 * empty one, so the validator can report it by its row number.
 */
export function normalizeRow<C extends Collection>(collection: C, raw: Record<string, unknown>, row: number): RowOf[C] {
  const sourcedId = text(raw.sourcedId) ?? ''
  const base = { row, sourcedId, status: status(raw.status), dateLastModified: text(raw.dateLastModified) }
  return readers[collection](raw, base)
}

type Base = { row: number; sourcedId: string; status: ReturnType<typeof status>; dateLastModified?: string }
type Readers = { [C in Collection]: (raw: Record<string, unknown>, base: Base) => RowOf[C] }

const readers: Readers = {
  academicSessions: (raw, base) => ({
    ...base,
    title: text(raw.title) ?? '',
    type: text(raw.type) ?? '',
    startDate: text(raw.startDate),
    endDate: text(raw.endDate),
    parentSourcedId: refId(raw.parent) ?? text(raw.parentSourcedId),
    schoolYear: text(raw.schoolYear),
  }),
  courses: (raw, base) => ({
    ...base,
    title: text(raw.title) ?? '',
    courseCode: text(raw.courseCode),
    schoolYearSourcedId: refId(raw.schoolYear) ?? text(raw.schoolYearSourcedId),
    orgSourcedId: refId(raw.org) ?? text(raw.orgSourcedId),
    grades: list(raw.grades),
    subjects: list(raw.subjects),
  }),
  classes: (raw, base) => ({
    ...base,
    title: text(raw.title) ?? '',
    classCode: text(raw.classCode),
    classType: text(raw.classType),
    location: text(raw.location),
    courseSourcedId: refId(raw.course) ?? text(raw.courseSourcedId),
    schoolSourcedId: refId(raw.school) ?? text(raw.schoolSourcedId),
    termSourcedIds: raw.terms !== undefined ? list(raw.terms, refId) : list(raw.termSourcedIds),
  }),
  users: (raw, base) => readUser(raw, base),
  enrollments: (raw, base) => ({
    ...base,
    userSourcedId: refId(raw.user) ?? text(raw.userSourcedId),
    classSourcedId: refId(raw.class) ?? text(raw.classSourcedId),
    schoolSourcedId: refId(raw.school) ?? text(raw.schoolSourcedId),
    role: text(raw.role) ?? '',
    primary: flag(raw.primary, false),
    beginDate: text(raw.beginDate),
    endDate: text(raw.endDate),
  }),
}

function readUser(raw: Record<string, unknown>, base: Base): OneRosterUser {
  return {
    ...base,
    enabledUser: flag(raw.enabledUser, true),
    username: text(raw.username),
    givenName: text(raw.givenName) ?? '',
    familyName: text(raw.familyName) ?? '',
    email: text(raw.email),
    phone: text(raw.phone),
    identifier: text(raw.identifier),
    userMasterIdentifier: text(raw.userMasterIdentifier),
    roles: readRoles(raw),
    grades: list(raw.grades),
  }
}

/** 1.2 sends a `roles` array; 1.1 one `role` with its orgs (`orgs` in REST, `orgSourcedIds` in CSV). */
function readRoles(raw: Record<string, unknown>): OneRosterRole[] {
  if (Array.isArray(raw.roles)) {
    return raw.roles.flatMap((entry): OneRosterRole[] => {
      if (entry === null || typeof entry !== 'object') return []
      const fields = entry as Record<string, unknown>
      const role = text(fields.role)
      if (role === undefined) return []
      return [{ role, roleType: text(fields.roleType) ?? 'primary', orgSourcedId: refId(fields.org) ?? text(fields.orgSourcedId) }]
    })
  }
  const role = text(raw.role)
  if (role === undefined) return []
  const org = (raw.orgs !== undefined ? list(raw.orgs, refId) : list(raw.orgSourcedIds))[0]
  return [{ role, roleType: 'primary', orgSourcedId: org }]
}
