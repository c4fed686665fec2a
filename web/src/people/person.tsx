import { useState } from 'react'
import { useParams } from 'react-router'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { useLoad } from '../hooks/use-load'
import { Loaded, Pending, Title } from '../components/ui'
import { HistoryPanel, recordHistory } from '../history'
import { ExternalLink, PersonLink, personTypes } from '../components/links'

type Person = components['schemas']['Person']

/** The text fields of a profile worth a line each, in reading order. */
const details: readonly [keyof Person, string][] = [
  ['title', 'Title'], ['rank', 'Rank'], ['area', 'Research area'], ['unit', 'Unit'], ['email', 'Email'],
  ['office', 'Office'], ['phone', 'Phone'], ['class_year', 'Class year'], ['year_in_program', 'Year in program'],
]

/** A referenced person by name, as the API shows them to the caller (their id when it shows nothing). */
function Named({ id }: { id: string }) {
  const person = useLoad(() => api('get', '/api/people/{id}', { path: { id } }), [id])
  return <PersonLink id={id}>{person.state === 'ready' ? `${person.data.first_name} ${person.data.last_name}` : id}</PersonLink>
}

function People({ label, ids }: { label: string; ids: readonly string[] | undefined }) {
  if (!ids?.length) return null
  return (
    <>
      <dt>{label}</dt>
      <dd><ul>{ids.map((id) => <li key={id}><Named id={id} /></li>)}</ul></dd>
    </>
  )
}

function Profile({ person }: { person: Person }) {
  const publications = useLoad(() => api('get', '/api/people/{id}/publications', { path: { id: person._id }, query: { limit: 50 } }), [person._id])
  return (
    <>
      <dl>
        <dt>Kind</dt><dd>{personTypes[person.type] ?? person.type}</dd>
        {details.map(([field, label]) => person[field] !== undefined && <div key={field}><dt>{label}</dt><dd>{String(person[field])}</dd></div>)}
        {person.website && <><dt>Website</dt><dd><ExternalLink href={person.website}>{person.website}</ExternalLink></dd></>}
        <People label="Advisor" ids={person.advisors} />
        <People label="Committee member" ids={person.committee} />
      </dl>
      {person.bio && <><h2>About</h2><p className="bio">{person.bio}</p></>}
      {person.education.length > 0 && <><h2>Education</h2><ul>{person.education.map((line) => <li key={line}>{line}</li>)}</ul></>}
      {!!person.research_interests?.length && <><h2>Research interests</h2><ul>{person.research_interests.map((topic) => <li key={topic}>{topic}</li>)}</ul></>}
      <h2>Publications</h2>
      <Loaded state={publications}>{(data) => (data.items.length === 0 ? <p>None listed.</p> : (
        <ul>
          {data.items.map((p) => <li key={p._id}>{p.url ? <ExternalLink href={p.url}>{p.title}</ExternalLink> : p.title}{p.venue && `, ${p.venue}`}{p.year !== undefined && ` (${p.year})`}</li>)}
        </ul>
      ))}</Loaded>
    </>
  )
}

export default function PersonPage() {
  const id = useParams().id ?? ''
  const person = useLoad(() => api('get', '/api/people/{id}', { path: { id } }), [id])
  if (person.state !== 'ready') return <Pending title="Person" state={person} />
  return <Shown initial={person.data} />
}

/** The person as read, until the History panel answers it as it is now (restored, or read again). */
function Shown({ initial }: { initial: Person }) {
  const [person, setPerson] = useState(initial)
  return (
    <>
      <Title>{`${person.first_name} ${person.last_name}`}</Title>
      <Profile person={person} />
      <HistoryPanel source={recordHistory('/api/people', person._id)} restore={{ base: '/api/people', record: person, onRecord: setPerson }} />
    </>
  )
}
