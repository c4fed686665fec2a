import { Link } from 'react-router'
import { api } from '../api/client'
import { awaiting, type Awaiting } from './reads'
import { domainOf } from '../lib/domains'
import type { Me } from '../session/me'
import { type LoadState } from '../hooks/use-load'
import { Alert, Loaded } from '../components/ui'
import { useUnread } from '../session/unread'
import { isOpen, titleOf, type Listed } from '../workflows'

/** The dashboard's read of the workflow instances: its page's size, the API's largest. */
const instancesRead = 200

export interface InReview extends Awaiting {
  /** Instances in review the caller may see, and how many of them were read. */
  readonly inReview: number
  readonly read: number
}

/**
 * The instances in review the caller may see (an admin: all of them), oldest first: one request in place
 * of the six queues the inbox reads, counting what awaits the caller and what is overdue.
 */
export async function inReview(me: Pick<Me, 'id' | 'personId'>): Promise<InReview> {
  const page = await api('get', '/api/workflows/instances', { query: { status: 'in_review', limit: instancesRead } })
  const ids = [me.id, ...(me.personId ? [me.personId] : [])]
  return { ...awaiting(page.items, ids, Date.now()), inReview: page.total, read: page.items.length }
}

const requests = (n: number) => (n === 1 ? '1 request' : `${n} requests`)

/** What awaits the caller's decision, by domain, each linked to the inbox filtered to it. */
export function AwaitingSection({ loaded }: { loaded: LoadState<InReview> }) {
  return (
    <section aria-labelledby="awaiting">
      <h2 id="awaiting">Awaiting your decision</h2>
      <Loaded state={loaded}>{(data) => (data.total === 0 ? <p>Nothing awaits your decision.</p> : (
        <>
          <p className="lead">
            <Link to="/approvals">{data.total === 1 ? '1 request awaits' : `${data.total} requests await`} your decision</Link>
            {data.overdue > 0 && <>, <strong className="overdue-text">{data.overdue} overdue</strong></>}
          </p>
          <ul className="counts">
            {[...data.byDomain].map(([key, count]) => (
              <li key={key}><Link to={`/approvals?domain=${key}`}>{domainOf(key)!.label}: {count}</Link></li>
            ))}
          </ul>
        </>
      ))}</Loaded>
      {loaded.state === 'ready' && loaded.data.inReview > loaded.data.read && (
        <p>Counted among the {requests(loaded.data.read)} longest in review, of {loaded.data.inReview}.</p>
      )}
    </section>
  )
}

/** The unread count the navigation already holds: no request of its own. */
export function NotificationsSection() {
  const unread = useUnread()
  return (
    <section aria-labelledby="notifications">
      <h2 id="notifications">Notifications</h2>
      {unread !== null && (unread === 0
        ? <p>No unread notifications. <Link to="/notifications">All notifications</Link></p>
        : <p><Link to="/notifications?unread=true">{unread === 1 ? '1 unread notification' : `${unread} unread notifications`}</Link></p>)}
    </section>
  )
}

/** The caller's open requests, newest first, each linked to it on /requests. */
export function RequestsSection({ loaded, planNames }: { loaded: LoadState<Listed>; planNames?: ReadonlyMap<string, string> }) {
  const open = loaded.state === 'ready' ? loaded.data.rows.filter((row) => isOpen(row.entity)) : []
  return (
    <section aria-labelledby="your-requests">
      <h2 id="your-requests">Your requests</h2>
      <Loaded state={loaded}>{(data) => (
        <>
          {data.failures.map((f) => <Alert key={f.domain.key}>{f.domain.label}: {f.error}</Alert>)}
          {open.length === 0 ? <p>No open requests.</p> : (
            <ul>
              {open.map(({ domain, entity }) => (
                <li key={entity._id}>
                  <Link to={`/requests?domain=${domain.key}&id=${encodeURIComponent(entity._id)}`}>{titleOf(domain, entity, planNames)}</Link> ({domain.label}): {entity.status.replace(/_/g, ' ')}
                </li>
              ))}
            </ul>
          )}
          <p><Link to="/requests">All your requests</Link></p>
        </>
      )}</Loaded>
    </section>
  )
}
