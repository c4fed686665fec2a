import { useMemo, useState } from 'react'
import { when } from '../lib/dates'
import { Link, useSearchParams } from 'react-router'
import { api, type PathsWith } from '../api/client'
import { domainOf, type Domain } from '../lib/domains'
import { useMe } from '../session/me'
import { useLoad } from '../hooks/use-load'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Pending, Title } from '../components/ui'
import { RequestForm } from './request-form'
import { ownRequests, planNamesOf, titleOf } from './own-requests'
import { bodyOf, forCreator, kindOf, requestKinds, type CreateBody, type RequestEntity, type RequestKind, type UpdateBody } from './request-kinds'
import { RequestRoute } from './request-route'

type ItemPath = `${Domain['base']}/{id}` & PathsWith<'get'>
type UpdatePath = `${Domain['base']}/{id}` & PathsWith<'put'>
type SubmitPath = `${Domain['base']}/{id}/submit` & PathsWith<'post'>
type WithdrawPath = `${Domain['base']}/{id}/withdraw` & PathsWith<'post'>


/** A field of the entity as the form shows it. */
function valuesOf(kind: RequestKind, entity: RequestEntity): Record<string, string> {
  const fields = Object.fromEntries(Object.entries(entity)) as Record<string, unknown>
  return Object.fromEntries(kind.fields.map((f) => [f.name, fields[f.name] === undefined || fields[f.name] === null ? '' : String(fields[f.name])]))
}

function Detail({ domain, id, onChanged }: { domain: Domain; id: string; onChanged: () => void }) {
  const kind = kindOf(domain.key)!
  const [version, setVersion] = useState(0)
  const loaded = useLoad(() => api('get', `${domain.base}/{id}` as ItemPath, { path: { id } }), [domain, id], version)
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null)

  async function act(done: string, steps: () => Promise<unknown>) {
    setBusy(true)
    setOutcome(null)
    try {
      await steps()
      setOutcome({ ok: true, text: done })
      setVersion((v) => v + 1)
      onChanged()
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) })
    } finally {
      setBusy(false)
    }
  }

  const save = (values: Readonly<Record<string, string>>) =>
    api('put', `${domain.base}/{id}` as UpdatePath, { path: { id }, body: bodyOf(kind, values, true) as UpdateBody })
  const submit = () => api('post', `${domain.base}/{id}/submit` as SubmitPath, { path: { id }, body: {} })

  if (loaded.state !== 'ready') return <Pending state={loaded} />
  const entity: RequestEntity = loaded.data
  const editable = !kind.submitsOnCreate && (entity.status === 'draft' || entity.status === 'revision_requested')
  const again = entity.status === 'revision_requested'
  return (
    <section aria-labelledby="open-request" className="group">
      <h2 id="open-request">{domain.label}: {titleOf(domain, entity)}</h2>
      <p>Status: {entity.status.replace(/_/g, ' ')}{'instance' in entity && entity.instance ? `, round ${entity.instance.round}` : ''}.</p>
      {editable && (
        <RequestForm
          key={`${entity._id}-${entity._version}`}
          kind={kind} initial={valuesOf(kind, entity)} busy={busy} idPrefix="edit"
          actions={[
            { label: again ? 'Save and resubmit' : 'Save and submit', run: (values) => { void act(again ? 'Resubmitted.' : 'Submitted.', async () => { await save(values); await submit() }) } },
            { label: 'Save draft', run: (values) => { void act('Saved.', () => save(values)) } },
          ]}
        />
      )}
      {'plan' in entity && again && (
        <p>Change the plan on <Link to={`/students/${encodeURIComponent(entity.student)}/plans`}>the student's plans</Link>, then submit it for review again.</p>
      )}
      {(entity.status === 'submitted' || entity.status === 'revision_requested') && (
        <div className="actions">
          <button type="button" disabled={busy} onClick={() => { void act('Withdrawn.', () => api('post', `${domain.base}/{id}/withdraw` as WithdrawPath, { path: { id }, body: {} })) }}>Withdraw</button>
        </div>
      )}
      {outcome && (outcome.ok ? <p role="status">{outcome.text}</p> : <Alert>{outcome.text}</Alert>)}
      {'instance' in entity && entity.instance ? <RequestRoute instance={entity.instance._id} version={version} /> : <p>Not submitted yet: no route.</p>}
    </section>
  )
}

function NewRequest({ role, onCreated }: { role: string; onCreated: (domain: Domain, id: string) => void }) {
  const offered = requestKinds.filter((k) => !k.submitsOnCreate && (!k.offeredTo || k.offeredTo.includes(role)))
  const [chosen, setChosen] = useState(offered[0]?.domain ?? '')
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  // One object per kind and role: the form reloads its choices when the kind changes.
  const kind = useMemo(() => {
    const base = kindOf(chosen)
    return base && forCreator(base, role)
  }, [chosen, role])
  const domain = domainOf(chosen)

  function create(values: Readonly<Record<string, string>>) {
    if (!kind || !domain) return
    setBusy(true)
    setProblem(null)
    // An owner the form does not name (a student's own request, the applicant, the nominator) is left
    // out: the service makes it the caller's Person. An advisor's or admin's names the student picked.
    const body = bodyOf(kind, values, false) as CreateBody
    api('post', domain.base, { body }).then(
      (created) => onCreated(domain, created._id),
      (error: unknown) => setProblem(messageOf(error)),
    ).finally(() => setBusy(false))
  }

  return (
    <section aria-labelledby="new-request" className="group">
      <h2 id="new-request">New request</h2>
      <label htmlFor="new-kind">Kind of request</label>
      <select id="new-kind" value={chosen} onChange={(event) => setChosen(event.target.value)}>
        {offered.map((k) => <option key={k.domain} value={k.domain}>{domainOf(k.domain)!.label}</option>)}
      </select>
      <p>A plan is submitted for review from its student's plans page.</p>
      {kind && (
        <RequestForm
          key={kind.domain} kind={kind} initial={{}} busy={busy} idPrefix="new"
          actions={[{ label: 'Save draft', run: create }]}
        />
      )}
      {problem && <Alert>{problem}</Alert>}
    </section>
  )
}

export default function Requests() {
  const me = useMe()
  const [params, setParams] = useSearchParams()
  const [version, setVersion] = useState(0)
  const { role, personId } = me
  const listed = useLoad(async () => {
    const mine = await ownRequests({ role, personId })
    return { ...mine, plans: await planNamesOf(mine.rows) }
  }, [role, personId], version)
  const open = domainOf(params.get('domain') ?? '')
  const openId = params.get('id')
  const show = (domain: Domain, id: string) => setParams({ domain: domain.key, id })

  return (
    <>
      <Title>My requests</Title>
      <Loaded state={listed}>{(data) => (
        <>
          {data.failures.map((f) => <Alert key={f.domain.key}>{f.domain.label}: {f.error}</Alert>)}
          {data.rows.length === 0 ? <p>You have no requests.</p> : (
            <table>
              <caption>Your requests, latest change first</caption>
              <thead><tr><th scope="col">Request</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Last change</th></tr></thead>
              <tbody>
                {data.rows.map(({ domain, entity }) => (
                  <tr key={entity._id}>
                    <th scope="row"><Link to={`/requests?domain=${domain.key}&id=${encodeURIComponent(entity._id)}`}>{titleOf(domain, entity, data!.plans)}</Link></th>
                    <td>{domain.label}</td>
                    <td>{entity.status.replace(/_/g, ' ')}</td>
                    <td>{when(entity._updated_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}</Loaded>
      {open && openId && <Detail key={`${open.key}/${openId}`} domain={open} id={openId} onChanged={() => setVersion((v) => v + 1)} />}
      <NewRequest role={me.role} onCreated={(domain, id) => { setVersion((v) => v + 1); show(domain, id) }} />
    </>
  )
}
