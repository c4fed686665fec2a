import { Link } from 'react-router'
import { api, ApiError } from '../api/client'
import type { components } from '../api/schema'
import { studentDomains } from './reads'
import { domainOf, type Domain } from '../lib/domains'
import type { Me } from '../session/me'
import { useLoad, type LoadState } from '../hooks/use-load'
import { Loaded, ProgressBar } from '../components/ui'
import { planNamesOf, titleOf, type Listed, type Row, type RequestEntity } from '../workflows'
import { NotificationsSection, RequestsSection } from './sections'

type Progress = components['schemas']['DegreeProgress']

/** The student's degree audit, or the server's reason for none (no declared major is a 404, not a failure). */
async function progressOf(id: string): Promise<{ progress: Progress } | { none: string }> {
  try {
    return { progress: await api('get', '/api/students/{id}/degree-progress', { path: { id } }) }
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { none: error.message }
    throw error
  }
}

/**
 * The lists the student can own requests in, side by side (a student's list holds their own), and the
 * names of the plans their open major-plan reviews are of: at most five requests.
 */
async function requestsOf(personId: string): Promise<Listed & { planNames: Map<string, string> }> {
  type Answer = { domain: Domain; items: RequestEntity[] } | { domain: Domain; error: string }
  const answers = await Promise.all(studentDomains(personId).map(async (key): Promise<Answer> => {
    const domain = domainOf(key)!
    try {
      const page = await api('get', domain.base, { query: { limit: 200 } })
      return { domain, items: page.items as RequestEntity[] }
    } catch (error) {
      return { domain, error: error instanceof Error ? error.message : String(error) }
    }
  }))
  const rows: Row[] = []
  const failures: Listed['failures'] = []
  for (const answer of answers) {
    if ('error' in answer) failures.push({ domain: answer.domain, error: answer.error })
    else for (const entity of answer.items) rows.push({ domain: answer.domain, entity })
  }
  rows.sort((a, b) => Date.parse(b.entity._updated_at) - Date.parse(a.entity._updated_at))
  const reviews = rows.filter((r) => r.domain.key === 'major-plans' && r.entity.status !== 'approved' && r.entity.status !== 'rejected' && r.entity.status !== 'withdrawn')
  return { rows, failures, planNames: reviews.length ? await planNamesOf(reviews) : new Map() }
}

function ProgressSection({ personId, loaded }: { personId: string; loaded: LoadState<Awaited<ReturnType<typeof progressOf>>> }) {
  return (
    <section aria-labelledby="your-progress">
      <h2 id="your-progress">Your progress</h2>
      <Loaded state={loaded}>{(data) => ('none' in data ? <p>{data.none}</p> : <Audit progress={data.progress} personId={personId} />)}</Loaded>
    </section>
  )
}

/** The overall bar and every rule still open, by group, as the API words what remains of it. */
function Audit({ progress, personId }: { progress: Progress; personId: string }) {
  const remaining = progress.groups.flatMap((group) => group.rules.filter((rule) => !rule.satisfied).map((rule) => ({ group, rule })))
  return (
    <>
      <p>{progress.degree.name} ({progress.degree.degree_type}): {progress.rules_satisfied} of {progress.rules_total} rules satisfied.</p>
      <ProgressBar value={progress.overall_progress} label="Overall progress" />
      <h3>What remains</h3>
      {remaining.length === 0 ? <p>Nothing remains: every rule is satisfied.</p> : (
        <ul className="remaining">
          {remaining.map(({ group, rule }) => (
            <li key={`${group._id}:${rule._id}`}><span className="kind">{group.name}:</span> {rule.name}{rule.remaining && `: ${rule.remaining.text}`}</li>
          ))}
        </ul>
      )}
      <p><Link to={`/students/${encodeURIComponent(personId)}/progress`}>Every group and rule, what-if and projected progress</Link></p>
    </>
  )
}

/** Requests returned to the student for revision: what they are asked to do first. */
function Revisions({ rows, planNames }: { rows: readonly Row[]; planNames: ReadonlyMap<string, string> }) {
  const asked = rows.filter((row) => row.entity.status === 'revision_requested')
  if (asked.length === 0) return null
  return (
    <section aria-labelledby="revisions" className="callout">
      <h2 id="revisions">Revisions asked of you</h2>
      <ul>
        {asked.map(({ domain, entity }) => (
          <li key={entity._id}>
            <Link to={`/requests?domain=${domain.key}&id=${encodeURIComponent(entity._id)}`}>{titleOf(domain, entity, planNames)}</Link> ({domain.label}): read the comments and resubmit
          </li>
        ))}
      </ul>
    </section>
  )
}

function Studies({ personId }: { personId: string | null }) {
  return (
    <section aria-labelledby="studies">
      <h2 id="studies">Your studies</h2>
      {personId
        ? (
          <ul>
            <li><Link to={`/students/${encodeURIComponent(personId)}/progress`}>Your degree progress</Link></li>
            <li><Link to={`/students/${encodeURIComponent(personId)}/transcript`}>Your transcript</Link></li>
            <li><Link to={`/students/${encodeURIComponent(personId)}/plans`}>Your plans</Link></li>
          </ul>
        )
        : <p>No student record is linked to your account yet: the department links it by your campus id or email.</p>}
    </section>
  )
}

/**
 * A student's home: their progress first, then any revision asked of them and their open requests. The
 * shell's /api/auth/me, the audit and the request lists: at most seven requests (docs/web.md).
 */
export function StudentHome({ me }: { me: Me }) {
  const personId = me.personId
  const requests = useLoad(() => (personId ? requestsOf(personId) : Promise.resolve({ rows: [], failures: [], planNames: new Map<string, string>() })), [personId])
  const planNames = requests.state === 'ready' ? requests.data.planNames : new Map<string, string>()
  const progress = useLoad(() => (personId ? progressOf(personId) : Promise.resolve({ none: '' })), [personId])
  // What follows the audit is loaded beside it but shown once the audit is in: the audit's height is
  // known only then, and sections shown below it earlier would jump down the page when it arrives.
  const held = Boolean(personId) && progress.state === 'loading'
  return (
    <>
      {personId && <ProgressSection personId={personId} loaded={progress} />}
      <div hidden={held}>
        {requests.state === 'ready' && <Revisions rows={requests.data.rows} planNames={planNames} />}
        <RequestsSection loaded={requests} planNames={planNames} />
        <Studies personId={personId} />
        <NotificationsSection />
      </div>
    </>
  )
}
