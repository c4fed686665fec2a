import { useEffect, useState, type FormEvent, type ReactNode } from 'react'
import { useSearchParams } from 'react-router'
import { Alert, Loading, Title, useLoad } from '../../ui'

/** Rows per page of a catalog list. */
export const pageSize = 25

export interface ListPage<T> {
  readonly items: readonly T[]
  readonly total: number
}

/** Previous and next through a list of `total` records, `pageSize` a page. */
export function Pager({ page, total, go }: { page: number; total: number; go: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize))
  return (
    <nav aria-label="Pages" className="pager">
      <button type="button" disabled={page <= 1} onClick={() => go(page - 1)}>Previous page</button>
      <span>Page {page} of {pages}</span>
      <button type="button" disabled={page >= pages} onClick={() => go(page + 1)}>Next page</button>
    </nav>
  )
}

interface Props<T> {
  readonly title: string
  /** One page of the API's list: the words searched (if any) and the records to skip. */
  readonly load: (search: string | undefined, offset: number) => Promise<ListPage<T>>
  readonly columns: readonly string[]
  readonly row: (item: T) => ReactNode
  readonly keyOf: (item: T) => string
}

/**
 * A catalog list as the API pages it, with its search: both live in the address (`?search=&page=`),
 * so a search or a page can be linked to and the browser's back button returns to it.
 */
export function RecordList<T>({ title, load, columns, row, keyOf }: Props<T>) {
  const [params, setParams] = useSearchParams()
  const search = params.get('search') ?? ''
  const page = Math.max(1, Number(params.get('page')) || 1)
  const [typed, setTyped] = useState(search)
  // A link to the list (the navigation's) clears the search, and the field with it.
  useEffect(() => setTyped(search), [search])
  const list = useLoad(() => load(search || undefined, (page - 1) * pageSize), [search, page])

  function go(next: { search?: string; page?: number }) {
    const query = new URLSearchParams()
    const words = next.search ?? search
    if (words) query.set('search', words)
    if ((next.page ?? 1) > 1) query.set('page', String(next.page))
    setParams(query)
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    go({ search: typed.trim() })
  }

  return (
    <>
      <Title>{title}</Title>
      <form role="search" onSubmit={submit} className="list-search">
        <label htmlFor="list-search">Search {title.toLowerCase()}</label>
        <input id="list-search" type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
        <button type="submit">Search</button>
      </form>
      {list.state === 'loading' && <Loading />}
      {list.state === 'failed' && <Alert>{list.error}</Alert>}
      {list.state === 'ready' && (list.data.items.length === 0 ? <p>Nothing found.</p> : (
        <>
          <table>
            <caption>{list.data.total === 1 ? '1 record' : `${list.data.total} records`}{search && ` matching “${search}”`}</caption>
            <thead><tr>{columns.map((name) => <th key={name} scope="col">{name}</th>)}</tr></thead>
            <tbody>{list.data.items.map((item) => <tr key={keyOf(item)}>{row(item)}</tr>)}</tbody>
          </table>
          <Pager page={page} total={list.data.total} go={(next) => go({ page: next })} />
        </>
      ))}
    </>
  )
}
