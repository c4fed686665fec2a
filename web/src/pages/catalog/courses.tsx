import { Link } from 'react-router'
import { api } from '../../api/client'
import { RecordList, pageSize } from './list'
import { coursePath } from './links'

export default function Courses() {
  return (
    <RecordList
      title="Courses"
      load={(search, offset) => api('get', '/api/courses', { query: { search, offset, limit: pageSize } })}
      columns={['Code', 'Title', 'Credits']}
      keyOf={(course) => course._id}
      row={(course) => (
        <>
          <td>{course.course_code}</td>
          <td><Link to={coursePath(course._id)}>{course.title}</Link></td>
          <td>{course.credits}</td>
        </>
      )}
    />
  )
}
