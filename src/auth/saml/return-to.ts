export const defaultReturnTo = '/dashboard'

const maxLength = 512
const base = 'https://return-to.invalid'
const unsafe = /[\x00-\x1f\x7f\\]/

/**
 * The path to send a user to after sign-in: a same-site path starting with exactly one '/', else
 * /dashboard. Encoded slashes and backslashes are judged after decoding too, because a frontend
 * that decodes the value before navigating would otherwise follow `/%2F/evil.tld` off-site.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length > maxLength) return defaultReturnTo
  let decoded: string
  try {
    decoded = decodeURIComponent(value)
  } catch {
    return defaultReturnTo
  }
  for (const form of [value, decoded]) {
    if (!form.startsWith('/') || form.startsWith('//') || unsafe.test(form)) return defaultReturnTo
  }
  const url = new URL(value, base)
  if (url.origin !== base) return defaultReturnTo
  return `${url.pathname}${url.search}${url.hash}`
}
