import { useRef, useState, type FormEvent } from 'react'
import { useFollowing } from '../hooks/use-following'
import { Link, useSearchParams } from 'react-router'
import { api, type Answer } from '../api/client'
import type { operations } from '../api/schema'
import { Pager } from '../components/pager'
import { useLoad } from '../hooks/use-load'
import { when } from '../lib/dates'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Title } from '../components/ui'
import { recordsPath } from '../components/links'

type Item = Answer<operations['listAdminTrash']>['items'][number]
type Outcome = { readonly ok: boolean; readonly text: string; readonly restored?: Item } | null

const pageSize = 25

/** The classes whose records can be deleted (those kept in a collection of their own), for the type filter. */
async function recordClasses(): Promise<string[]> {
  const { items } = await api('get', '/api/schemas')
  return items.filter((c) => c.kind === 'Class' && c.collection !== undefined).map((c) => c.name)
}

const labelOf = (item: Item) => (item.title ? `${item.title} (${item.id})` : item.id)

function Filter({ type, choose }: { type: string; choose: (type: string) => void }) {
  const classes = useLoad(recordClasses, [])
  // A link to the page (the administration index's) clears the filter, and the field with it.
  const [chosen, setChosen] = useFollowing(type)

  function submit(event: FormEvent) {
    event.preventDefault()
    choose(chosen)
  }

  if (classes.state === 'failed') return <Alert>{classes.error}</Alert>
  return (
    <form onSubmit={submit} className="filters" aria-label="Filter the trash">
      <div>
        <label htmlFor="trash-type">Type</label>
        <select id="trash-type" value={chosen} onChange={(event) => setChosen(event.target.value)}>
          <option value="">All types</option>
          {classes.state === 'ready' && classes.data.map((name) => <option key={name} value={name}>{name}</option>)}
        </select>
      </div>
      <button type="submit">Filter</button>
    </form>
  )
}

function Deleted({ items, restore, busy }: { items: readonly Item[]; restore: (item: Item) => void; busy: boolean }) {
  return (
    <tbody>
      {items.map((item) => (
        <tr key={item.id}>
          <th scope="row">{item.title ?? item.id}</th>
          <td>{item.type}</td>
          <td className="record-id">{item.id}</td>
          <td><time dateTime={item.deleted_at}>{when(item.deleted_at)}</time></td>
          <td>{item.deleted_by_name ?? item.deleted_by}</td>
          <td>{item.via}</td>
          <td>
            <button type="button" disabled={busy} onClick={() => restore(item)}>
              Restore<span className="visually-hidden"> {labelOf(item)}</span>
            </button>
          </td>
        </tr>
      ))}
    </tbody>
  )
}

/** /admin/trash: deleted records, newest deletion first, each brought back under its id by "Restore" (admins only, as the API decides). */
export default function Trash() {
  const [params, setParams] = useSearchParams()
  const type = params.get('type') ?? ''
  const offset = Math.max(0, Number(params.get('offset')) || 0)
  const [reads, setReads] = useState(0)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const [busy, setBusy] = useState(false)
  const told = useRef<HTMLDivElement>(null)
  const trash = useLoad(() => api('get', '/api/admin/trash', { query: { limit: pageSize, offset, ...(type ? { type } : {}) } }), [type, offset], reads)

  function go(next: { type?: string; offset?: number }) {
    const query = new URLSearchParams()
    const chosen = next.type ?? type
    if (chosen) query.set('type', chosen)
    if (next.offset) query.set('offset', String(next.offset))
    setParams(query)
  }

  async function restore(item: Item) {
    setBusy(true)
    setOutcome(null)
    try {
      const { message } = await api('post', '/api/admin/trash/{id}/restore', { path: { id: item.id } })
      setOutcome({ ok: true, text: message, restored: item })
      setReads((n) => n + 1)
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) })
    } finally {
      setBusy(false)
      // The pressed button may be gone with its row: the reader is taken to what happened instead.
      told.current?.focus()
    }
  }

  return (
    <>
      <Title>Trash</Title>
      <p>Deleted records, newest deletion first. A restored record comes back under its own id.</p>
      <Filter type={type} choose={(chosen) => go({ type: chosen, offset: 0 })} />
      <div ref={told} tabIndex={-1}>
        {outcome && (outcome.ok ? (
          <p role="status">
            {outcome.text}. {outcome.restored && <Link to={recordsPath(outcome.restored.type, outcome.restored.id)}>{`Open ${labelOf(outcome.restored)}`}</Link>}
          </p>
        ) : <Alert>{outcome.text}</Alert>)}
      </div>
      <Loaded state={trash}>{(data) => (data.items.length === 0 ? <p>The trash is empty{type && ` of ${type} records`}.</p> : (
        <>
          <table>
            <caption>{`${data.total} deleted ${data.total === 1 ? 'record' : 'records'}${type ? ` of type ${type}` : ''}, newest first`}</caption>
            <thead>
              <tr><th scope="col">Record</th><th scope="col">Type</th><th scope="col">Id</th><th scope="col">Deleted</th><th scope="col">Deleted by</th><th scope="col">Through</th><th scope="col">Restore</th></tr>
            </thead>
            <Deleted items={data.items} restore={(item) => { void restore(item) }} busy={busy} />
          </table>
          <Pager offset={offset} limit={pageSize} total={data.total} go={(next) => go({ offset: next })} />
        </>
      ))}</Loaded>
    </>
  )
}
