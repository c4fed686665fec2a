import { useState, type FormEvent } from 'react'
import { api } from '../api/client'
import type { components, operations } from '../api/schema'
import { ScrollRegion } from '../components/scroll-region'
import { useLoad } from '../hooks/use-load'
import { when } from '../lib/dates'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Title } from '../components/ui'
import { Pager } from '../components/pager'

type Filters = NonNullable<operations['listAdminAudit']['parameters']['query']>
type ResourceType = components['schemas']['AuditEntry']['resourceType']
type Report = components['schemas']['AuditChainReport']
const resourceTypes = ['enrollment', 'grade', 'transcript', 'degree-progress', 'audit-log', 'user'] as const satisfies readonly ResourceType[]
const pageSize = 50

/** The chain check's verdict, in the API's terms. */
function Verdict({ report }: { report: Report }) {
  const head = report.head ? ` The last entry that checked out is ${report.head.seq}, hash ${report.head.hash}.` : ''
  return report.intact
    ? <p role="status" data-testid="chain-verdict">The chain is intact: {report.checked} {report.checked === 1 ? 'entry' : 'entries'} checked.{head}</p>
    : <Alert>The chain is broken at entry {report.firstBrokenAt ?? '?'}{report.reason ? `: ${report.reason}` : ''} ({report.checked} checked before it).{head}</Alert>
}

function ChainCheck() {
  const [outcome, setOutcome] = useState<{ report: Report } | { error: string } | null>(null)
  const [busy, setBusy] = useState(false)
  async function check() {
    setBusy(true)
    setOutcome(null)
    try {
      setOutcome({ report: await api('get', '/api/admin/audit/verify') })
    } catch (error) {
      setOutcome({ error: messageOf(error) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <section aria-labelledby="chain">
      <h2 id="chain">Hash chain</h2>
      <p>Each entry carries the hash of the one before; the check walks the whole log.</p>
      <button type="button" disabled={busy} onClick={() => { void check() }}>Check the chain</button>
      {busy && <p role="status">Checking…</p>}
      {outcome && ('error' in outcome ? <Alert>{outcome.error}</Alert> : <Verdict report={outcome.report} />)}
    </section>
  )
}

export default function Audit() {
  const [draft, setDraft] = useState<Filters>({})
  const [filters, setFilters] = useState<Filters>({})
  const [offset, setOffset] = useState(0)
  const entries = useLoad(() => api('get', '/api/admin/audit', { query: { ...filters, limit: pageSize, offset } }), [filters, offset])

  function apply(event: FormEvent) {
    event.preventDefault()
    setFilters(Object.fromEntries(Object.entries(draft).filter(([, value]) => value !== '' && value !== undefined)))
    setOffset(0)
  }
  const field = (name: 'userId' | 'resourceId' | 'from' | 'to', label: string, type = 'text') => (
    <>
      <label htmlFor={`audit-${name}`}>{label}</label>
      <input id={`audit-${name}`} type={type} value={draft[name] ?? ''} onChange={(event) => setDraft({ ...draft, [name]: event.target.value })} />
    </>
  )

  return (
    <>
      <Title>Audit log</Title>
      <ChainCheck />
      <section aria-labelledby="entries">
        <h2 id="entries">Entries</h2>
        <form onSubmit={apply} aria-label="Filter entries" className="filters">
          {field('userId', 'User id')}
          <label htmlFor="audit-resourceType">Resource type</label>
          <select id="audit-resourceType" value={draft.resourceType ?? ''} onChange={(event) => setDraft({ ...draft, resourceType: (event.target.value || undefined) as ResourceType | undefined })}>
            <option value="">Any</option>
            {resourceTypes.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
          {field('resourceId', 'Record id')}
          {field('from', 'From (date)', 'date')}
          {field('to', 'To (date)', 'date')}
          <button type="submit">Filter</button>
        </form>
        <Loaded state={entries}>{(data) => (data.items.length === 0 ? <p>No entries match.</p> : (
          <>
            <ScrollRegion label={`${data.total} ${data.total === 1 ? 'entry' : 'entries'}, newest first`}>
              <table>
                <caption>{data.total} {data.total === 1 ? 'entry' : 'entries'}, newest first</caption>
                <thead>
                  <tr><th scope="col">#</th><th scope="col">Time</th><th scope="col">User</th><th scope="col">Role</th><th scope="col">Action</th><th scope="col">Resource</th><th scope="col">Record</th><th scope="col">Status</th><th scope="col">Basis</th><th scope="col">Route</th></tr>
                </thead>
                <tbody>
                  {data.items.map((entry) => (
                    <tr key={entry.seq}>
                      <td>{entry.seq}</td>
                      <td>{when(entry.timestamp)}</td>
                      <td>{entry.userId ?? '—'}</td>
                      <td>{entry.role ?? '—'}</td>
                      <td>{entry.action}</td>
                      <td>{entry.resourceType}</td>
                      <td>{entry.resourceId ?? '—'}</td>
                      <td>{entry.statusCode}{entry.reason && `: ${entry.reason}`}</td>
                      <td>{entry.basis ?? '—'}</td>
                      <td><code>{entry.method} {entry.route}</code></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
            <Pager offset={data.offset} limit={data.limit} total={data.total} go={setOffset} />
          </>
        ))}</Loaded>
      </section>
    </>
  )
}
