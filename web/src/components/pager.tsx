/**
 * The app's one pager, for every list the API pages with limit and offset: previous and next, and
 * where the reader is ("Page 2 of 4, 26–50 of 90"). A list that fits one page has none.
 */
export function Pager({ offset, limit, total, go }: { offset: number; limit: number; total: number; go: (offset: number) => void }) {
  if (total <= limit && offset === 0) return null
  const page = Math.floor(offset / limit) + 1
  const pages = Math.max(1, Math.ceil(total / limit))
  return (
    <nav aria-label="Pages" className="pager">
      <button type="button" disabled={offset === 0} onClick={() => go(Math.max(0, offset - limit))}>Previous page</button>
      <span>{`Page ${page} of ${pages}, ${Math.min(offset + 1, total)}–${Math.min(offset + limit, total)} of ${total}`}</span>
      <button type="button" disabled={offset + limit >= total} onClick={() => go(offset + limit)}>Next page</button>
    </nav>
  )
}
