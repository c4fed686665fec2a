import { Link } from 'react-router'
import { api } from '../../api/client'
import { RecordList, pageSize } from './list'
import { personPath, personTypes } from './links'

export default function People() {
  return (
    <RecordList
      title="People"
      load={(search, offset) => api('get', '/api/people', { query: { search, offset, limit: pageSize } })}
      columns={['Name', 'Kind', 'Email', 'Title']}
      keyOf={(person) => person._id}
      row={(person) => (
        <>
          <td><Link to={personPath(person._id)}>{person.first_name} {person.last_name}</Link></td>
          <td>{personTypes[person.type] ?? person.type}</td>
          <td>{person.email}</td>
          <td>{person.title}</td>
        </>
      )}
    />
  )
}
