import { useRef, useState } from 'react'
import { ApiError } from '../../api/client'
import { fieldOf, opWords, valueText, writePermissions, type RecordRoute } from '../../lib/history'
import { Pager } from '../../pager'
import { useMe } from '../../shell'
import { Alert, Loading, messageOf, useLoad, when } from '../../ui'
import { readHistory, readRecord, restoreVersion, type HistoryEntry, type Restored } from './routes'

/** Entries a page of the panel: a record's history can run to hundreds. */
const pageSize = 10

type Outcome = { readonly ok: boolean; readonly text: string } | null

interface Props<B extends RecordRoute> {
  /** The record's resource route, e.g. /api/courses. */
  readonly base: B
  /** The record as the page shows it: a restore is conditional on its version. */
  readonly record: { readonly _id: string; readonly _version: number }
  /** The record as the server now has it (restored, or read again after a conflict), for the page to show. */
  readonly onRecord: (record: Restored<B>) => void
}

function Changes({ entry }: { entry: HistoryEntry }) {
  if (entry.changes.length === 0) return <p>No field changed.</p>
  return (
    <table>
      <caption>{`Changes in version ${entry.version}`}</caption>
      <thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
      <tbody>
        {entry.changes.map((change) => (
          <tr key={change.path}>
            <th scope="row">{fieldOf(change.path)}</th>
            <td>{valueText(change.before, 'before' in change)}</td>
            <td>{valueText(change.after, 'after' in change)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function Entry({ entry, restore, busy }: { entry: HistoryEntry; restore?: () => void; busy: boolean }) {
  return (
    <li>
      <h3>{`Version ${entry.version}: ${opWords[entry.op]}`}</h3>
      <p>
        By {entry.actor_name ?? entry.actor} on <time dateTime={entry.at}>{when(entry.at)}</time>, through {entry.via}
        {entry.restored_from !== undefined && `, restoring version ${entry.restored_from}`}.
      </p>
      <Changes entry={entry} />
      {restore && <p><button type="button" disabled={busy} onClick={restore}>{`Restore version ${entry.version}`}</button></p>}
    </li>
  )
}

/**
 * A record's History panel (DESIGN 6.9): its changes newest first, who made each, when and through
 * what, and "Restore version N" where the caller holds the resource's write permission. Neither a
 * deletion nor the version the record is at now is offered: restoring those writes nothing. A restore
 * refused because the record changed since the page read it offers "Reload the record".
 */
export function HistoryPanel<B extends RecordRoute>({ base, record, onRecord }: Props<B>) {
  const me = useMe()
  const mayRestore = (me.permissions as readonly string[]).includes(writePermissions[base])
  const [offset, setOffset] = useState(0)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const [busy, setBusy] = useState(false)
  const [stale, setStale] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  // A new version of the record (saved, restored) is a new first entry: the history is read again.
  const page = useLoad(() => readHistory(base, record._id, { limit: pageSize, offset }), [base, record._id, record._version, offset])

  /** Restores or reloads the record shown; on success the reader is brought back to the top of its history, read again. */
  async function act(change: () => Promise<string>) {
    setBusy(true)
    setOutcome(null)
    setStale(false)
    try {
      const text = await change()
      setOffset(0)
      setOutcome({ ok: true, text })
      heading.current?.focus()
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) })
      // Changed by someone else since the page read it: offered again as it is now.
      setStale(error instanceof ApiError && error.code === 'ADKS_VERSION_CONFLICT')
    } finally {
      setBusy(false)
    }
  }

  const restore = (version: number) => act(async () => {
    const restored = await restoreVersion(base, record._id, version, record._version)
    onRecord(restored)
    return `Restored version ${version}: the record is now version ${restored._version}.`
  })

  const reload = () => act(async () => {
    const current = await readRecord(base, record._id)
    onRecord(current)
    return `Reloaded: the record is at version ${current._version}.`
  })

  return (
    <section aria-labelledby="history-heading" className="history">
      <h2 id="history-heading" ref={heading} tabIndex={-1}>History</h2>
      {outcome && (outcome.ok ? <p role="status">{outcome.text}</p> : <Alert>{outcome.text}</Alert>)}
      {stale && <p><button type="button" disabled={busy} onClick={() => { void reload() }}>Reload the record</button></p>}
      {page.state === 'loading' && <Loading />}
      {page.state === 'failed' && <Alert>{page.error}</Alert>}
      {page.state === 'ready' && (page.data.items.length === 0 ? <p>No changes are recorded.</p> : (
        <>
          <p>{page.data.total === 1 ? '1 change' : `${page.data.total} changes`}, newest first.</p>
          <ol className="history-entries">
            {page.data.items.map((entry) => {
              const restorable = mayRestore && entry.op !== 'delete' && entry.version !== record._version
              return <Entry key={entry.version} entry={entry} busy={busy} {...(restorable ? { restore: () => { void restore(entry.version) } } : {})} />
            })}
          </ol>
          <Pager offset={offset} limit={pageSize} total={page.data.total} go={setOffset} />
        </>
      ))}
    </section>
  )
}
