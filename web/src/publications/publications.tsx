import { useSearchParams } from 'react-router'
import { api } from '../api/client'
import { useLoad } from '../hooks/use-load'
import { RecordList, pageSize, type ListQuery } from '../components/record-list'
import { ExternalLink } from '../components/links'

// Outside the page, so the list reads again only when its query changes.
const loadPublications = ({ search, offset, sort, filters }: ListQuery) => api('get', '/api/publications', {
  query: {
    search, offset, limit: pageSize, sort,
    // A year that is not a number goes as typed, so the server's refusal says what is wrong.
    ...(filters.year ? { year: filters.year as unknown as number } : {}),
    ...(filters.author ? { author: filters.author } : {}),
  },
})

export default function Publications() {
  // Authors to filter by: the department's faculty, as pickers elsewhere offer them. A link naming
  // another author (a student) still filters, and its choice is kept as the id.
  const faculty = useLoad(() => api('get', '/api/people/faculty-options'), [])
  const authors = faculty.state === 'ready' ? faculty.data.items.map((f) => [f._id, f.label] as const) : []
  const [params] = useSearchParams()
  const linked = params.get('author')
  const options = linked && !authors.some(([id]) => id === linked) ? [...authors, [linked, linked] as const] : authors
  return (
    <RecordList
      title="Publications"
      filters={[
        { param: 'year', label: 'Year', numeric: true, size: 5, hint: 'e.g. 2024' },
        { param: 'author', label: 'Author', options },
      ]}
      load={loadPublications}
      // GET /api/publications sorts newest year first, then by title, when asked for no sort.
      defaultSort={{ key: 'year', descending: true }}
      columns={[
        { label: 'Title', sort: { key: 'title', fields: 'title' }, cell: (p) => (p.url ? <ExternalLink href={p.url}>{p.title}</ExternalLink> : p.title) },
        { label: 'Authors', cell: (p) => p.authors.join(', ') },
        { label: 'Venue', cell: (p) => p.venue },
        { label: 'Year', sort: { key: 'year', fields: 'year' }, cell: (p) => p.year },
        { label: 'Citations', sort: { key: 'citations', fields: 'citation_count' }, cell: (p) => p.citation_count },
      ]}
      keyOf={(p) => p._id}
    />
  )
}
