import { Link, useSearchParams } from 'react-router'
import { domainOf, domains } from '../lib/domains'
import { mergeInbox } from './inbox'
import { inboxTitle } from './titles'
import { useLoad } from '../hooks/use-load'
import { Alert, Loaded, Title } from '../components/ui'
import { fetchQueues } from './queues'
import { day } from '../lib/dates'

/** Rows per queue: the inbox shows the first page of each (the API's largest). */
const pageSize = 200

export default function Approvals() {
  const inbox = useLoad(async () => mergeInbox(await fetchQueues(pageSize)), [])
  // The filter is in the address, so the dashboard's counts link to one domain and a link shares it.
  const [params, setParams] = useSearchParams()
  const filter = domainOf(params.get('domain') ?? '')?.key ?? ''
  const choose = (key: string) => setParams(key ? { domain: key } : {}, { replace: true })
  const rows = inbox.state === 'ready' ? inbox.data.rows.filter((row) => !filter || row.domain === filter) : []
  return (
    <>
      <Title>Approvals</Title>
      <div className="filters">
        <label htmlFor="domain-filter">Domain</label>
        <select id="domain-filter" value={filter} onChange={(event) => choose(event.target.value)}>
          <option value="">All domains</option>
          {domains.map((d) => <option key={d.key} value={d.key}>{d.label}</option>)}
        </select>
      </div>
      <Loaded state={inbox}>{(inboxData) => (
        <>
          {inboxData.failures.map((f) => <Alert key={f.domain}>{domainOf(f.domain)!.label}: {f.error}</Alert>)}
          {rows.length === 0 ? <p>{filter ? `No ${domainOf(filter)!.label.toLowerCase()} request awaits your decision.` : 'Nothing awaits your decision.'}</p> : (
            // Below 40rem each row is a block whose cells carry their column's name (style.css, table.stack).
            <table className="stack inbox">
              <caption>Requests awaiting your decision</caption>
              <thead>
                <tr><th scope="col">Domain</th><th scope="col">Title</th><th scope="col">Submitter</th><th scope="col">Stage</th><th scope="col">Submitted</th><th scope="col">Due</th></tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={`${row.domain}:${row.id}`} className={row.overdue ? 'overdue' : undefined}>
                    <td data-label="Domain">{domainOf(row.domain)!.label}</td>
                    <td className="title"><Link to={`/approvals/${row.domain}/${encodeURIComponent(row.id)}`}>{inboxTitle(row)}</Link></td>
                    <td data-label="Submitter">{row.submitter_name ?? row.submitter}</td>
                    <td data-label="Stage">{row.stage}</td>
                    <td data-label="Submitted">{day(row.submitted_at)}</td>
                    <td data-label="Due">{day(row.due_at)}{row.overdue && <strong> (overdue)</strong>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {inboxData.more > 0 && <p>{inboxData.more} more are not shown; decide on these first.</p>}
        </>
      )}</Loaded>
    </>
  )
}
