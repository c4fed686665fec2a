import { api } from '../api/client'
import { RecordList, pageSize } from '../components/record-list'
import { ExternalLink, PersonLink } from '../components/links'

export default function Labs() {
  return (
    <RecordList
      title="Labs"
      load={({ search, offset, sort }) => api('get', '/api/labs', { query: { search, offset, limit: pageSize, sort } })}
      // GET /api/labs sorts by name when asked for no sort.
      defaultSort={{ key: 'name', descending: false }}
      columns={[
        { label: 'Lab', sort: { key: 'name', fields: 'name' }, cell: (lab) => (lab.website ? <ExternalLink href={lab.website}>{lab.name}</ExternalLink> : lab.name) },
        { label: 'About', cell: (lab) => lab.description },
        { label: 'Location', cell: (lab) => lab.location },
        { label: 'Principal investigator', cell: (lab) => <PersonLink id={lab.pi}>{`Principal investigator of ${lab.name}`}</PersonLink> },
      ]}
      keyOf={(lab) => lab._id}
    />
  )
}
