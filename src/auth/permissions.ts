export const roles = ['admin', 'faculty', 'staff', 'student', 'user'] as const
export type Role = (typeof roles)[number]

export const permissions = [
  'read_people', 'read_courses', 'read_publications', 'read_labs', 'read_resources',
  'write_people', 'write_courses', 'write_publications', 'write_labs', 'write_resources',
  'manage_profiles', 'manage_groups', 'manage_jobs',
] as const
export type Permission = (typeof permissions)[number]

const reads: Permission[] = ['read_people', 'read_courses', 'read_publications', 'read_labs', 'read_resources']

/** What each role holds before groups add to it (docs/auth.md, "Permissions, roles and groups"). */
export const roleDefaults: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  admin: new Set(permissions),
  faculty: new Set([...reads, 'write_publications']),
  staff: new Set([...reads, 'write_publications']),
  student: new Set(reads),
  user: new Set(reads),
}

export function isPermission(name: string): name is Permission {
  return (permissions as readonly string[]).includes(name)
}

/** Who a route admits. Every route declares one; a route without one stops start-up. */
export type Policy =
  | { readonly kind: 'public' }
  | { readonly kind: 'signed-in' }
  /** `apiKeys`: also open to API keys holding the permission (the spec's catalog reads only). */
  | { readonly kind: 'permission'; readonly permission: Permission; readonly apiKeys?: boolean }
  /** At least one of the permissions; the route narrows what it answers to those the caller holds. */
  | { readonly kind: 'any-permission'; readonly permissions: readonly Permission[] }
  | { readonly kind: 'admin' }

export const allow = {
  public: { kind: 'public' } as Policy,
  signedIn: { kind: 'signed-in' } as Policy,
  admin: { kind: 'admin' } as Policy,
  permission: (permission: Permission, options: { apiKeys?: boolean } = {}): Policy =>
    ({ kind: 'permission', permission, ...(options.apiKeys ? { apiKeys: true } : {}) }),
  anyPermission: (permissions: readonly Permission[]): Policy => ({ kind: 'any-permission', permissions }),
}

export function describePolicy(policy: Policy): string {
  switch (policy.kind) {
    case 'public': return 'Open to anyone.'
    case 'signed-in': return 'Needs a signed-in user.'
    case 'permission': return `Needs the ${policy.permission} permission${policy.apiKeys ? '; open to API keys granted it' : ''}.`
    case 'any-permission': return `Needs one of the ${policy.permissions.join(', ')} permissions.`
    case 'admin': return 'Admins only.'
  }
}
