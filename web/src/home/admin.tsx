import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { api, type Answer } from '../api/client'
import type { components, paths } from '../api/schema'
import { runConcerns } from './reads'
import type { Me } from '../session/me'
import { useLoad, type LoadState } from '../hooks/use-load'
import { when } from '../lib/dates'
import { messageOf } from '../lib/errors'
import { Loading } from '../components/ui'
import { ownRequests } from '../workflows'
import { AwaitingSection, inReview, NotificationsSection, RequestsSection, type InReview } from './sections'

type Backups = components['schemas']['BackupList']
type Settled<T> = { ok: true; value: T } | { ok: false; error: string }

const settle = <T,>(promise: Promise<T>): Promise<Settled<T>> => promise.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error: messageOf(error) }))

/** One line of the attention list: a concern is marked, and what is fine is said plainly. */
interface Line { readonly key: string; readonly concern: boolean; readonly text: ReactNode }

function jobLines(jobs: Settled<{ items: components['schemas']['Job'][]; total: number }>): Line[] {
  if (!jobs.ok) return [{ key: 'jobs', concern: true, text: <>Jobs could not be read: {jobs.error}</> }]
  const { total, items: [newest] } = jobs.value
  if (total === 0) return [{ key: 'jobs', concern: false, text: 'No failed jobs.' }]
  return [{
    key: 'jobs', concern: true,
    text: <><Link to="/admin/jobs?state=failed">{total === 1 ? '1 failed job' : `${total} failed jobs`}</Link>{newest && <>; the newest, {newest.name} in {newest.queue}{newest.error ? `: ${newest.error}` : ''}</>}</>,
  }]
}

type Run = Answer<paths['/api/campus-sync/runs']['get']>['items'][number]

function syncLines(runs: Settled<Run[]>): Line[] {
  if (!runs.ok) return [{ key: 'sync', concern: true, text: <>Campus sync runs could not be read: {runs.error}</> }]
  if (runs.value.length === 0) return [{ key: 'sync', concern: false, text: 'No campus sync has run yet.' }]
  const concerns = runConcerns(runs.value)
  if (concerns.length === 0) return [{ key: 'sync', concern: false, text: 'The latest campus sync runs went through.' }]
  return concerns.map(({ run, problem }) => ({
    key: `sync-${run._id}`, concern: true,
    text: <><Link to="/admin/sync">The {run.kind} sync of {when(run.started_at)} {problem}</Link>{run.message ? `: ${run.message}` : ''}</>,
  }))
}

function overdueLines(review: LoadState<InReview>): Line[] {
  if (review.state === 'failed') return [{ key: 'overdue', concern: true, text: <>Requests in review could not be read: {review.error}</> }]
  if (review.state !== 'ready') return []
  const n = review.data.overdueAnywhere
  if (n === 0) return [{ key: 'overdue', concern: false, text: 'No request in review is overdue.' }]
  return [{ key: 'overdue', concern: true, text: <><Link to="/approvals">{n === 1 ? '1 request in review is overdue' : `${n} requests in review are overdue`}</Link>: past twice its due time, a stage asks the department's admins too</> }]
}

function backupLines(backups: Settled<Backups>): Line[] {
  if (!backups.ok) return [{ key: 'backup', concern: true, text: <>Backups could not be read: {backups.error}</> }]
  const [last] = backups.value.items
  if (!last) return [{ key: 'backup', concern: true, text: <><Link to="/admin/backups">No backup yet</Link></> }]
  const made = <time dateTime={last.created_at}>{when(last.created_at)}</time>
  if (last.verify_error) return [{ key: 'backup', concern: true, text: <><Link to="/admin/backups">The last backup</Link>, of {made}, was refused by its last verification: {last.verify_error}</> }]
  const every = backups.value.settings.every
  const stale = every > 0 && Date.now() - Date.parse(last.created_at) > 2 * every
  return [{
    key: 'backup', concern: stale,
    text: <><Link to="/admin/backups">Last backup</Link>: {made}{stale ? ', older than two scheduled backups' : ''}{last.verified_at ? <>, verified <time dateTime={last.verified_at}>{when(last.verified_at)}</time></> : ', not verified'}.</>,
  }]
}

/** What an admin should look at first: failed jobs, sync runs gone wrong, overdue requests, the last backup. */
function Attention({ review }: { review: LoadState<InReview> }) {
  const checks = useLoad(() => Promise.all([
    settle(api('get', '/api/admin/jobs', { query: { state: 'failed', limit: 1 } })),
    settle(api('get', '/api/campus-sync/runs', { query: { limit: 10 } }).then((page) => page.items)),
    settle(api('get', '/api/admin/backups')),
  ]), [])
  const lines = checks.state === 'ready' && review.state !== 'loading'
    ? [...jobLines(checks.data[0]), ...syncLines(checks.data[1]), ...overdueLines(review), ...backupLines(checks.data[2])]
    : null
  const concerns = lines?.filter((line) => line.concern).length ?? 0
  return (
    <section aria-labelledby="attention">
      <h2 id="attention">Needs your attention</h2>
      {!lines ? <Loading /> : (
        <>
          <p className="lead">{concerns === 0 ? 'Nothing needs your attention.' : concerns === 1 ? '1 thing needs your attention.' : `${concerns} things need your attention.`}</p>
          <ul className="attention">
            {lines.map((line) => <li key={line.key} className={line.concern ? 'concern' : 'fine'}>{line.text}</li>)}
          </ul>
        </>
      )}
    </section>
  )
}

/**
 * An admin's home: what needs attention, then what awaits their own decision. The shell's /api/auth/me,
 * failed jobs, sync runs, backups and the instances in review, and, for an admin who is a Person, the
 * applications and nominations they made: at most seven requests (docs/web.md).
 */
export function AdminHome({ me }: { me: Me }) {
  const { id, personId, role } = me
  const review = useLoad(() => inReview({ id, personId }), [id, personId])
  const requests = useLoad(() => ownRequests({ role, personId }), [role, personId])
  return (
    <>
      <Attention review={review} />
      <AwaitingSection loaded={review} />
      <NotificationsSection />
      <RequestsSection loaded={requests} />
    </>
  )
}
