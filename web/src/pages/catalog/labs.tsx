import { api } from '../../api/client'
import { RecordList, pageSize } from './list'
import { ExternalLink, PersonLink } from './links'

export default function Labs() {
  return (
    <RecordList
      title="Labs"
      load={(search, offset) => api('get', '/api/labs', { query: { search, offset, limit: pageSize } })}
      columns={['Lab', 'About', 'Location', 'Principal investigator']}
      keyOf={(lab) => lab._id}
      row={(lab) => (
        <>
          <td>{lab.website ? <ExternalLink href={lab.website}>{lab.name}</ExternalLink> : lab.name}</td>
          <td>{lab.description}</td>
          <td>{lab.location}</td>
          <td><PersonLink id={lab.pi}>{`Principal investigator of ${lab.name}`}</PersonLink></td>
        </>
      )}
    />
  )
}
