import { Link } from 'react-router'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { RecordList, pageSize, type ListPage, type ListQuery } from '../components/record-list'
import { coursePath } from '../components/links'

type Course = components['schemas']['Course']

/** Course levels: 300 is CS 300 to CS 399. */
const levels: readonly (readonly [string, string])[] = ['100', '200', '300', '400', '500', '600', '700', '800', '900'].map((l) => [l, `${l}-level`])

/** The number in a course code ("CS 350H" is 350), as the server reads it for requirement patterns. */
function numberOf(code: string): number | undefined {
  const match = /^\s*[A-Za-z]+\s*(\d+)/.exec(code)
  return match ? Number(match[1]) : undefined
}

/** The most a request may ask for (the list routes' limit). */
const batch = 200

/**
 * The list route filters by subject but not by level (docs/web.md): with a level, every course the
 * other filters match is read, 200 a request, in the asked order, and the level is applied here
 * before the page is cut, so the count and pages are those of the filtered list.
 */
async function loadCourses({ search, offset, sort, filters }: ListQuery): Promise<ListPage<Course>> {
  const query = { search, sort, ...(filters.subject ? { department: filters.subject } : {}) }
  if (!filters.level) return api('get', '/api/courses', { query: { ...query, offset, limit: pageSize } })
  const low = Number(filters.level)
  const all: Course[] = []
  for (let total = Infinity; all.length < total;) {
    const page = await api('get', '/api/courses', { query: { ...query, offset: all.length, limit: batch } })
    all.push(...page.items)
    total = page.items.length === 0 ? all.length : page.total
  }
  const matching = all.filter((c) => {
    const n = numberOf(c.course_code)
    return n !== undefined && n >= low && n < low + 100
  })
  return { items: matching.slice(offset, offset + pageSize), total: matching.length }
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
