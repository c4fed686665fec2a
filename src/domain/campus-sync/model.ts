/**
 * One row model for both OneRoster bindings (REST JSON and CSV packages, 1.1 and 1.2), so the mapping
 * in src/domain/campus-sync never asks where a row came from. Only the fields this service reads are
 * kept; anything else a feed sends (including `$`-keys or unexpected roles) is dropped on the way in.
 */

export const collections = ['academicSessions', 'courses', 'classes', 'users', 'enrollments'] as const
export type Collection = (typeof collections)[number]

/** `inactive` exists only in 1.1; 1.2 knows `active` and `tobedeleted`. Bulk CSV rows may leave it blank. */
export type RowStatus = 'active' | 'tobedeleted' | 'inactive'

interface RowBase {
  /** 1-based position of the row in its collection (CSV data line, or offset + index over REST pages). */
  readonly row: number
  readonly sourcedId: string
  readonly status: RowStatus
  /** ISO 8601 as the source wrote it; absent on bulk CSV rows. */
  readonly dateLastModified?: string
}

export interface OneRosterAcademicSession extends RowBase {
  readonly title: string
  /** gradingPeriod, semester, schoolYear or term. */
  readonly type: string
  readonly startDate?: string
  readonly endDate?: string
  readonly parentSourcedId?: string
  readonly schoolYear?: string
}

export interface OneRosterCourse extends RowBase {
  readonly title: string
  readonly courseCode?: string
  readonly schoolYearSourcedId?: string
  readonly orgSourcedId?: string
  readonly grades: readonly string[]
  readonly subjects: readonly string[]
}

export interface OneRosterClass extends RowBase {
  readonly title: string
  readonly classCode?: string
  readonly classType?: string
  readonly location?: string
  readonly courseSourcedId?: string
  readonly schoolSourcedId?: string
  readonly termSourcedIds: readonly string[]
}

export interface OneRosterRole {
  readonly role: string
  /** `primary` or `secondary`; 1.1 has one role per user, read as primary. */
  readonly roleType: string
  readonly orgSourcedId?: string
}

export interface OneRosterUser extends RowBase {
  readonly enabledUser: boolean
  readonly username?: string
  readonly givenName: string
  readonly familyName: string
  readonly email?: string
  readonly phone?: string
  readonly identifier?: string
  readonly userMasterIdentifier?: string
  readonly roles: readonly OneRosterRole[]
  readonly grades: readonly string[]
}

export interface OneRosterEnrollment extends RowBase {
  readonly userSourcedId?: string
  readonly classSourcedId?: string
  readonly schoolSourcedId?: string
  readonly role: string
  readonly primary: boolean
  readonly beginDate?: string
  readonly endDate?: string
}

export interface RowOf {
  academicSessions: OneRosterAcademicSession
  courses: OneRosterCourse
  classes: OneRosterClass
  users: OneRosterUser
  enrollments: OneRosterEnrollment
}

export type OneRosterRow = RowOf[Collection]

/** A batch of rows as a source delivers them: a REST page, or a slice of a CSV file. */
export interface Page<C extends Collection> {
  readonly collection: C
  /** Rows before this page. */
  readonly offset: number
  readonly rows: readonly RowOf[C][]
  /** X-Total-Count when a REST provider sends it. */
  readonly total?: number
}
