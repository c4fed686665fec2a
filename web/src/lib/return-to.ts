/** Where a sign-in ends when it was given nowhere (or nowhere acceptable) to return to. */
export const defaultReturnTo = '/dashboard'

/**
 * A same-site path to go to after signing in, as the server checks `returnTo` (docs/auth.md): one leading
 * `/`, not `//` or `/\` (which browsers read as another host), no control characters or whitespace, and
 * not the sign-in pages themselves. Anything else gives `/dashboard`.
 */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value || value.length > 2000) return defaultReturnTo
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return defaultReturnTo
  if (/[\u0000-\u0020\u007f\\]/.test(value)) return defaultReturnTo
  if (value === '/sign-in' || value.startsWith('/sign-in?') || value.startsWith('/auth/')) return defaultReturnTo
  return value
}
