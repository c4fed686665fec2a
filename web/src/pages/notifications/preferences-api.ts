import { api } from '../../api/client'

/** How often a user is emailed (DESIGN 6.7), in the order the page offers them. */
export const frequencies = ['immediate', 'daily', 'weekly', 'off'] as const
export type Frequency = (typeof frequencies)[number]

export interface Preferences {
  readonly email: Frequency
  /** True while the user has chosen nothing and their role's default applies. */
  readonly default?: boolean
}

/*
 * GET|PUT /api/notifications/preferences are not in api/schema.d.ts yet, so the typed client cannot be
 * called with their path. Until `npm run web:types` picks them up, they are called here, and only here,
 * through a loosened signature of the same client (the token, the 401 handling and the server's
 * messages are unchanged). Then: drop `Untyped`, call `api` directly, and take `Preferences` from
 * `components['schemas']`.
 */
type Untyped = (method: 'get' | 'put', path: string, options?: { readonly body?: unknown }) => Promise<unknown>
const untyped = api as unknown as Untyped

export async function readPreferences(): Promise<Preferences> {
  return await untyped('get', '/api/notifications/preferences') as Preferences
}

export async function savePreferences(email: Frequency): Promise<Preferences> {
  return await untyped('put', '/api/notifications/preferences', { body: { email } }) as Preferences
}
