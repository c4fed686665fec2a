import { type FormEvent } from 'react'
import { useFollowing } from '../hooks/use-following'
import { Link, useSearchParams } from 'react-router'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { useLoad } from '../hooks/use-load'
import { Loaded, Title } from '../components/ui'
import { coursePath, personPath } from '../components/links'

type Result = components['schemas']['SearchResults']['results'][number]

/** Results per search: the API's largest page. */
const limit = 50

/** Where a result opens: people and courses have pages; a lab is found in the labs list. */
function pathOf(result: Result): string {
  switch (result.kind) {
    case 'person': return personPath(result._id)
    case 'course': return coursePath(result._id)
    case 'lab': return `/labs?search=${encodeURIComponent(result.label)}`
  }
}

const kinds: Readonly<Record<Result['kind'], string>> = { person: 'Person', course: 'Course', lab: 'Lab' }

export default function Search() {
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const [typed, setTyped] = useFollowing(q)
  // The API needs two characters; a shorter query is sent anyway, so its 400 says why.
  const found = useLoad(() => (q ? api('get', '/api/search/all', { query: { q, limit } }) : Promise.resolve(null)), [q])

  function submit(event: FormEvent) {
    event.preventDefault()
    setParams(typed.trim() ? { q: typed.trim() } : {})
  }

  return (
    <>
      <Title>Search</Title>
      <form role="search" onSubmit={submit} className="list-search">
        <label htmlFor="search-q">Search people, courses and labs</label>
        <input id="search-q" type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
        <button type="submit">Search</button>
      </form>
      <Loaded state={found}>{(data) => data && (data.results.length === 0 ? <p>Nothing matches “{data.query}”.</p> : (
        <section aria-labelledby="results">
          <h2 id="results">{data.total === 1 ? '1 result' : `${data.total} results`} for “{data.query}”</h2>
          <ul className="results">
            {data.results.map((result) => (
              <li key={`${result.kind}:${result._id}`}>
                <Link to={pathOf(result)}>{result.label}</Link> <span className="kind">({kinds[result.kind]})</span>
                {result.detail && <div>{result.detail}</div>}
              </li>
            ))}
          </ul>
          {data.total > data.results.length && <p>Showing the best {data.results.length}; add words to narrow the search.</p>}
        </section>
      ))}</Loaded>
    </>
  )
}
