import { useId, useState } from 'react'
import { useParams } from 'react-router'
import { api } from '../api/client'
import { useLoad } from '../hooks/use-load'
import { Pending, Title } from '../components/ui'
import { HistoryPanel } from '../history'

function gpa(value: number | null): string {
  return value === null ? '—' : value.toFixed(2)
}

export default function Transcript() {
  const id = useParams().id ?? ''
  const transcript = useLoad(() => api('get', '/api/students/{id}/transcript', { path: { id } }), [id])
  // One enrollment's history at a time, under its term's table: each read of it is audited, and the
  // transcript stays a transcript.
  const [open, setOpen] = useState<string | null>(null)
  const panelId = useId()
  if (transcript.state !== 'ready') return <Pending title="Transcript" state={transcript} />
  const { student, terms, cumulative } = transcript.data
  return (
    <>
      <Title>{`Transcript: ${student.first_name} ${student.last_name}`}</Title>
      <p>
        Credits attempted {cumulative.credits_attempted}, earned {cumulative.credits_earned}; cumulative GPA {gpa(cumulative.gpa)}.
      </p>
      {terms.length === 0 && <p>No enrollments yet.</p>}
      {terms.map((term) => {
        const shown = term.courses.find((course) => course.enrollment === open)
        const nameOf = (course: typeof term.courses[number]) => `${course.course_code ?? course.course} in ${term.term}`
        return (
          <section key={term.term} aria-labelledby={`term-${term.term}`}>
            <h2 id={`term-${term.term}`}>{term.term}</h2>
            <table>
              <caption>Term {term.term}: {term.credits} credits attempted, {term.credits_earned} earned, GPA {gpa(term.gpa)}</caption>
              <thead>
                <tr><th scope="col">Course</th><th scope="col">Title</th><th scope="col">Section</th><th scope="col">Status</th><th scope="col">Credits</th><th scope="col">Grade</th><th scope="col">Grade points</th><th scope="col">History</th></tr>
              </thead>
              <tbody>
                {term.courses.map((course) => (
                  <tr key={course.enrollment}>
                    <th scope="row">{course.course_code ?? course.course}</th>
                    <td>{course.title ?? ''}</td>
                    <td>{course.section ?? ''}</td>
                    <td>{course.status}{course.repeated && ' (repeated: another attempt counts)'}</td>
                    <td>{course.credits}</td>
                    <td>{course.grade ?? '—'}</td>
                    <td>{course.grade_points ?? '—'}</td>
                    <td>
                      <button type="button" aria-expanded={open === course.enrollment} aria-controls={open === course.enrollment ? panelId : undefined} onClick={() => setOpen(open === course.enrollment ? null : course.enrollment)}>
                        History<span className="visually-hidden">{` of ${nameOf(course)}`}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {/* Enrollments have no restore route: read-only. */}
            {shown && (
              <div className="term-history">
                <HistoryPanel id={panelId} level={3} title={`History of ${nameOf(shown)}`} source={{ path: '/api/students/{id}/enrollments/{enrollmentId}/history', params: { id: student._id, enrollmentId: shown.enrollment } }} />
              </div>
            )}
          </section>
        )
      })}
    </>
  )
}
