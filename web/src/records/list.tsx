import { useState, type FormEvent } from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import { useLoad } from '../hooks/use-load'
import { Alert, Loaded, Title } from '../components/ui'
import { adminClasses, labelOf, listRecords, listRoutes, managed, words, type Managed, type Row } from './catalog'
import { recordsPath } from '../components/links'

const pageSize = 25

function cell(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (Array.isArray(value)) return value.map(cell).join(', ')
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** /admin/records/:class: the class's records through its list route, searched, sorted and paged by the server. */
export default function RecordsList() {
  const name = useParams().class ?? ''
  const [params, setParams] = useSearchParams()
  const search = params.get('search') ?? ''
  const sort = params.get('sort') ?? ''
  const offset = Math.max(0, Number(params.get('offset')) || 0)
  const [typed, setTyped] = useState(search)

  const loaded = useLoad(async () => {
    const all = await adminClasses()
    const cls = managed(all, name)
    if (!cls) return { cls, all, page: undefined }
    return { cls, all, page: await listRecords(cls, { limit: pageSize, offset, sort, search }) }
  }, [name, search, sort, offset])

  function go(changes: Record<string, string | number | undefined>) {
    const next = new URLSearchParams(params)
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === '' || value === 0) next.delete(key)
      else next.set(key, String(value))
    }
    setParams(next)
  }

  function find(event: FormEvent) {
    event.preventDefault()
    go({ search: typed.trim(), offset: undefined })
  }

  return (
    <>
      <Title>{`${name} records`}</Title>
      <Loaded state={loaded}>{(data) => !data.cls && <Alert>{`${name} has no record route these pages can manage.`}</Alert>}</Loaded>
      {loaded.state === 'ready' && loaded.data.cls && loaded.data.page && (
        <>
          <NewLinks cls={loaded.data.cls} all={loaded.data.all.map((c) => managed(loaded.data.all, c.name)).filter((c) => c !== undefined)} />
          {listRoutes[loaded.data.cls.path].search && (
            <form role="search" onSubmit={find} className="records-search">
              <label htmlFor="records-search">Search</label>
              <input id="records-search" type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
              <button type="submit">Search</button>
            </form>
          )}
          <Records cls={loaded.data.cls} rows={loaded.data.page.items} sort={sort} onSort={(s) => go({ sort: s, offset: undefined })} />
          <Paging offset={offset} total={loaded.data.page.total} shown={loaded.data.page.items.length} onPage={(o) => go({ offset: o })} />
        </>
      )}
    </>
  )
}

/** The concrete classes at and beneath `cls`, by the subclasses /api/schemas lists. */
function concreteUnder(cls: Managed, all: readonly Managed[]): Managed[] {
  if (!cls.abstract) return [cls]
  return (cls.subclasses ?? []).flatMap((name) => {
    const sub = all.find((c) => c.name === name)
    return sub ? concreteUnder(sub, all) : []
  })
}

/** "New", or for an abstract class one link per concrete class beneath it. */
function NewLinks({ cls, all }: { cls: Managed; all: readonly Managed[] }) {
  if (!cls.abstract) return <p><Link className="button" to={`${recordsPath(cls.name)}/new`}>New</Link></p>
  const concrete = concreteUnder(cls, all)
  return (
    <ul className="records-new">
      {concrete.map((c) => <li key={c.name}><Link to={`${recordsPath(c.name)}/new`}>{`New ${c.name}`}</Link></li>)}
    </ul>
  )
}

function Records({ cls, rows, sort, onSort }: { cls: Managed; rows: readonly Row[]; sort: string; onSort: (sort: string) => void }) {
  const fields = listRoutes[cls.path].sort
  if (rows.length === 0) return <p>No records match.</p>
  return (
    <table>
      <caption>{`${cls.name} records`}</caption>
      <thead>
        <tr>
          <th scope="col">Record</th>
          {fields.map((field) => {
            const state = sort === field ? 'ascending' : sort === `-${field}` ? 'descending' : undefined
            return (
              <th key={field} scope="col" aria-sort={state}>
                <button type="button" className="sort" onClick={() => onSort(state === 'ascending' ? `-${field}` : field)}>
                  {words(field)}<span aria-hidden="true">{state === 'ascending' ? ' ▲' : state === 'descending' ? ' ▼' : ''}</span>
                </button>
              </th>
            )
          })}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row._id}>
            <td><Link to={recordsPath(cls.name, row._id)}>{labelOf(row)}</Link></td>
            {fields.map((field) => <td key={field}>{cell(row[field])}</td>)}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function Paging({ offset, total, shown, onPage }: { offset: number; total: number; shown: number; onPage: (offset: number) => void }) {
  return (
    <nav aria-label="Pages" className="actions">
      <button type="button" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - pageSize))}>Previous</button>
      <p role="status">{shown === 0 ? `None of ${total}` : `${offset + 1}–${offset + shown} of ${total}`}</p>
      <button type="button" disabled={offset + shown >= total} onClick={() => onPage(offset + pageSize)}>Next</button>
    </nav>
  )
}
