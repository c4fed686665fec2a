import { api } from '../api/client'
import type { components } from '../api/schema'

export type Preferences = components['schemas']['NotificationPreferences']
export type Frequency = Preferences['email']

/** How often a user is emailed (docs/notifications.md), in the order the page offers them. */
export const frequencies: readonly Frequency[] = ['immediate', 'daily', 'weekly', 'off']

export function readPreferences(): Promise<Preferences> {
  return api('get', '/api/notifications/preferences')
}

export function savePreferences(email: Frequency): Promise<Preferences> {
  return api('put', '/api/notifications/preferences', { body: { email } })
}
