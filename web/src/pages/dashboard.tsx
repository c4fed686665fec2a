import { Link } from 'react-router'
import { domains } from '../lib/inbox'
import { useMe } from '../shell'
import { Alert, Loading, Title, useLoad } from '../ui'
import { useUnread } from '../unread'
import { fetchQueues } from './queues'
import { isOpen, ownRequests, titleOf } from './student/own-requests'

export default function Dashboard() {
  const me = useMe()
  const queues = useLoad(() => fetchQueues(1), [])
  const requests = useLoad(() => ownRequests(me), [me.id])
  // The navigation's count: the dashboard adds no request for it.
  const unread = useUnread()
  const open = requests.state === 'ready' ? requests.data.rows.filter((row) => isOpen(row.entity)) : []
  const answered = queues.state === 'ready' ? queues.data.filter((q) => !('error' in q)) : []
  const waiting = answered.reduce((sum, q) => sum + ('total' in q ? q.total : 0), 0)
  return (
    <>
      <Title>Dashboard</Title>
      <section aria-labelledby="awaiting">
        <h2 id="awaiting">Awaiting your decision</h2>
        {queues.state === 'loading' && <Loading />}
        {queues.state === 'ready' && (
          waiting === 0 ? <p>Nothing awaits your decision.</p> : (
            <>
              <p><Link to="/approvals">{waiting === 1 ? '1 request awaits' : `${waiting} requests await`} your decision</Link></p>
              <ul>
                {answered.map((q) => ('total' in q && q.total > 0 ? <li key={q.domain}>{domains.find((d) => d.key === q.domain)!.label}: {q.total}</li> : null))}
              </ul>
            </>
          )
        )}
      </section>
      <section aria-labelledby="notifications">
        <h2 id="notifications">Notifications</h2>
        {unread !== null && (unread === 0
          ? <p>No unread notifications. <Link to="/notifications">All notifications</Link></p>
          : <p><Link to="/notifications?unread=true">{unread === 1 ? '1 unread notification' : `${unread} unread notifications`}</Link></p>)}
      </section>
      <section aria-labelledby="your-requests">
        <h2 id="your-requests">Your requests</h2>
        {requests.state === 'loading' && <Loading />}
        {requests.state === 'failed' && <Alert>{requests.error}</Alert>}
        {requests.state === 'ready' && (
          <>
            {requests.data.failures.map((f) => <Alert key={f.domain.key}>{f.domain.label}: {f.error}</Alert>)}
            {open.length === 0 ? <p>No open requests.</p> : (
              <ul>
                {open.map(({ domain, entity }) => (
                  <li key={entity._id}>
                    <Link to={`/requests?domain=${domain.key}&id=${encodeURIComponent(entity._id)}`}>{titleOf(domain, entity)}</Link> ({domain.label}): {entity.status.replace(/_/g, ' ')}
                  </li>
                ))}
              </ul>
            )}
            <p><Link to="/requests">All your requests</Link></p>
          </>
        )}
      </section>
      {me.role === 'student' && (
        <section aria-labelledby="studies">
          <h2 id="studies">Your studies</h2>
          {me.personId
            ? (
              <ul>
                <li><Link to={`/students/${encodeURIComponent(me.personId)}/progress`}>Your degree progress</Link></li>
                <li><Link to={`/students/${encodeURIComponent(me.personId)}/transcript`}>Your transcript</Link></li>
                <li><Link to={`/students/${encodeURIComponent(me.personId)}/plans`}>Your plans</Link></li>
              </ul>
            )
            : <p>No student record is linked to your account yet: the department links it by your campus id or email.</p>}
        </section>
      )}
    </>
  )
}
