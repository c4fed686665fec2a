import { type FormEvent, type ReactNode } from 'react'
import { useFollowing } from '../hooks/use-following'
import { Link, useLocation, useSearchParams } from 'react-router'
import { useLoad } from '../hooks/use-load'
import { Loaded, Title } from './ui'
import { sortOf, type SortKey, type Sorted } from './sort'
import { Pager } from './pager'
import './lists.css'

/** Rows per page of a catalog list. */
export const pageSize = 25

export interface ListPage<T> {
  readonly items: readonly T[]
  readonly total: number
}

export interface Column<T> {
  readonly label: string
  readonly cell: (item: T) => ReactNode
  /** How the API sorts by this column, if it does (the list route's documented `sort` fields). */
  readonly sort?: SortKey
}

/** A filter the list route takes, as a field of the list's search form; its value lives in the address. */
export interface FilterField {
  /** The address's parameter, named as the page names the filter ("kind", "subject"). */
  readonly param: string
  readonly label: string
  /** A choice among these (value, words); "Any" is added first. Else a text field. */
  readonly options?: readonly (readonly [string, string])[]
  /** For a text field: what the browser's keyboard offers, and how wide it is. */
  readonly numeric?: boolean
  readonly size?: number
  /** A few words under the field, e.g. what a value looks like. */
  readonly hint?: string
}

/** What one page of a list asks the API: its search, page, sort (the API's `sort`, or none for its default) and filters. */
export interface ListQuery {
  readonly search: string | undefined
  readonly offset: number
  readonly sort: string | undefined
  readonly filters: Readonly<Record<string, string>>
}

interface Props<T> {
  readonly title: string
  readonly load: (query: ListQuery) => Promise<ListPage<T>>
  readonly columns: readonly Column<T>[]
  /** The column and direction the API sorts by when asked for no sort (its `default_sort`). */
  readonly defaultSort?: { readonly key: string; readonly descending: boolean }
  readonly filters?: readonly FilterField[]
  readonly keyOf: (item: T) => string
}

/**
 * A column header; a sortable one holds a button that sorts by it (ascending first, then the other
 * way), and the column sorted by carries `aria-sort`.
 */
function SortHeader({ label, sort, sorted, onSort }: { label: string; sort: SortKey | undefined; sorted: Sorted; onSort: (param: string) => void }) {
  if (!sort) return <th scope="col">{label}</th>
  const active = sorted.key === sort.key
  const state = active ? (sorted.descending ? 'descending' : 'ascending') : undefined
  const next = active && !sorted.descending ? `-${sort.key}` : sort.key
  return (
    <th scope="col" aria-sort={state}>
      <button type="button" className="sort" onClick={() => onSort(next)}>
        {label}<span aria-hidden="true" className="sort-mark">{state === 'ascending' ? ' ▲' : state === 'descending' ? ' ▼' : ' ↕'}</span>
      </button>
    </th>
  )
}

const words = (field: FilterField, value: string) => field.options?.find(([v]) => v === value)?.[1] ?? value

/**
 * A catalog list as the API pages, filters and sorts it. The search, the filters, the sort and the page
 * all live in the address (`?search=&kind=&sort=-name&page=2`), so a view can be linked to, reloaded,
 * and reached again with the browser's back button.
 */
export function RecordList<T>({ title, load, columns, defaultSort, filters = [], keyOf }: Props<T>) {
  const [params, setParams] = useSearchParams()
  const { pathname } = useLocation()
  const search = params.get('search') ?? ''
  const page = Math.max(1, Number(params.get('page')) || 1)
  const sortParam = params.get('sort') ?? ''
  const sorted = sortOf(sortParam, columns, defaultSort)
  // A choice the list does not offer (an old or mistyped link) is no filter, rather than one it cannot show.
  const applied = Object.fromEntries(filters.map((f) => [f.param, params.get(f.param) ?? ''] as const)
    .filter(([param, value]) => value && (!filters.find((f) => f.param === param)?.options || filters.some((f) => f.param === param && f.options?.some(([v]) => v === value)))))
  const appliedKey = JSON.stringify(applied)

  // A link to the list (the navigation's) clears the search and filters, and the fields with them.
  const [typed, setTyped] = useFollowing(search)
  const [draft, setDraft] = useFollowing<Readonly<Record<string, string>>>(applied, JSON.stringify)

  // The filters are a new object at each render, so they are compared, and read, by value.
  const list = useLoad(
    () => load({ search: search || undefined, offset: (page - 1) * pageSize, sort: sorted.api, filters: JSON.parse(appliedKey) as Record<string, string> }),
    [load, search, page, sorted.api, appliedKey],
  )

  function go(next: { search?: string; filters?: Readonly<Record<string, string>>; sort?: string; page?: number }) {
    const query = new URLSearchParams()
    const words = next.search ?? search
    if (words) query.set('search', words)
    for (const [param, value] of Object.entries(next.filters ?? applied)) if (value) query.set(param, value)
    const sort = next.sort ?? sortParam
    if (sort) query.set('sort', sort)
    if ((next.page ?? 1) > 1) query.set('page', String(next.page))
    setParams(query)
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    go({ search: typed.trim(), filters: Object.fromEntries(Object.entries(draft).map(([k, v]) => [k, v.trim()])) })
  }

  const described = filters.filter((f) => applied[f.param]).map((f) => `${f.label}: ${words(f, applied[f.param]!)}`)
  return (
    <>
      <Title>{title}</Title>
      <form role="search" onSubmit={submit} className="list-search" aria-label={`Search and filter ${title.toLowerCase()}`}>
        <span className="list-field list-words">
          <label htmlFor="list-search">Search {title.toLowerCase()}</label>
          <input id="list-search" type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
        </span>
        {filters.map((f) => (
          <span key={f.param} className="list-field">
            <label htmlFor={`filter-${f.param}`}>{f.label}</label>
            {f.options ? (
              <select id={`filter-${f.param}`} value={draft[f.param] ?? ''} onChange={(event) => setDraft({ ...draft, [f.param]: event.target.value })}>
                <option value="">Any</option>
                {f.options.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
              </select>
            ) : (
              <input id={`filter-${f.param}`} inputMode={f.numeric ? 'numeric' : undefined} size={f.size} autoComplete="off" value={draft[f.param] ?? ''}
                aria-describedby={f.hint ? `filter-${f.param}-hint` : undefined} onChange={(event) => setDraft({ ...draft, [f.param]: event.target.value })} />
            )}
            {f.hint && <span id={`filter-${f.param}-hint`} className="list-hint">{f.hint}</span>}
          </span>
        ))}
        <button type="submit">Search</button>
        {(search || described.length > 0) && <Link to={pathname}>Clear</Link>}
      </form>
      <Loaded state={list}>{(listData) => (listData.items.length === 0 ? <p>Nothing found.</p> : (
        <>
          <div className="list-table">
            <table>
              <caption>
                {listData.total === 1 ? '1 record' : `${listData.total} records`}{search && ` matching “${search}”`}
                {described.length > 0 && ` (${described.join(', ')})`}
              </caption>
              <thead>
                <tr>
                  {columns.map((column) => (
                    <SortHeader key={column.label} label={column.label} sort={column.sort} sorted={sorted}
                      onSort={(value) => go({ sort: value })} />
                  ))}
                </tr>
              </thead>
              <tbody>{listData.items.map((item) => <tr key={keyOf(item)}>{columns.map((c) => <td key={c.label} data-label={c.label}>{c.cell(item)}</td>)}</tr>)}</tbody>
            </table>
          </div>
          <Pager offset={(page - 1) * pageSize} limit={pageSize} total={listData.total} go={(offset) => go({ page: offset / pageSize + 1 })} />
        </>
      ))}</Loaded>
    </>
  )
}
