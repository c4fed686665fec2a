import type { SampleDepartment, SampleRecord } from './index.js'
import { currentTerm, sectionTerms } from './terms.js'

/** A CSV file: its header and rows, cells already strings. */
export type CsvFile = { readonly header: readonly string[]; readonly rows: readonly (readonly string[])[] }

// The seed's Lexical ids ("Course/cs_101") are stable, so a sourcedId derived from them names the same
// record on every run; the SIS of a real campus would use its own ids.
const sourced = (id: string) => id.replace('/', '-')

const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)

export function csvText(file: CsvFile): string {
  return [file.header, ...file.rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n'
}

const sessionId = (term: string) => `term-${term}`
const termDates: Record<string, [string, string]> = { F: ['08-25', '12-15'], S: ['01-15', '05-10'] }

/**
 * The sample department as its campus would export it: a OneRoster 1.1 CSV package (bulk) of the terms,
 * every course, the current term's sections, every person, and the current term's enrollments of
 * teachers and students. A campus sync of it onto the seeded store matches everything by campus id,
 * course code and section key, so `npm start` has a feed that works with nothing configured.
 */
export function oneRosterPackage(department: SampleDepartment): Record<string, CsvFile> {
  const { catalog } = department
  const sections = catalog.sections.filter((s) => s.body.term === currentTerm)
  const body = (record: SampleRecord, field: string) => (record.body[field] === undefined ? '' : String(record.body[field]))
  const person = (record: SampleRecord, role: string, grades: string) =>
    [sourced(record.id), '', '', 'true', '', role, body(record, 'campus_id'), body(record, 'first_name'), body(record, 'last_name'), '', body(record, 'campus_id'), body(record, 'email'), '', '', grades, '']
  const codes = new Map(catalog.courses.map((c) => [c.id, body(c, 'course_code')]))
  const enrollments = department.enrollments.filter((e) => e.body.term === currentTerm && typeof e.body.section === 'string')
  return {
    'manifest.csv': {
      header: ['propertyName', 'value'],
      rows: [['manifest.version', '1.0'], ['oneroster.version', '1.1'], ['file.academicSessions', 'bulk'], ['file.courses', 'bulk'], ['file.classes', 'bulk'], ['file.users', 'bulk'], ['file.enrollments', 'bulk'], ['source.systemName', 'Sample campus']],
    },
    'academicSessions.csv': {
      header: ['sourcedId', 'status', 'dateLastModified', 'title', 'type', 'startDate', 'endDate', 'parentSourcedId', 'schoolYear'],
      rows: sectionTerms.map((term) => {
        const year = `20${term.slice(0, 2)}`
        const [start, end] = termDates[term.slice(2)]!
        return [sessionId(term), '', '', term, 'term', `${year}-${start}`, `${year}-${end}`, '', year]
      }),
    },
    'courses.csv': {
      header: ['sourcedId', 'status', 'dateLastModified', 'schoolYearSourcedId', 'title', 'courseCode', 'grades', 'orgSourcedId', 'subjects', 'subjectCodes'],
      rows: catalog.courses.map((c) => [sourced(c.id), '', '', '', body(c, 'title'), body(c, 'course_code'), '', 'dept', '', '']),
    },
    'classes.csv': {
      header: ['sourcedId', 'status', 'dateLastModified', 'title', 'grades', 'courseSourcedId', 'classCode', 'classType', 'location', 'schoolSourcedId', 'termSourcedIds', 'subjects', 'subjectCodes', 'periods'],
      rows: sections.map((s) => [sourced(s.id), '', '', `${codes.get(body(s, 'course')) ?? ''} ${body(s, 'section_number')}`, '', sourced(body(s, 'course')), body(s, 'section_number'), 'scheduled', body(s, 'location'), 'dept', sessionId(currentTerm), '', '', '']),
    },
    'users.csv': {
      header: ['sourcedId', 'status', 'dateLastModified', 'enabledUser', 'orgSourcedIds', 'role', 'username', 'givenName', 'familyName', 'middleName', 'identifier', 'email', 'sms', 'phone', 'grades', 'password'],
      rows: [
        ...catalog.faculty.map((p) => person(p, 'teacher', '')),
        ...catalog.staff.map((p) => person(p, 'administrator', '')),
        ...catalog.undergraduates.map((p) => person(p, 'student', 'UG')),
        ...catalog.graduates.map((p) => person(p, 'student', 'GR')),
      ],
    },
    'enrollments.csv': {
      header: ['sourcedId', 'status', 'dateLastModified', 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role', 'primary', 'beginDate', 'endDate'],
      rows: [
        ...sections.flatMap((s) => ((s.body.instructors as string[] | undefined) ?? []).map((f, i) => [`teach-${sourced(s.id)}-${i}`, '', '', sourced(s.id), 'dept', sourced(f), 'teacher', i === 0 ? 'true' : 'false', '', ''])),
        ...enrollments.map((e) => [sourced(e.id), '', '', sourced(String(e.body.section)), 'dept', sourced(String(e.body.student)), 'student', 'false', '', '']),
      ],
    },
  }
}
