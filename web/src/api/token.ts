import { SessionStore } from '../lib/session'

/** The tab's session: the ID token in memory and sessionStorage. */
export const sessions = new SessionStore(window.sessionStorage)

/** The page to sign in from, coming back to `path` afterwards. */
export function signInPath(path: string): string {
  return `/sign-in?returnTo=${encodeURIComponent(path)}`
}
