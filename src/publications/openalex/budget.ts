/**
 * OpenAlex reports the day's budget on every answer. The current headers count US dollars
 * (`X-RateLimit-Remaining-USD`); the earlier credit scheme sent `X-RateLimit-Remaining`. Either at or
 * below zero means the budget is spent. It renews at midnight UTC (OpenAlex's documentation), which is
 * when a stopped run can go on.
 */
export function budgetSpent(headers: Headers): boolean {
  for (const name of ['x-ratelimit-remaining-usd', 'x-ratelimit-remaining']) {
    const value = headers.get(name)
    if (value !== null && value.trim() !== '' && Number(value) <= 0) return true
  }
  return false
}

export function nextMidnightUtc(now: number): Date {
  const date = new Date(now)
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1))
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const value = headers.get('retry-after')?.trim()
  if (!value) return undefined
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}
