import { Link } from 'react-router'
import { api } from '../api/client'
import { domains } from '../lib/inbox'
import { useMe } from '../shell'
import { Alert, Loading, Title, useLoad } from '../ui'
import { fetchQueues } from './queues'

/** The student record of a signed-in student: the Person with their campus id. */
async function ownStudentRecord(campusId: string | null): Promise<string | null> {
  if (!campusId) return null
  const page = await api('get', '/api/people', { query: { type: 'Student', search: campusId, limit: 10 } })
  return page.items.find((person) => person.campus_id === campusId)?._id ?? null
}

export default function Dashboard() {
  const me = useMe()
  const queues = useLoad(() => fetchQueues(1), [])
  const student = useLoad(() => (me.role === 'student' ? ownStudentRecord(me.campusId) : Promise.resolve(null)), [me.role, me.campusId])
  const answered = queues.state === 'ready' ? queues.data.filter((q) => !('error' in q)) : []
  const waiting = answered.reduce((sum, q) => sum + ('total' in q ? q.total : 0), 0)
  return (
    <>
      <Title>Dashboard</Title>
      <section aria-labelledby="awaiting">
        <h2 id="awaiting">Awaiting your decision</h2>
        {queues.state === 'loading' && <Loading />}
        {queues.state === 'ready' && (
          waiting === 0 ? <p>Nothing awaits your decision.</p> : (
            <>
              <p><Link to="/approvals">{waiting === 1 ? '1 request awaits' : `${waiting} requests await`} your decision</Link></p>
              <ul>
                {answered.map((q) => ('total' in q && q.total > 0 ? <li key={q.domain}>{domains.find((d) => d.key === q.domain)!.label}: {q.total}</li> : null))}
              </ul>
            </>
          )
        )}
      </section>
      {me.role === 'student' && (
        <section aria-labelledby="studies">
          <h2 id="studies">Your studies</h2>
          {student.state === 'loading' && <Loading />}
          {student.state === 'failed' && <Alert>{student.error}</Alert>}
          {student.state === 'ready' && (student.data
            ? <p><Link to={`/students/${encodeURIComponent(student.data)}/progress`}>Your degree progress</Link></p>
            : <p>No student record carries your campus id yet.</p>)}
        </section>
      )}
    </>
  )
}
