import type { OneRosterUser } from './model.js'

export type PersonClass = 'Faculty' | 'Staff' | 'UndergraduateStudent' | 'GraduateStudent'
export type StudentClass = 'UndergraduateStudent' | 'GraduateStudent'

export interface StudentLevels {
  /** Grade values (compared without case) to student class; `GR` and `PG` are graduate, CEDS `13`, `PS` and `UG` undergraduate. */
  readonly byGrade: Readonly<Record<string, StudentClass>>
  /** For a student whose grades name no level. */
  readonly fallback: StudentClass
}

export const defaultStudentLevels: StudentLevels = {
  byGrade: { gr: 'GraduateStudent', pg: 'GraduateStudent', ug: 'UndergraduateStudent', ps: 'UndergraduateStudent', '13': 'UndergraduateStudent' },
  fallback: 'UndergraduateStudent',
}

// Roles of OneRoster 1.1 and 1.2 that make someone department staff.
const staffRoles = new Set(['aide', 'administrator', 'siteAdministrator', 'districtAdministrator', 'systemAdministrator', 'principal', 'counselor', 'proctor'])
// Family members have accounts in K-12 feeds; they are not members of the department.
const familyRoles = new Set(['parent', 'guardian', 'relative'])

export type ClassOfUser = { class: PersonClass } | { skip: string } | { error: string }

/** The person class a user's primary role (else first role) asks for. */
export function classOfUser(user: OneRosterUser, levels: StudentLevels = defaultStudentLevels): ClassOfUser {
  const role = (user.roles.find((r) => r.roleType === 'primary') ?? user.roles[0])?.role
  if (role === undefined) return { error: 'user has no role' }
  if (role === 'teacher') return { class: 'Faculty' }
  if (staffRoles.has(role)) return { class: 'Staff' }
  if (familyRoles.has(role)) return { skip: `role ${role} is not a department member` }
  if (role !== 'student') return { error: `unknown role "${role.slice(0, 40)}"` }
  for (const grade of user.grades) {
    const level = levels.byGrade[grade.toLowerCase()]
    if (level) return { class: level }
  }
  return { class: levels.fallback }
}
