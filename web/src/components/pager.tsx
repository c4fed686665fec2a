/** Previous and next pages of a list the API pages with limit and offset. */
export function Pager({ offset, limit, total, go }: { offset: number; limit: number; total: number; go: (offset: number) => void }) {
  if (total <= limit) return null
  return (
    <div className="actions">
      <button type="button" disabled={offset === 0} onClick={() => go(Math.max(0, offset - limit))}>Previous page</button>
      <span>{offset + 1}–{Math.min(offset + limit, total)} of {total}</span>
      <button type="button" disabled={offset + limit >= total} onClick={() => go(offset + limit)}>Next page</button>
    </div>
  )
}
