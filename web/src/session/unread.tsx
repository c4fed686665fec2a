import { useEffect, useRef, useSyncExternalStore } from 'react'
import { NavLink, useLocation } from 'react-router'
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

/**
 * The navigation's entry for the notifications page with the unread count: shown "Notifications 3",
 * named "Notifications, 3 unread". The page load's count comes with GET /api/auth/me (the shell seeds
 * it); it is read again at each navigation, and when the window regains focus (another tab may have
 * read them); never on a timer.
 */
export function UnreadLink({ to, label }: { to: string; label: string }) {
  const count = useUnread()
  const { key } = useLocation()
  const mounted = useRef(false)
  useEffect(() => {
    // The first render's count came with the shell's GET /api/auth/me: no second request for it.
    if (!mounted.current && unread.get() !== null) { mounted.current = true; return }
    mounted.current = true
    void refreshUnread()
  }, [key])
  useEffect(() => {
    const onFocus = () => { void refreshUnread() }
    window.addEventListener('focus', onFocus)
    return () => window.removeEventListener('focus', onFocus)
  }, [])
  return (
    <NavLink to={to} aria-label={count ? `${label}, ${count} unread` : undefined}>
      {label}
      {count ? <> <span className="count">{count}</span></> : null}
    </NavLink>
  )
}
