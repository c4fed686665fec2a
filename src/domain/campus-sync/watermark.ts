/**
 * The next delta watermark: the newest dateLastModified the source reported, never the local clock
 * (the two disagree, and a clock ahead of the source would skip changes). Keeps `previous` when the
 * run saw nothing newer.
 */
export function nextWatermark(previous: string | undefined, rows: Iterable<{ readonly dateLastModified?: string }>): string | undefined {
  let newest = previous
  let newestTime = previous === undefined ? -Infinity : Date.parse(previous)
  for (const row of rows) {
    const time = Date.parse(row.dateLastModified ?? '')
    if (!Number.isNaN(time) && time > newestTime) {
      newest = row.dateLastModified
      newestTime = time
    }
  }
  return newest
}
