import { useState, type FormEvent } from 'react'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { useLoad } from '../hooks/use-load'
import { messageOf } from '../lib/errors'
import { Loaded, Pending, ProgressBar } from '../components/ui'
import type { LoadState } from '../hooks/use-load'

type Progress = components['schemas']['DegreeProgress']
type Group = components['schemas']['GroupProgress']
type Asked<T> = { readonly state: 'idle' } | LoadState<T>

function useAsk<T>(): [Asked<T>, (load: () => Promise<T>) => void] {
  const [asked, setAsked] = useState<Asked<T>>({ state: 'idle' })
  const ask = (load: () => Promise<T>) => {
    setAsked({ state: 'loading' })
    load().then((data) => setAsked({ state: 'ready', data }), (error: unknown) => setAsked({ state: 'failed', error: messageOf(error) }))
  }
  return [asked, ask]
}

function Bars({ prefix, overall, groups }: { prefix: string; overall: number; groups: readonly Group[] }) {
  return (
    <>
      <ProgressBar value={overall} label={`${prefix} overall progress`} />
      <ul className="bars">
        {groups.map((group) => (
          <li key={group._id}>{group.name}<ProgressBar value={group.progress} label={`${prefix}: ${group.name} progress`} /></li>
        ))}
      </ul>
    </>
  )
}

/** A what-if audit against another degree, and a plan's projected progress: both the server's audits. */
export function WhatIf({ student, current }: { student: string; current: Progress['degree'] }) {
  const choices = useLoad(() => Promise.all([
    api('get', '/api/degrees', { query: { limit: 200, sort: 'name' } }),
    api('get', '/api/student-plans/{id}', { path: { id: student } }),
  ]), [student])
  const [degree, setDegree] = useState('')
  const [plan, setPlan] = useState('')
  const [whatIf, askWhatIf] = useAsk<Progress>()
  const [projected, askProjected] = useAsk<Progress>()

  function auditDegree(event: FormEvent) {
    event.preventDefault()
    if (degree) askWhatIf(() => api('get', '/api/students/{id}/degree-progress', { path: { id: student }, query: { degree } }))
  }
  function projectPlan(event: FormEvent) {
    event.preventDefault()
    if (plan) askProjected(() => api('get', '/api/students/{id}/degree-progress', { path: { id: student }, query: { plan } }))
  }

  if (choices.state !== 'ready') return <Pending state={choices} />
  const [degrees, plans] = choices.data
  return (
    <>
      <section aria-labelledby="what-if" className="group">
        <h2 id="what-if">What if you changed degree?</h2>
        <form onSubmit={auditDegree}>
          <label htmlFor="what-if-degree">Degree</label>
          <select id="what-if-degree" value={degree} onChange={(event) => setDegree(event.target.value)} required>
            <option value="">Choose a degree</option>
            {degrees.items.filter((d) => d._id !== current._id).map((d) => <option key={d._id} value={d._id}>{d.name} ({d.degree_type})</option>)}
          </select>
          <div className="actions"><button type="submit">Audit against this degree</button></div>
        </form>
        <Loaded state={whatIf}>{(data) => (
          <>
            <p>{data.degree.name} ({data.degree.degree_type}): {data.rules_satisfied} of {data.rules_total} rules satisfied.</p>
            <Bars prefix="What-if" overall={data.overall_progress} groups={data.groups} />
          </>
        )}</Loaded>
      </section>
      <section aria-labelledby="projection" className="group">
        <h2 id="projection">Projected progress of a plan</h2>
        {plans.items.length === 0 ? <p>No plans yet.</p> : (
          <form onSubmit={projectPlan}>
            <label htmlFor="projection-plan">Plan</label>
            <select id="projection-plan" value={plan} onChange={(event) => setPlan(event.target.value)} required>
              <option value="">Choose a plan</option>
              {plans.items.map((p) => <option key={p._id} value={p._id}>{p.plan_name}</option>)}
            </select>
            <div className="actions"><button type="submit">Project this plan</button></div>
          </form>
        )}
        <Loaded state={projected}>{(data) => data.projection && (
          <>
            <p>With {data.projection.plan.plan_name} completed: {data.projection.rules_satisfied} of {data.projection.rules_total} rules satisfied.</p>
            <Bars prefix="Projected" overall={data.projected_progress ?? data.projection.overall_progress} groups={data.projection.groups} />
          </>
        )}</Loaded>
      </section>
    </>
  )
}
