import { useState } from 'react'
import { Link } from 'react-router'
import { domainOf, domains, mergeInbox } from '../lib/inbox'
import { Alert, Loading, Title, useLoad } from '../ui'
import { fetchQueues } from './queues'

/** Rows per queue: the inbox shows the first page of each (the API's largest). */
const pageSize = 200

function date(value: string | undefined): string {
  return value ? new Date(value).toLocaleDateString() : '—'
}

export default function Approvals() {
  const inbox = useLoad(async () => mergeInbox(await fetchQueues(pageSize)), [])
  const [filter, setFilter] = useState('')
  return (
    <>
      <Title>Approvals</Title>
      <label htmlFor="domain-filter">Domain</label>{' '}
      <select id="domain-filter" value={filter} onChange={(event) => setFilter(event.target.value)}>
        <option value="">All domains</option>
        {domains.map((d) => <option key={d.key} value={d.key}>{d.label}</option>)}
      </select>
      {inbox.state === 'loading' && <Loading />}
      {inbox.state === 'failed' && <Alert>{inbox.error}</Alert>}
      {inbox.state === 'ready' && (
        <>
          {inbox.data.failures.map((f) => <Alert key={f.domain}>{domainOf(f.domain)!.label}: {f.error}</Alert>)}
          {inbox.data.rows.length === 0 ? <p>Nothing awaits your decision.</p> : (
            <table>
              <caption>Requests awaiting your decision</caption>
              <thead>
                <tr><th scope="col">Domain</th><th scope="col">Title</th><th scope="col">Submitter</th><th scope="col">Stage</th><th scope="col">Submitted</th><th scope="col">Due</th></tr>
              </thead>
              <tbody>
                {inbox.data.rows.filter((row) => !filter || row.domain === filter).map((row) => (
                  <tr key={`${row.domain}:${row.id}`} className={row.overdue ? 'overdue' : undefined}>
                    <td>{domainOf(row.domain)!.label}</td>
                    <td><Link to={`/approvals/${row.domain}/${encodeURIComponent(row.id)}`}>{row.title}</Link></td>
                    <td>{row.submitter_name ?? row.submitter}</td>
                    <td>{row.stage}</td>
                    <td>{date(row.submitted_at)}</td>
                    <td>{date(row.due_at)}{row.overdue && <strong> (overdue)</strong>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {inbox.data.more > 0 && <p>{inbox.data.more} more are not shown; decide on these first.</p>}
        </>
      )}
    </>
  )
}
