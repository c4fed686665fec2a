import { Link, useSearchParams } from 'react-router'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { useMe } from '../session/me'
import { useLoad } from '../hooks/use-load'
import { Alert, Loaded, ProgressBar, Title } from '../components/ui'
import { pageSize } from '../components/record-list'
import { Pager } from '../components/pager'
import { personTypes } from '../components/links'

type Advisee = components['schemas']['Advisee']

const progressPath = (id: string) => `/students/${encodeURIComponent(id)}/progress`

/** One advisee's overall progress as the server computes it, or the server's reason for not giving it. */
function AdviseeItem({ student }: { student: Advisee }) {
  const name = `${student.first_name} ${student.last_name}`
  const progress = useLoad(() => api('get', '/api/students/{id}/degree-progress', { path: { id: student._id } }), [student._id])
  return (
    <li className="advisee">
      <Link to={progressPath(student._id)}>{name}</Link> <span>({personTypes[student.type] ?? student.type})</span>
      <Loaded state={progress}>{(data) => (
        <>
          <span> {data.degree.name}: {data.rules_satisfied} of {data.rules_total} rules</span>
          <ProgressBar value={data.overall_progress} label={`${name} overall progress`} />
        </>
      )}</Loaded>
    </li>
  )
}

/** An admin's choice of whose advisees to list: their own (none chosen) or a faculty member's. */
function AdvisorPicker({ advisor, choose }: { advisor: string; choose: (id: string) => void }) {
  const faculty = useLoad(() => api('get', '/api/people/faculty-options'), [])
  if (faculty.state === 'failed') return <Alert>{faculty.error}</Alert>
  return (
    <div className="advisor-picker">
      <label htmlFor="advisor">Advisor</label>{' '}
      <select id="advisor" value={advisor} disabled={faculty.state === 'loading'} onChange={(event) => choose(event.target.value)}>
        <option value="">You</option>
        {faculty.state === 'ready' && faculty.data.items.map((f) => <option key={f._id} value={f._id}>{f.label}</option>)}
      </select>
    </div>
  )
}

/** Why the list is empty, in the caller's terms. */
function noneMessage(advisor: string, linked: boolean): string {
  if (advisor) return 'No student names this advisor.'
  if (!linked) return 'You advise no one: no department record is linked to your account.'
  return 'No student names you as their advisor.'
}

/**
 * The students whose advisors include the caller (or, for an admin, the advisor chosen), as
 * GET /api/advisees pages them, each with the overall progress of their degree audit. Which students
 * those are is the server's answer; the advisor and page live in the address (`?advisor=&page=`).
 */
export default function Advisees() {
  const me = useMe()
  const [params, setParams] = useSearchParams()
  const advisor = params.get('advisor') ?? ''
  const page = Math.max(1, Number(params.get('page')) || 1)
  const students = useLoad(() => api('get', '/api/advisees', { query: { advisor: advisor || undefined, offset: (page - 1) * pageSize, limit: pageSize } }), [advisor, page])

  function go(next: { advisor?: string; page?: number }) {
    const query = new URLSearchParams()
    const chosen = next.advisor ?? advisor
    if (chosen) query.set('advisor', chosen)
    if ((next.page ?? 1) > 1) query.set('page', String(next.page))
    setParams(query)
  }

  return (
    <>
      <Title>Advisees</Title>
      {me.role === 'admin' && <AdvisorPicker advisor={advisor} choose={(id) => go({ advisor: id })} />}
      <Loaded state={students}>{(data) => (data.items.length === 0 ? <p>{noneMessage(advisor, me.personId !== null)}</p> : (
        <>
          <p>{data.total === 1 ? '1 advisee' : `${data.total} advisees`}</p>
          <ul className="advisees">{data.items.map((student) => <AdviseeItem key={student._id} student={student} />)}</ul>
          <Pager offset={(page - 1) * pageSize} limit={pageSize} total={data.total} go={(offset) => go({ page: offset / pageSize + 1 })} />
        </>
      ))}</Loaded>
    </>
  )
}
