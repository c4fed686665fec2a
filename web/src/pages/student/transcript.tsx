import { useParams } from 'react-router'
import { api } from '../../api/client'
import { Alert, Loading, Title, useLoad } from '../../ui'

function gpa(value: number | null): string {
  return value === null ? '—' : value.toFixed(2)
}

export default function Transcript() {
  const id = useParams().id ?? ''
  const transcript = useLoad(() => api('get', '/api/students/{id}/transcript', { path: { id } }), [id])
  if (transcript.state === 'loading') return <><Title>Transcript</Title><Loading /></>
  if (transcript.state === 'failed') return <><Title>Transcript</Title><Alert>{transcript.error}</Alert></>
  const { student, terms, cumulative } = transcript.data
  return (
    <>
      <Title>{`Transcript: ${student.first_name} ${student.last_name}`}</Title>
      <p>
        Credits attempted {cumulative.credits_attempted}, earned {cumulative.credits_earned}; cumulative GPA {gpa(cumulative.gpa)}.
      </p>
      {terms.length === 0 && <p>No enrollments yet.</p>}
      {terms.map((term) => (
        <section key={term.term} aria-labelledby={`term-${term.term}`}>
          <h2 id={`term-${term.term}`}>{term.term}</h2>
          <table>
            <caption>Term {term.term}: {term.credits} credits attempted, {term.credits_earned} earned, GPA {gpa(term.gpa)}</caption>
            <thead>
              <tr><th scope="col">Course</th><th scope="col">Title</th><th scope="col">Section</th><th scope="col">Status</th><th scope="col">Credits</th><th scope="col">Grade</th><th scope="col">Grade points</th></tr>
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
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </>
  )
}
