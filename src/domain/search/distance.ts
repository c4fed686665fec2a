/** True when `a` from `i` equals `b` from `j` up to `bEnd`, character for character. */
function sameRest(a: string, i: number, b: string, j: number, bEnd: number): boolean {
  if (a.length - i !== bEnd - j) return false
  for (; i < a.length; i++, j++) if (a.charCodeAt(i) !== b.charCodeAt(j)) return false
  return true
}

/**
 * Whether `a` and the first `length` characters of `b` are at most one edit apart, counting a letter
 * added, dropped or changed, or two neighbours swapped (Damerau-Levenshtein, optimal string alignment).
 * Compares in place, without slicing, and gives up at the second difference, so checking a query word
 * against a whole vocabulary stays cheap.
 */
export function withinOneEdit(a: string, b: string, length = b.length): boolean {
  const n = Math.min(length, b.length)
  if (Math.abs(a.length - n) > 1) return false
  const shorter = Math.min(a.length, n)
  let i = 0
  while (i < shorter && a.charCodeAt(i) === b.charCodeAt(i)) i++
  if (i === shorter) return true
  if (a.length === n) {
    if (sameRest(a, i + 1, b, i + 1, n)) return true
    return i + 1 < n && a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameRest(a, i + 2, b, i + 2, n)
  }
  return a.length > n ? sameRest(a, i + 1, b, i, n) : sameRest(a, i, b, i + 1, n)
}
