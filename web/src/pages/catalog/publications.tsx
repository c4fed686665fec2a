import { api } from '../../api/client'
import { RecordList, pageSize } from './list'
import { ExternalLink } from './links'

export default function Publications() {
  return (
    <RecordList
      title="Publications"
      load={(search, offset) => api('get', '/api/publications', { query: { search, offset, limit: pageSize } })}
      columns={['Title', 'Authors', 'Venue', 'Year', 'Citations']}
      keyOf={(publication) => publication._id}
      row={(publication) => (
        <>
          <td>{publication.url ? <ExternalLink href={publication.url}>{publication.title}</ExternalLink> : publication.title}</td>
          <td>{publication.authors.join(', ')}</td>
          <td>{publication.venue}</td>
          <td>{publication.year}</td>
          <td>{publication.citation_count}</td>
        </>
      )}
    />
  )
}
