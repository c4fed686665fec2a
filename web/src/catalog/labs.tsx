import { api } from '../api/client'
import { RecordList, pageSize, type ListQuery } from '../components/record-list'
import { ExternalLink, PersonLink } from '../components/links'

// Outside the page, so the list reads again only when its query changes.
const loadLabs = ({ search, offset, sort }: ListQuery) => api('get', '/api/labs', { query: { search, offset, limit: pageSize, sort } })

export default function Labs() {
  return (
    <RecordList
      title="Labs"
      load={loadLabs}
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
