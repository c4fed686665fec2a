import type { ComponentType } from 'react'

/** The API's roles (the user's `role` in GET /api/auth/me). */
type Role = 'admin' | 'faculty' | 'staff' | 'student' | 'user'

/**
 * The navigation's groups, in order: one's own work, the department's catalog, one's account. The
 * shell shows each group with its name, so a long navigation (an admin's) reads as three short ones.
 */
export const navGroups = [
  { key: 'work', label: 'Your work' },
  { key: 'department', label: 'Department' },
  { key: 'account', label: 'Account' },
] as const
export type NavGroup = (typeof navGroups)[number]['key']

/** Everyone but students: a student is never asked to decide (the server refuses them as delegates too). */
const approvers: readonly Role[] = ['faculty', 'staff', 'admin', 'user']

export interface Page {
  /** The route's path, with react-router's `:param`s. */
  readonly path: string
  /** The page's module, loaded with its route so a first load fetches only the shell and that page. */
  readonly load: () => Promise<{ default: ComponentType }>
  /** Its entry in the main navigation, for the roles listed (everyone when none are). */
  readonly nav?: {
    readonly label: string
    readonly group: NavGroup
    readonly roles?: readonly Role[]
    /** Shows the caller's unread notifications beside the label. */
    readonly unread?: true
  }
}

/**
 * Every page behind the shell (docs/web.md), in navigation order within each group. The shell's
 * navigation shows a page to the roles it names; the server still decides every access, so a hidden
 * link hides nothing.
 */
export const pages: readonly Page[] = [
  // Everyone's
  { path: '/dashboard', load: () => import('./home/dashboard'), nav: { label: 'Dashboard', group: 'work' } },
  { path: '/approvals', load: () => import('./workflows/approvals'), nav: { label: 'Approvals', group: 'work', roles: approvers } },
  { path: '/approvals/:domain/:id', load: () => import('./workflows/approval') },
  { path: '/notifications', load: () => import('./notifications/notifications'), nav: { label: 'Notifications', group: 'work', unread: true } },
  { path: '/students/:id/progress', load: () => import('./degrees/progress') },
  // The catalog, search, profile and advisees
  { path: '/people', load: () => import('./people/people'), nav: { label: 'People', group: 'department' } },
  { path: '/people/:id', load: () => import('./people/person') },
  { path: '/courses', load: () => import('./catalog/courses'), nav: { label: 'Courses', group: 'department' } },
  { path: '/courses/:id', load: () => import('./catalog/course') },
  { path: '/labs', load: () => import('./catalog/labs'), nav: { label: 'Labs', group: 'department' } },
  { path: '/publications', load: () => import('./publications/publications'), nav: { label: 'Publications', group: 'department' } },
  { path: '/search', load: () => import('./search/search'), nav: { label: 'Search', group: 'department' } },
  { path: '/profile', load: () => import('./people/profile'), nav: { label: 'Profile', group: 'account' } },
  { path: '/advisees', load: () => import('./people/advisees'), nav: { label: 'Advisees', group: 'work', roles: ['faculty', 'admin'] } },

  // Students' own work
  { path: '/students/:id/transcript', load: () => import('./degrees/transcript') },
  { path: '/students/:id/plans', load: () => import('./degrees/plans') },
  { path: '/requests', load: () => import('./workflows/requests'), nav: { label: 'My requests', group: 'work' } },

  // Admins' records
  { path: '/admin/records', load: () => import('./records/classes') },
  { path: '/admin/records/:class', load: () => import('./records/list') },
  { path: '/admin/records/:class/new', load: () => import('./records/form') },
  { path: '/admin/records/:class/:id', load: () => import('./records/form') },

  // Admins' operations
  { path: '/admin', load: () => import('./home/administration'), nav: { label: 'Administration', group: 'work', roles: ['admin'] } },
  { path: '/admin/users', load: () => import('./auth/users') },
  { path: '/admin/groups', load: () => import('./auth/groups') },
  { path: '/admin/jobs', load: () => import('./jobs/jobs') },
  { path: '/admin/sync', load: () => import('./campus-sync/sync') },
  { path: '/admin/audit', load: () => import('./privacy/audit') },
  { path: '/admin/cache', load: () => import('./cache/cache') },
  { path: '/admin/trash', load: () => import('./history/trash') },
  { path: '/admin/backups', load: () => import('./backups/backups') },

  { path: '/settings/api-keys', load: () => import('./auth/api-keys'), nav: { label: 'API keys', group: 'account' } },
]
