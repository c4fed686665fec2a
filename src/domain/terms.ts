/** Order of the seasons within one calendar year: winter (January) term, spring, summer, fall. */
const seasons = 'WSUF'

/**
 * Chronological order of term codes such as "24F" and "25S" (two-digit year, season letter). Codes that
 * do not parse sort after the ones that do, among themselves by text, so the order is always total.
 */
export function compareTerms(a: string, b: string): number {
  const ka = termKey(a)
  const kb = termKey(b)
  if (ka !== undefined && kb !== undefined) return ka - kb
  if (ka !== undefined) return -1
  if (kb !== undefined) return 1
  return a < b ? -1 : a > b ? 1 : 0
}

function termKey(term: string): number | undefined {
  const match = /^(\d{2})([FSUW])$/.exec(term)
  return match ? Number(match[1]) * 4 + seasons.indexOf(match[2]!) : undefined
}
