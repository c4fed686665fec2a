import type { ComponentType } from 'react'

/** The API's roles (the user's `role` in GET /api/auth/me). */
type Role = 'admin' | 'faculty' | 'staff' | 'student' | 'user'

export interface Page {
  /** The route's path, with react-router's `:param`s. */
  readonly path: string
  /** The page's module, loaded with its route so a first load fetches only the shell and that page. */
  readonly load: () => Promise<{ default: ComponentType }>
  /** Its entry in the main navigation, for the roles listed (everyone when none are). */
  readonly nav?: { readonly label: string; readonly roles?: readonly Role[] }
}

/**
 * Every page behind the shell (DESIGN 6.8), in navigation order. The shell's navigation shows a page to
 * the roles it names; the server still decides every access, so a hidden link hides nothing.
 */
export const pages: readonly Page[] = [
  // Everyone's
  { path: '/dashboard', load: () => import('./pages/dashboard'), nav: { label: 'Dashboard' } },
  { path: '/approvals', load: () => import('./pages/approvals'), nav: { label: 'Approvals' } },
  { path: '/approvals/:domain/:id', load: () => import('./pages/approval') },
  { path: '/students/:id/progress', load: () => import('./pages/progress') },
  // The catalog, search, profile and advisees

  // Students' own work
  { path: '/students/:id/transcript', load: () => import('./pages/student/transcript') },
  { path: '/students/:id/plans', load: () => import('./pages/student/plans') },
  { path: '/requests', load: () => import('./pages/student/requests'), nav: { label: 'My requests' } },

  // Admins' records

  // Admins' operations

  { path: '/settings/api-keys', load: () => import('./pages/api-keys'), nav: { label: 'API keys' } },
]
