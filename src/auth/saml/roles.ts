import type { Role } from '../permissions.js'

export type SamlRole = Exclude<Role, 'admin'>

/** The interface spec's mapping of eduPersonAffiliation values; anything else maps to user. */
const byAffiliation: Readonly<Record<string, SamlRole>> = {
  faculty: 'faculty',
  employee: 'faculty',
  staff: 'staff',
  student: 'student',
  alum: 'user',
  none: 'user',
}

/** When a person has several affiliations the strongest role wins. */
const strength: readonly SamlRole[] = ['user', 'student', 'staff', 'faculty']

/** The role single sign-on gives; never admin, whatever the identity provider sends. */
export function roleFromAffiliation(affiliations: readonly string[]): SamlRole {
  let role: SamlRole = 'user'
  for (const affiliation of affiliations) {
    const mapped = Object.hasOwn(byAffiliation, affiliation) ? byAffiliation[affiliation]! : 'user'
    if (strength.indexOf(mapped) > strength.indexOf(role)) role = mapped
  }
  return role
}

/** The role a user holds after signing in: an admin stays admin; everyone else gets the mapped role. */
export function roleAfterSignIn(current: Role | undefined, mapped: SamlRole): Role {
  return current === 'admin' ? 'admin' : mapped
}
