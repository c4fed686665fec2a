import { useState, type FormEvent } from 'react'
import { Link, useParams } from 'react-router'
import { api, type PathsWith } from '../api/client'
import { domainOf, type Domain } from '../lib/domains'
import { majorPlanTitle } from './titles'
import { useLoad } from '../hooks/use-load'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Title } from '../components/ui'
import { PersonPicker } from '../components/person-picker'
import { HistoryPanel } from '../history'

type Decision = 'approve' | 'reject' | 'request-revision' | 'delegate'
const decisions: readonly { key: Decision; label: string; done: string }[] = [
  { key: 'approve', label: 'Approve', done: 'Approved' },
  { key: 'reject', label: 'Reject', done: 'Rejected' },
  { key: 'request-revision', label: 'Request revision', done: 'Revision requested' },
  { key: 'delegate', label: 'Delegate', done: 'Delegated' },
]

type EntityPath = `${Domain['base']}/{id}` & PathsWith<'get'>
type DecisionPath = `${Domain['base']}/{id}/decision` & PathsWith<'post'>
type RevisionsPath = `${Domain['base']}/{id}/revisions`
type ThesisDecisionPath = `/api/thesis/requests/{id}/${Exclude<Decision, 'delegate'>}`

function entityPath(domain: Domain): EntityPath {
  return `${domain.base}/{id}` as EntityPath
}

/**
 * Sends a decision by the domain's own route: the honors thesis has one route per decision (the spec's),
 * the other domains one `/decision` route taking the decision's name.
 */
function send(domain: Domain, id: string, decision: Decision, comment: string, delegate: string) {
  const said = comment ? { comment } : {}
  if (domain.key === 'thesis') {
    if (decision === 'delegate') return api('post', '/api/thesis/requests/{id}/delegate', { path: { id }, body: { to: delegate, ...said } })
    return api('post', `/api/thesis/requests/{id}/${decision}` as ThesisDecisionPath, { path: { id }, body: said })
  }
  // A revision request must say what to revise: sent as typed, an empty one is the service's 400 naming comment.
  const body = decision === 'delegate' ? { decision, delegate_to: delegate, ...said }
    : decision === 'request-revision' ? { decision: 'request_revision' as const, comment }
    : { decision, ...said }
  return api('post', `${domain.base}/{id}/decision` as DecisionPath, { path: { id }, body })
}

/** A record field worth showing as text: strings and numbers, not ids' internals, nor what is shown by name (`named`). */
function shown(entity: object, named: readonly string[] = []): [string, string][] {
  return Object.entries(entity)
    .filter(([name, value]) => !name.startsWith('_') && name !== 'type' && name !== 'instance' && !named.includes(name) && (typeof value === 'string' || typeof value === 'number'))
    .map(([name, value]) => [name.replace(/_/g, ' '), String(value)])
}

/**
 * The student's name as the caller may read it: their Person (admins; any graduate student), else
 * among the caller's advisees (an advisor, whom a major plan's first stage asks); none when neither
 * answers.
 */
async function studentName(id: string): Promise<string | undefined> {
  const named = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`
  const person = await api('get', '/api/people/{id}', { path: { id } }).catch(() => null)
  if (person) return named(person)
  const advisees = await api('get', '/api/advisees', { query: { limit: 200 } }).catch(() => ({ items: [] }))
  const advisee = advisees.items.find((a) => a._id === id)
  return advisee ? named(advisee) : undefined
}

/** What the service's title of a major plan leaves out (docs/web.md): the plan's name and its student's. */
async function planAndStudent(entity: { plan: string; student: string }): Promise<{ planName?: string; studentName?: string }> {
  const [plans, name] = await Promise.all([
    api('get', '/api/student-plans/{id}', { path: { id: entity.student } }).catch(() => ({ items: [] })),
    studentName(entity.student),
  ])
  const planName = plans.items.find((p) => p._id === entity.plan)?.plan_name
  return { ...(planName ? { planName } : {}), ...(name ? { studentName: name } : {}) }
}

export default function Approval() {
  const params = useParams()
  const domain = domainOf(params.domain ?? '')
  const id = params.id ?? ''
  const [version, setVersion] = useState(0)
  const entity = useLoad(() => (domain ? api('get', entityPath(domain), { path: { id } }) : Promise.reject(new Error('No such approval domain'))), [domain, id], version)
  const plan = entity.state === 'ready' && 'plan' in entity.data ? entity.data : null
  const planId = plan?.plan
  const student = plan?.student
  const names = useLoad(() => (planId && student ? planAndStudent({ plan: planId, student }) : Promise.resolve(null)), [planId, student])
  const [comment, setComment] = useState('')
  const [delegateTo, setDelegateTo] = useState('')
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)

  async function decide(decision: (typeof decisions)[number], event?: FormEvent) {
    event?.preventDefault()
    if (!domain) return
    setBusy(true)
    setOutcome(null)
    try {
      await send(domain, id, decision.key, comment, delegateTo)
      setOutcome({ ok: true, text: `${decision.done}.` })
      setComment('')
      setVersion((v) => v + 1)
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) })
    } finally {
      setBusy(false)
    }
  }

  const title = entity.state !== 'ready' ? 'Approval'
    : 'title' in entity.data && typeof entity.data.title === 'string' ? entity.data.title
      : plan ? majorPlanTitle(names.state === 'ready' ? names.data?.planName : undefined, names.state === 'ready' ? names.data?.studentName : undefined)
        : 'Approval'
  return (
    <>
      <Title>{title}</Title>
      <p><Link to="/approvals">Back to approvals</Link></p>
      <Loaded state={entity}>{(data) => (
        <>
          <dl>
            <dt>Domain</dt><dd>{domain!.label}</dd>
            {shown(data, plan ? ['plan', 'student'] : []).map(([name, value]) => <div key={name}><dt>{name}</dt><dd>{value}</dd></div>)}
            {plan && (
              <>
                <div><dt>plan</dt><dd><Link to={`/students/${encodeURIComponent(plan.student)}/plans`}>{(names.state === 'ready' && names.data?.planName) || plan.plan}</Link></dd></div>
                <div><dt>student</dt><dd><Link to={`/students/${encodeURIComponent(plan.student)}/progress`}>{(names.state === 'ready' && names.data?.studentName) || plan.student}</Link>: degree progress</dd></div>
              </>
            )}
            {data.instance && <><dt>Stage</dt><dd>{data.instance.current_stage} (round {data.instance.round}, {data.instance.status})</dd></>}
          </dl>
          <form onSubmit={(event) => { void decide(decisions[0]!, event) }} aria-labelledby="decide">
            <h2 id="decide">Your decision</h2>
            <label htmlFor="comment">Comment</label>
            <textarea id="comment" value={comment} maxLength={10000} onChange={(event) => setComment(event.target.value)} />
            <PersonPicker id="delegate" label="Find a delegate" legend="Delegate to" chosen={delegateTo} onChoose={setDelegateTo} />
            <div className="actions">
              {decisions.map((d) => (
                <button key={d.key} type={d.key === 'approve' ? 'submit' : 'button'} disabled={busy} onClick={d.key === 'approve' ? undefined : () => { void decide(d) }}>{d.label}</button>
              ))}
            </div>
          </form>
        </>
      )}</Loaded>
      {outcome && (outcome.ok ? <p role="status">{outcome.text}</p> : <Alert>{outcome.text}</Alert>)}
      {/* The entity's changes, read-only (no restore route): its `/revisions`, as its `/history` is the
          approvals' actions. A decision that changes the entity makes a new version: read again. */}
      {entity.state === 'ready' && <HistoryPanel source={{ path: `${domain!.base}/{id}/revisions` as RevisionsPath, params: { id: entity.data._id } }} version={entity.data._version} />}
    </>
  )
}
