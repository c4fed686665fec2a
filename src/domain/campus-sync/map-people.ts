import type { OneRosterEnrollment, OneRosterUser } from './model.js'
import { classOfUser, defaultStudentLevels, type StudentLevels } from './people.js'
import { defined, mapRows } from './rows.js'
import type { Mapped } from './types.js'

// schema/people.json: campus_id pattern; an email is checked only for shape, the store checks the rest.
const campusIdPattern = /^[A-Za-z0-9._-]{1,64}$/
const emailShape = /^[^\s@]{1,64}@[^\s@]{1,190}$/

/**
 * users → people by role. A person is matched by sourcedId, so none needs a campus id: campus_id is the
 * `identifier`, else `userMasterIdentifier`, whichever is NetID-shaped. OneRoster's identifier is free
 * text, so one that is not (spaces, say) is kept as the source's `identifier`, never a reason to refuse;
 * an email that is no address is left out with a warning.
 */
export function mapPeople(rows: readonly OneRosterUser[], system: string, levels: StudentLevels = defaultStudentLevels): Mapped {
  return mapRows(rows, (row, fail) => {
    const ids = [row.identifier, row.userMasterIdentifier].filter((id): id is string => id !== undefined)
    const campusId = ids.find((id) => campusIdPattern.test(id))
    const otherId = ids.find((id) => id !== campusId && !campusIdPattern.test(id))
    if (!row.givenName || !row.familyName) return fail('givenName or familyName is missing')
    const usableEmail = row.email === undefined || emailShape.test(row.email)
    const warnings = usableEmail ? [] : [`email "${row.email!.slice(0, 64)}" is not an address; landed without it`]
    const email = usableEmail ? row.email?.toLowerCase() : undefined
    const kind = classOfUser(row, levels)
    if ('error' in kind) return fail(kind.error)
    if ('skip' in kind) return kind
    return {
      kind: 'person',
      row: row.row,
      status: row.status,
      source: { system, sourced_id: row.sourcedId, ...(otherId !== undefined ? { identifier: otherId } : {}) },
      values: defined({ '@type': kind.class, first_name: row.givenName, last_name: row.familyName, email, campus_id: campusId, phone: row.phone }),
      refs: {},
      ...(warnings.length ? { warnings } : {}),
    }
  })
}

export interface EnrolledClass {
  readonly course: string
  readonly term: string
}

export interface EnrollmentContext {
  /** Class sourcedId → its course sourcedId and term code (from this run's sections and synced ones). */
  readonly classes: ReadonlyMap<string, EnrolledClass>
  /** sourcedIds of people synced as students. */
  readonly students: ReadonlySet<string>
}

/** What a people run says once, in its summary, when it met classes no sections run has synced yet. */
export function notSyncedNotice(classes: readonly string[], enrollments: number): string | undefined {
  if (!classes.length) return undefined
  const others = classes.length > 1 ? ` (and ${classes.length - 1} other class${classes.length > 2 ? 'es' : ''})` : ''
  return `sync sections first: ${classes[0]} is not synced yet${others}; ${enrollments} enrollment${enrollments === 1 ? '' : 's'} in them left out`
}

/**
 * Student enrollments → protected Enrollment records; other roles are left to teachersByClass or skipped.
 * While no section is synced at all, an enrollment's class is skipped, not an error: the fault is the
 * order of the runs, not the row, and the run says once which run to do first (`notice`; docs/operations.md,
 * "Campus sync (OneRoster)") rather than once per enrollment.
 */
export function mapEnrollments(rows: readonly OneRosterEnrollment[], system: string, context: EnrollmentContext): Mapped & { notice?: string } {
  // No section of the run's terms on record: the sections run was never done. Once some are, a class
  // missing among them (one the sections run refused, say) is that row's error, as before.
  const sectionsNeverSynced = context.classes.size === 0
  const notSynced = new Set<string>()
  let left = 0
  const mapped = mapRows(rows, (row, fail) => {
    if (row.role !== 'student') return { skip: `role ${row.role || '(none)'} is not a student enrollment` }
    if (!row.userSourcedId || !row.classSourcedId) return fail('user or class is missing')
    const klass = context.classes.get(row.classSourcedId)
    if (!klass && sectionsNeverSynced) {
      notSynced.add(row.classSourcedId)
      left++
      return { skip: `its class ${row.classSourcedId} is not synced yet: sync sections first` }
    }
    if (!klass) return fail(`unknown class ${row.classSourcedId}`)
    if (!context.students.has(row.userSourcedId)) return fail(`user ${row.userSourcedId} is not a synced student`)
    return {
      kind: 'enrollment',
      row: row.row,
      status: row.status,
      source: { system, sourced_id: row.sourcedId },
      values: { term: klass.term, status: 'enrolled' },
      refs: {
        student: { kind: 'person', sourced_id: row.userSourcedId },
        course: { kind: 'course', sourced_id: klass.course },
        section: { kind: 'section', sourced_id: row.classSourcedId },
      },
    }
  })
  const notice = notSyncedNotice([...notSynced], left)
  return notice ? { ...mapped, notice } : mapped
}

/** Teachers of each class, from active teacher enrollments whose user is known as synced faculty. */
export function teachersByClass(rows: readonly OneRosterEnrollment[], faculty: ReadonlySet<string>): Map<string, string[]> {
  const byClass = new Map<string, string[]>()
  for (const row of rows) {
    if (row.role !== 'teacher' || row.status !== 'active' || !row.classSourcedId || !row.userSourcedId || !faculty.has(row.userSourcedId)) continue
    const teachers = byClass.get(row.classSourcedId) ?? []
    if (!teachers.includes(row.userSourcedId)) teachers.push(row.userSourcedId)
    byClass.set(row.classSourcedId, teachers)
  }
  return byClass
}
