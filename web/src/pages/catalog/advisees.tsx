import { Link, useSearchParams } from 'react-router'
import { api } from '../../api/client'
import type { components } from '../../api/schema'
import { Alert, Loading, ProgressBar, Title, useLoad } from '../../ui'
import { Pager, pageSize } from './list'

type Person = components['schemas']['Person']

const progressPath = (id: string) => `/students/${encodeURIComponent(id)}/progress`

/** One advisee's overall progress as the server computes it, or the server's reason for not giving it. */
function Advisee({ student }: { student: Person }) {
  const name = `${student.first_name} ${student.last_name}`
  const progress = useLoad(() => api('get', '/api/students/{id}/degree-progress', { path: { id: student._id } }), [student._id])
  return (
    <li className="advisee">
      <Link to={progressPath(student._id)}>{name}</Link>
      {progress.state === 'loading' && <Loading />}
      {progress.state === 'failed' && <Alert>{progress.error}</Alert>}
      {progress.state === 'ready' && (
        <>
          <span> {progress.data.degree.name}: {progress.data.rules_satisfied} of {progress.data.rules_total} rules</span>
          <ProgressBar value={progress.data.overall_progress} label={`${name} overall progress`} />
        </>
      )}
    </li>
  )
}

/**
 * The students whose records the server shows the caller, a page at a time, each with the overall
 * progress of their degree audit. Which students those are is the server's answer, not filtered here.
 */
export default function Advisees() {
  const [params, setParams] = useSearchParams()
  const page = Math.max(1, Number(params.get('page')) || 1)
  const students = useLoad(() => api('get', '/api/people', { query: { type: 'Student', offset: (page - 1) * pageSize, limit: pageSize } }), [page])
  const go = (next: number) => setParams(next > 1 ? { page: String(next) } : {})
  return (
    <>
      <Title>Advisees</Title>
      {students.state === 'loading' && <Loading />}
      {students.state === 'failed' && <Alert>{students.error}</Alert>}
      {students.state === 'ready' && (students.data.items.length === 0 ? <p>No student records are open to you.</p> : (
        <>
          <ul className="advisees">{students.data.items.map((student) => <Advisee key={student._id} student={student} />)}</ul>
          <Pager page={page} total={students.data.total} go={go} />
        </>
      ))}
    </>
  )
}
