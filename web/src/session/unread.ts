import { useSyncExternalStore } from 'react'
import { api } from '../api/client'
import { UnreadCount } from '../lib/unread'

/** The signed-in caller's unread count, for the navigation, the dashboard and the notifications page. */
export const unread = new UnreadCount()

/** One unread notification is asked for: the answer's `unread` is the count, whatever the page size. */
export function refreshUnread(): Promise<void> {
  return unread.refresh(async () => (await api('get', '/api/notifications', { query: { unread: true, limit: 1 } })).unread)
}

export function useUnread(): number | null {
  return useSyncExternalStore(unread.subscribe, unread.get)
}
