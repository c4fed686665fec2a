import { Link } from 'react-router'
import { api } from '../api/client'
import type { operations } from '../api/schema'
import { RecordList, pageSize, type ListQuery } from '../components/record-list'
import { personPath, personTypes } from '../components/links'

type Kind = NonNullable<NonNullable<operations['listPeople']['parameters']['query']>['type']>

/** The list route's `type` filter, in words; "Student" is both kinds of student. */
const kinds: readonly (readonly [Kind, string])[] = [
  ['Faculty', 'Faculty'],
  ['Staff', 'Staff'],
  ['Student', 'Any student'],
  ['UndergraduateStudent', 'Undergraduate student'],
  ['GraduateStudent', 'Graduate student'],
]
const isKind = (value: string | undefined): value is Kind => kinds.some(([k]) => k === value)

// Outside the page, so the list reads again only when its query changes.
const loadPeople = ({ search, offset, sort, filters }: ListQuery) => api('get', '/api/people', {
  query: { search, offset, limit: pageSize, sort, ...(isKind(filters.kind) ? { type: filters.kind } : {}) },
})

export default function People() {
  return (
    <RecordList
      title="People"
      filters={[{ param: 'kind', label: 'Kind', options: kinds }]}
      load={loadPeople}
      // GET /api/people sorts by last name, then first name, when asked for no sort.
      defaultSort={{ key: 'name', descending: false }}
      columns={[
        { label: 'Name', sort: { key: 'name', fields: 'last_name,first_name' }, cell: (person) => <Link to={personPath(person._id)}>{person.first_name} {person.last_name}</Link> },
        { label: 'Kind', cell: (person) => personTypes[person.type] ?? person.type },
        { label: 'Email', sort: { key: 'email', fields: 'email' }, cell: (person) => person.email },
        { label: 'Title', cell: (person) => person.title },
      ]}
      keyOf={(person) => person._id}
    />
  )
}
