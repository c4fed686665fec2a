import { useState, type FormEvent } from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { useLoad } from '../hooks/use-load'
import { messageOf } from '../lib/errors'
import { Alert, Pending, Title } from '../components/ui'
import { PlanEditor } from './plan-editor'
import { PlanHistories } from './plan-history'
import './planner.css'
import { day } from '../lib/dates'

type Plan = components['schemas']['StudentPlanDetail']

async function loadPlans(id: string) {
  const [plans, courses, degrees] = await Promise.all([
    api('get', '/api/student-plans/{id}', { path: { id } }),
    api('get', '/api/courses', { query: { limit: 200, sort: 'course_code' } }),
    api('get', '/api/degrees', { query: { limit: 200, sort: 'name' } }),
  ])
  return { plans: plans.items, courses: courses.items, degrees: degrees.items }
}

function ReviewStatus({ review }: { review: string }) {
  const loaded = useLoad(() => api('get', '/api/major-plan-approvals/{id}', { path: { id: review } }), [review])
  if (loaded.state === 'loading') return <>checking…</>
  if (loaded.state === 'failed') return <>{loaded.error}</>
  return <>{loaded.data.status.replace(/_/g, ' ')}{loaded.data.instance && loaded.data.status === 'submitted' ? `, at stage ${loaded.data.instance.current_stage}` : ''}</>
}

export default function Plans() {
  const id = useParams().id ?? ''
  const [version, setVersion] = useState(0)
  const loaded = useLoad(() => loadPlans(id), [id], version)
  const [saved, setSaved] = useState<Record<string, Plan>>({})
  // The plan open on the board is in the address, so a reload or a shared link opens it again.
  const [params, setParams] = useSearchParams()
  const editing = params.get('plan')
  const setEditing = (plan: string) => setParams({ plan }, { replace: true })
  // Opened with its button, the board takes the focus; opened by a link, the page starts at its top.
  const [opened, setOpened] = useState(false)
  const [histories, setHistories] = useState<readonly string[]>([])
  const [newName, setNewName] = useState('')
  const [newDegree, setNewDegree] = useState('')
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null)

  if (loaded.state !== 'ready') return <Pending title="Study plans" state={loaded} />
  const { courses, degrees } = loaded.data
  const plans = loaded.data.plans.map((p) => {
    const newer = saved[p._id]
    return newer && newer._version > p._version ? newer : p
  })
  const degreeName = (d: string) => degrees.find((x) => x._id === d)?.name ?? d
  const current = plans.find((p) => p._id === editing)

  async function act(action: () => Promise<string>) {
    setOutcome(null)
    try {
      setOutcome({ ok: true, text: await action() })
      setVersion((v) => v + 1)
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) })
    }
  }

  function create(event: FormEvent) {
    event.preventDefault()
    void act(async () => {
      const plan = await api('post', '/api/student-plans', { body: { student: id, plan_name: newName, target_degree: newDegree || degrees[0]?._id || '', planned_courses: [] } })
      setNewName('')
      setOpened(true)
      setEditing(plan._id)
      return `Plan “${plan.plan_name}” created.`
    })
  }

  function submit(plan: Plan) {
    void act(async () => {
      // Only the plan is read from this body: the service takes the student and degree from the plan,
      // and sets the status itself, though the published schema lists them.
      await api('post', '/api/major-plan-approvals', { body: { plan: plan._id } })
      return `“${plan.plan_name}” submitted for review.`
    })
  }

  return (
    <>
      <Title>Study plans</Title>
      <p><Link to={`/students/${encodeURIComponent(id)}/progress`}>Degree progress</Link> · <Link to="/requests">My requests</Link></p>
      {plans.length === 0 ? <p>No plans yet.</p> : (
        <table className="plans">
          <caption>Plans</caption>
          <thead>
            <tr><th scope="col">Plan</th><th scope="col">Degree</th><th scope="col">Courses</th><th scope="col">Warnings</th><th scope="col">Review</th><th scope="col">Actions</th></tr>
          </thead>
          <tbody>
            {plans.map((plan) => (
              <tr key={plan._id}>
                <th scope="row">{plan.plan_name}</th>
                <td data-label="Degree">{degreeName(plan.target_degree)}</td>
                <td data-label="Courses">{plan.planned_courses.length}</td>
                <td data-label="Warnings">{plan.warnings.length}</td>
                <td data-label="Review">{plan.approved_at ? `approved ${day(plan.approved_at)}` : plan.review ? <ReviewStatus review={plan.review} /> : 'not submitted'}</td>
                <td className="actions">
                  <button type="button" onClick={() => { setOpened(true); setEditing(plan._id) }}>{`Edit ${plan.plan_name}`}</button>
                  <button type="button" onClick={() => submit(plan)}>{`Submit ${plan.plan_name} for review`}</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {outcome && (outcome.ok ? <p role="status">{outcome.text}</p> : <Alert>{outcome.text}</Alert>)}
      {current && <PlanEditor key={current._id} plan={current} focus={opened} courses={courses} degrees={degrees} onSaved={(plan) => setSaved((all) => ({ ...all, [plan._id]: plan }))} />}
      {plans.length > 0 && <PlanHistories plans={plans} open={histories} onToggle={(plan) => setHistories(histories.includes(plan) ? histories.filter((p) => p !== plan) : [...histories, plan])} />}
      <form onSubmit={create} aria-labelledby="new-plan">
        <h2 id="new-plan">New plan</h2>
        <label htmlFor="new-plan-name">Name of the new plan</label>
        <input id="new-plan-name" required maxLength={200} value={newName} onChange={(event) => setNewName(event.target.value)} />
        <label htmlFor="new-plan-degree">Degree of the new plan</label>
        <select id="new-plan-degree" value={newDegree} onChange={(event) => setNewDegree(event.target.value)}>
          {degrees.map((d) => <option key={d._id} value={d._id}>{d.name} ({d.degree_type})</option>)}
        </select>
        <div className="actions"><button type="submit">Create plan</button></div>
      </form>
    </>
  )
}
