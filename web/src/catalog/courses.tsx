import { Link } from 'react-router'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { RecordList, pageSize, type ListPage, type ListQuery } from '../components/record-list'
import { coursePath } from '../components/links'

type Course = components['schemas']['Course']

/** Course levels: 300 is CS 300 to CS 399. */
const levels: readonly (readonly [string, string])[] = ['100', '200', '300', '400', '500', '600', '700', '800', '900'].map((l) => [l, `${l}-level`])

/** The list route filters by subject and by level (`level=300`: numbers 300 to 399), and pages. */
function loadCourses({ search, offset, sort, filters }: ListQuery): Promise<ListPage<Course>> {
  const query = { search, sort, offset, limit: pageSize, ...(filters.subject ? { department: filters.subject } : {}), ...(filters.level ? { level: Number(filters.level) } : {}) }
  return api('get', '/api/courses', { query })
}

export default function Courses() {
  return (
    <RecordList
      title="Courses"
      filters={[
        { param: 'subject', label: 'Subject', size: 6, hint: 'e.g. CS' },
        { param: 'level', label: 'Level', options: levels },
      ]}
      load={loadCourses}
      // GET /api/courses sorts by course code when asked for no sort.
      defaultSort={{ key: 'code', descending: false }}
      columns={[
        { label: 'Code', sort: { key: 'code', fields: 'course_code' }, cell: (course) => course.course_code },
        { label: 'Title', sort: { key: 'title', fields: 'title' }, cell: (course) => <Link to={coursePath(course._id)}>{course.title}</Link> },
        { label: 'Credits', sort: { key: 'credits', fields: 'credits' }, cell: (course) => course.credits },
      ]}
      keyOf={(course) => course._id}
    />
  )
}
