import { useEffect, useRef, useState, type FormEvent } from 'react'
import { api } from '../../api/client'
import type { components } from '../../api/schema'
import { Alert, messageOf } from '../../ui'

type Plan = components['schemas']['StudentPlanDetail']
type Course = components['schemas']['Course']
type Degree = components['schemas']['Degree']
type Status = components['schemas']['PlannedCourseStatus']
type Warning = components['schemas']['PlanWarning']

interface Row { readonly key: number; readonly course: string; readonly term: string; readonly status: Status }

const statuses: readonly Status[] = ['planned', 'enrolled', 'completed']
let nextKey = 0

/** The warnings the API gave about this row's course in this row's term. */
function warningsOf(warnings: readonly Warning[], row: Row): Warning[] {
  return warnings.filter((w) => w.course === row.course && w.term === row.term)
}

/**
 * Edits one plan: its name, degree and courses term by term. Saving sends the whole list (the API
 * replaces it) with the version read, and shows the warnings the API answers beside their courses.
 */
export function PlanEditor({ plan, courses, degrees, onSaved }: { plan: Plan; courses: readonly Course[]; degrees: readonly Degree[]; onSaved: (plan: Plan) => void }) {
  const [name, setName] = useState(plan.plan_name)
  const [degree, setDegree] = useState(plan.target_degree)
  const [rows, setRows] = useState<Row[]>(() => plan.planned_courses.map((c) => ({ key: nextKey++, course: c.course, term: c.term, status: c.status ?? 'planned' })))
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const added = useRef<number | null>(null)
  const table = useRef<HTMLTableSectionElement>(null)

  // A row added from the keyboard takes the focus, so the course is chosen next.
  useEffect(() => {
    if (added.current === null) return
    table.current?.querySelector<HTMLSelectElement>(`#course-${added.current}`)?.focus()
    added.current = null
  }, [rows])

  const codeOf = (id: string) => courses.find((c) => c._id === id)?.course_code ?? id
  const change = (key: number, patch: Partial<Row>) => setRows(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)))

  function add() {
    const key = nextKey++
    added.current = key
    setRows([...rows, { key, course: '', term: rows.at(-1)?.term ?? '', status: 'planned' }])
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setOutcome(null)
    try {
      const saved = await api('put', '/api/student-plans/{id}', {
        path: { id: plan._id },
        body: { _version: plan._version, plan_name: name, target_degree: degree, planned_courses: rows.map(({ course, term, status }) => ({ course, term, status })) },
      })
      setOutcome({ ok: true, text: saved.warnings.length ? `Saved, with ${saved.warnings.length === 1 ? '1 warning' : `${saved.warnings.length} warnings`}.` : 'Saved.' })
      onSaved(saved)
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) })
    } finally {
      setBusy(false)
    }
  }

  const termWarnings = plan.warnings.filter((w) => !w.course)
  return (
    <form onSubmit={(event) => { void save(event) }} aria-labelledby="editing">
      <h2 id="editing">Edit {plan.plan_name}</h2>
      <label htmlFor="plan-name">Plan name</label>
      <input id="plan-name" required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
      <label htmlFor="plan-degree">Degree</label>
      <select id="plan-degree" required value={degree} onChange={(event) => setDegree(event.target.value)}>
        {degrees.map((d) => <option key={d._id} value={d._id}>{d.name} ({d.degree_type})</option>)}
      </select>
      {termWarnings.length > 0 && (
        <ul aria-label="Term warnings" className="warnings">
          {termWarnings.map((w, i) => <li key={i}>{w.message}</li>)}
        </ul>
      )}
      <table>
        <caption>Planned courses</caption>
        <thead>
          <tr><th scope="col">Course</th><th scope="col">Term</th><th scope="col">Status</th><th scope="col">Warnings</th><th scope="col">Actions</th></tr>
        </thead>
        <tbody ref={table}>
          {rows.map((row, i) => {
            const warnings = warningsOf(plan.warnings, row)
            const warningId = `warnings-${row.key}`
            const label = `${i + 1}`
            return (
              <tr key={row.key} className={warnings.length ? 'warned' : undefined}>
                <td>
                  <select id={`course-${row.key}`} aria-label={`Course ${label}`} required value={row.course} onChange={(event) => change(row.key, { course: event.target.value })} aria-describedby={warnings.length ? warningId : undefined}>
                    <option value="">Choose a course</option>
                    {courses.map((c) => <option key={c._id} value={c._id}>{c.course_code}: {c.title}</option>)}
                  </select>
                </td>
                <td><input aria-label={`Term of course ${label}`} required size={5} value={row.term} placeholder="26S" onChange={(event) => change(row.key, { term: event.target.value })} /></td>
                <td>
                  <select aria-label={`Status of course ${label}`} value={row.status} onChange={(event) => change(row.key, { status: event.target.value as Status })}>
                    {statuses.map((s) => <option key={s} value={s}>{s}</option>)}
                  </select>
                </td>
                <td id={warningId}>{warnings.map((w) => <p key={w.kind} className="warning">{w.message}</p>)}</td>
                <td><button type="button" onClick={() => setRows(rows.filter((r) => r.key !== row.key))}>{`Remove course ${label}${row.course ? ` (${codeOf(row.course)})` : ''}`}</button></td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <div className="actions">
        <button type="button" onClick={add}>Add course</button>
        <button type="submit" disabled={busy}>Save plan</button>
      </div>
      {outcome && (outcome.ok ? <p role="status">{outcome.text}</p> : <Alert>{outcome.text}</Alert>)}
    </form>
  )
}
