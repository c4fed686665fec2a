import { useId, useRef, useState } from 'react'
import { ApiError } from '../api/client'
import { fieldOf, opWords, valueText, writePermissions, type RecordRoute } from './changes'
import { Pager } from '../components/pager'
import { useMe } from '../session/me'
import { useLoad } from '../hooks/use-load'
import { when } from '../lib/dates'
import { messageOf } from '../lib/errors'
import { Alert, Loaded } from '../components/ui'
import { readHistory, readRecord, restoreVersion, type HistoryEntry, type HistorySource, type Restored } from './routes'

/** Entries a page of the panel: a record's history can run to hundreds. */
const pageSize = 10

type Outcome = { readonly ok: boolean; readonly text: string } | null
type Level = 2 | 3

/** What a restore needs: only record routes have one, so only their pages pass it. */
interface Restore<B extends RecordRoute> {
  /** The record's resource route, e.g. /api/courses: its write permission decides whether restore is offered. */
  readonly base: B
  /** The record as the page shows it: a restore is conditional on its version. */
  readonly record: { readonly _id: string; readonly _version: number }
  /** The record as the server now has it (restored, or read again after a conflict), for the page to show. */
  readonly onRecord: (record: Restored<B>) => void
}

interface Props<B extends RecordRoute> {
  /** The history to read: its route and path parameters. */
  readonly source: HistorySource
  /** The heading, hence the region's name: "History", or "History of <plan>" where a page has several panels. */
  readonly title?: string
  /** The heading's level where the panel sits under another h2; its entries are one level below. */
  readonly level?: Level
  /** The region's id, for a disclosure button's aria-controls. */
  readonly id?: string
  /** The version the page shows of a read-only record, when it knows it: a new one reads the history again. */
  readonly version?: number
  /** Offered only where the record has a restore route; without it the panel is read-only. */
  readonly restore?: Restore<B>
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

function Entry({ entry, level, restore, busy }: { entry: HistoryEntry; level: Level; restore?: () => void; busy: boolean }) {
  const Heading = level === 2 ? 'h3' : 'h4'
  return (
    <li>
      <Heading>{`Version ${entry.version}: ${opWords[entry.op]}`}</Heading>
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
 * A record's History panel (docs/history.md): its changes newest first, who made each, when and through
 * what, and, given `restore`, "Restore version N" where the caller holds the resource's write
 * permission. Neither a deletion nor the version the record is at now is offered: restoring those
 * writes nothing. A restore refused because the record changed since the page read it offers "Reload
 * the record". Histories without a restore route (plans, enrollments, workflow entities) are read-only.
 */
export function HistoryPanel<B extends RecordRoute>({ source, title = 'History', level = 2, id, version, restore }: Props<B>) {
  const me = useMe()
  const mayRestore = restore !== undefined && (me.permissions as readonly string[]).includes(writePermissions[restore.base])
  const shown = restore ? restore.record._version : version
  const headingId = useId()
  const [offset, setOffset] = useState(0)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const [busy, setBusy] = useState(false)
  const [stale, setStale] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  const Heading = level === 2 ? 'h2' : 'h3'
  // A new version of the record (saved, restored) is a new first entry: the history is read again. The
  // source is a new object at each render of the page, so it is compared, and read, by value.
  const sourceKey = JSON.stringify(source)
  const page = useLoad(() => readHistory(JSON.parse(sourceKey) as HistorySource, { limit: pageSize, offset }), [sourceKey, offset], shown)

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

  const restoreTo = (target: number) => act(async () => {
    const { base, record, onRecord } = restore!
    const restored = await restoreVersion(base, record._id, target, record._version)
    onRecord(restored)
    return `Restored version ${target}: the record is now version ${restored._version}.`
  })

  const reload = () => act(async () => {
    const { base, record, onRecord } = restore!
    const current = await readRecord(base, record._id)
    onRecord(current)
    return `Reloaded: the record is at version ${current._version}.`
  })

  return (
    <section aria-labelledby={headingId} className="history" id={id}>
      <Heading id={headingId} ref={heading} tabIndex={-1}>{title}</Heading>
      {outcome && (outcome.ok ? <p role="status">{outcome.text}</p> : <Alert>{outcome.text}</Alert>)}
      {stale && <p><button type="button" disabled={busy} onClick={() => { void reload() }}>Reload the record</button></p>}
      <Loaded state={page}>{(data) => (data.items.length === 0 ? <p>No changes are recorded.</p> : (
        <>
          <p>{data.total === 1 ? '1 change' : `${data.total} changes`}, newest first.</p>
          <ol className="history-entries">
            {data.items.map((entry) => {
              const restorable = mayRestore && entry.op !== 'delete' && entry.version !== shown
              return <Entry key={entry.version} entry={entry} level={level} busy={busy} {...(restorable ? { restore: () => { void restoreTo(entry.version) } } : {})} />
            })}
          </ol>
          <Pager offset={offset} limit={pageSize} total={data.total} go={setOffset} />
        </>
      ))}</Loaded>
    </section>
  )
}
