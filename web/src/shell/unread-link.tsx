import { useEffect, useRef } from 'react'
import { NavLink, useLocation } from 'react-router'
import { refreshUnread, unread, useUnread } from '../session/unread'

/**
 * The navigation's entry for the notifications page with the unread count: shown "Notifications 3",
 * named "Notifications, 3 unread". The page load's count comes with GET /api/auth/me (the session's
 * loader seeds it); it is read again at each navigation, and when the window regains focus (another
 * tab may have read them); never on a timer.
 */
export function UnreadLink({ to, label }: { to: string; label: string }) {
  const count = useUnread()
  const { key } = useLocation()
  const mounted = useRef(false)
  useEffect(() => {
    // The first render's count came with the loader's GET /api/auth/me: no second request for it.
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
