/** What the sign-in redirect put in the address of /auth/saml-callback. */
export interface CallbackParams {
  readonly token: string | null
  readonly error: string | null
  readonly returnTo: string | null
}

let taken: CallbackParams | null = null

/**
 * Reads the custom token (or the error) out of the address and removes it at once with
 * history.replaceState, before any other code runs or any request is made, so it stays in neither the
 * address bar nor the history (docs/web.md, "Signing in"). Called by main.tsx before the router starts.
 */
export function captureCallbackParams(): void {
  if (window.location.pathname !== '/auth/saml-callback' || !window.location.search) return
  const query = new URLSearchParams(window.location.search)
  taken = { token: query.get('token'), error: query.get('error'), returnTo: query.get('returnTo') }
  window.history.replaceState(null, '', '/auth/saml-callback')
}

/** The captured parameters, once: a second read (a re-render, a reload) finds none. */
export function takeCallbackParams(): CallbackParams | null {
  const value = taken
  taken = null
  return value
}
