import { useState, type FormEvent } from 'react'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { ScrollRegion } from '../components/scroll-region'
import { useLoad } from '../hooks/use-load'
import { when } from '../lib/dates'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Title } from '../components/ui'
import { Pager } from '../components/pager'

type Role = components['schemas']['Role']
type User = components['schemas']['UserDetail']
const roles = ['admin', 'faculty', 'staff', 'student', 'user'] as const satisfies readonly Role[]
const pageSize = 50

function nameOf(user: User): string {
  return user.displayName ?? ([user.firstName, user.lastName].filter(Boolean).join(' ') || '—')
}

/** One user's row: the role the API holds, and a change of it through PUT /api/users/:id. */
function UserRow({ user, changed }: { user: User; changed: (text: string | null, failed?: boolean) => void }) {
  const [role, setRole] = useState<Role>(user.role)
  const [busy, setBusy] = useState(false)
  const selectId = `role-${user.id}`

  async function change() {
    setBusy(true)
    changed(null)
    try {
      const answer = await api('put', '/api/users/{id}', { path: { id: user.id }, body: { role } })
      changed(`${answer.email} is now ${answer.role}.`)
    } catch (error) {
      changed(messageOf(error), true)
      setRole(user.role)
    } finally {
      setBusy(false)
    }
  }

  return (
    <tr>
      <td>{user.email}</td>
      <td>{nameOf(user)}</td>
      <td data-testid="role">{user.role}</td>
      <td>{user.campusId ?? '—'}</td>
      <td>{when(user.lastLoginAt)}</td>
      <td>
        <label htmlFor={selectId} className="visually-hidden">New role for {user.email}</label>
        <select id={selectId} value={role} onChange={(event) => setRole(event.target.value as Role)}>
          {roles.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>{' '}
        <button type="button" disabled={busy || role === user.role} onClick={() => { void change() }}>Change role</button>
      </td>
    </tr>
  )
}

export default function Users() {
  const [search, setSearch] = useState('')
  const [role, setRole] = useState<Role | ''>('')
  const [query, setQuery] = useState<{ search?: string; role?: Role; offset: number }>({ offset: 0 })
  const [version, setVersion] = useState(0)
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null)
  const users = useLoad(() => api('get', '/api/users', { query: { ...query, limit: pageSize } }), [query], version)

  function filter(event: FormEvent) {
    event.preventDefault()
    setQuery({ ...(search.trim() ? { search: search.trim() } : {}), ...(role ? { role } : {}), offset: 0 })
  }

  function changed(text: string | null, failed = false) {
    setOutcome(text === null ? null : { ok: !failed, text })
    if (text !== null && !failed) setVersion((v) => v + 1)
  }

  return (
    <>
      <Title>Users</Title>
      <form onSubmit={filter} aria-label="Find users" className="filters">
        <label htmlFor="user-search">Search</label>
        <input id="user-search" type="search" maxLength={200} value={search} onChange={(event) => setSearch(event.target.value)} />
        <label htmlFor="user-role">Role</label>
        <select id="user-role" value={role} onChange={(event) => setRole(event.target.value as Role | '')}>
          <option value="">Any role</option>
          {roles.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
        <button type="submit">Find</button>
      </form>
      {outcome && (outcome.ok ? <p role="status">{outcome.text}</p> : <Alert>{outcome.text}</Alert>)}
      <Loaded state={users}>{(data) => (data.items.length === 0 ? <p>No user matches.</p> : (
        <>
          <ScrollRegion label={`${data.total} ${data.total === 1 ? 'user' : 'users'}`}>
            <table>
              <caption>{data.total} {data.total === 1 ? 'user' : 'users'}</caption>
              <thead>
                <tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Campus id</th><th scope="col">Last single sign-on</th><th scope="col">Change role</th></tr>
              </thead>
              <tbody>
                {data.items.map((user) => <UserRow key={`${user.id}:${user.role}`} user={user} changed={changed} />)}
              </tbody>
            </table>
          </ScrollRegion>
          <Pager offset={data.offset} limit={data.limit} total={data.total} go={(offset) => setQuery({ ...query, offset })} />
        </>
      ))}</Loaded>
    </>
  )
}
