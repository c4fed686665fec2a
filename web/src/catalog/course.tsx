import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { useLoad } from '../hooks/use-load'
import { Pending, Title } from '../components/ui'
import { HistoryPanel, recordHistory } from '../history'
import { coursePath } from '../components/links'

/** Sections shown on a course page: the API's largest page. */
const sectionLimit = 200

/** A prerequisite by its code and title, as the API shows it (its id when it shows nothing). */
function Prerequisite({ id }: { id: string }) {
  const course = useLoad(() => api('get', '/api/courses/{id}', { path: { id } }), [id])
  return <Link to={coursePath(id)}>{course.state === 'ready' ? `${course.data.course_code}: ${course.data.title}` : id}</Link>
}

function Sections({ course }: { course: string }) {
  const sections = useLoad(() => api('get', '/api/courses/{id}/sections', { path: { id: course }, query: { limit: sectionLimit } }), [course])
  if (sections.state !== 'ready') return <Pending state={sections} />
  const { items, total } = sections.data
  if (items.length === 0) return <p>No sections are offered.</p>
  return (
    <>
      <table>
        <caption>{total === 1 ? '1 section' : `${total} sections`}</caption>
        <thead><tr><th scope="col">Term</th><th scope="col">Section</th><th scope="col">Schedule</th><th scope="col">Location</th><th scope="col">Capacity</th></tr></thead>
        <tbody>
          {items.map((section) => (
            <tr key={section._id}>
              <td>{section.term}</td><td>{section.section_number}</td><td>{section.schedule}</td><td>{section.location}</td><td>{section.enrollment_cap}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {total > items.length && <p>{total - items.length} more are not shown.</p>}
    </>
  )
}

export default function CoursePage() {
  const id = useParams().id ?? ''
  const course = useLoad(() => api('get', '/api/courses/{id}', { path: { id } }), [id])
  if (course.state !== 'ready') return <Pending title="Course" state={course} />
  return <Shown initial={course.data} />
}

/** The course as read, until the History panel answers it as it is now (restored, or read again). */
function Shown({ initial }: { initial: components['schemas']['Course'] }) {
  const [course, setCourse] = useState(initial)
  const { course_code: code, title, credits, description, prerequisites } = course
  return (
    <>
      <Title>{`${code}: ${title}`}</Title>
      <dl>
        {credits !== undefined && <><dt>Credits</dt><dd>{credits}</dd></>}
        {prerequisites.length > 0 && (
          <><dt>Prerequisites</dt><dd><ul>{prerequisites.map((p) => <li key={p}><Prerequisite id={p} /></li>)}</ul></dd></>
        )}
      </dl>
      {description && <p>{description}</p>}
      <h2>Sections</h2>
      <Sections course={course._id} />
      <HistoryPanel source={recordHistory('/api/courses', course._id)} restore={{ base: '/api/courses', record: course, onRecord: setCourse }} />
    </>
  )
}
