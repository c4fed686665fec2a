import { useState, type FormEvent } from 'react'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { messageOf } from '../lib/errors'
import { Alert } from '../components/ui'

type Group = components['schemas']['Group']
type Permission = components['schemas']['Permission']
type User = components['schemas']['UserDetail']
const permissions = [
  'read_people', 'read_courses', 'read_publications', 'read_labs', 'read_resources', 'write_people', 'write_courses',
  'write_publications', 'write_labs', 'write_resources', 'manage_profiles', 'manage_groups', 'manage_jobs',
] as const satisfies readonly Permission[]

export interface Draft {
  name: string
  description: string
  permissions: Permission[]
  members: string[]
}

/**
 * A group's fields: name, description, its permissions, and its members (user ids, shown by email
 * where the users list knows them; more are found by searching the users).
 */
export function GroupForm({ idPrefix, initial, emails, submitLabel, save, cancel }: {
  idPrefix: string
  initial: Draft
  emails: ReadonlyMap<string, string>
  submitLabel: string
  save: (draft: Draft) => Promise<void>
  cancel?: () => void
}) {
  const [draft, setDraft] = useState<Draft>(initial)
  const [search, setSearch] = useState('')
  const [found, setFound] = useState<User[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const known = new Map(emails)
  for (const user of found ?? []) known.set(user.id, user.email)

  const toggle = <K extends 'permissions' | 'members'>(key: K, value: Draft[K][number], on: boolean) => {
    const without = (draft[key] as string[]).filter((v) => v !== value)
    setDraft({ ...draft, [key]: on ? [...without, value] : without })
  }

  async function find() {
    setProblem(null)
    try {
      setFound((await api('get', '/api/users', { query: { search: search.trim(), limit: 20 } })).items)
    } catch (error) {
      setProblem(messageOf(error))
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setProblem(null)
    try {
      await save(draft)
    } catch (error) {
      setProblem(messageOf(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={(event) => { void submit(event) }} className="group-form">
      <label htmlFor={`${idPrefix}-name`}>Name</label>
      <input id={`${idPrefix}-name`} required value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.target.value })} />
      <label htmlFor={`${idPrefix}-description`}>Description</label>
      <input id={`${idPrefix}-description`} value={draft.description} onChange={(event) => setDraft({ ...draft, description: event.target.value })} />
      <fieldset>
        <legend>Permissions</legend>
        {permissions.map((p) => (
          <label key={p} className="check">
            <input type="checkbox" checked={draft.permissions.includes(p)} onChange={(event) => toggle('permissions', p, event.target.checked)} /> {p}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Members</legend>
        {draft.members.length === 0 && <p>No members.</p>}
        {draft.members.map((id) => (
          <label key={id} className="check">
            <input type="checkbox" checked onChange={() => toggle('members', id, false)} /> {known.get(id) ?? id}
          </label>
        ))}
        <label htmlFor={`${idPrefix}-find`}>Find a user to add</label>
        <input id={`${idPrefix}-find`} type="search" value={search} onChange={(event) => setSearch(event.target.value)} />{' '}
        <button type="button" disabled={!search.trim()} onClick={() => { void find() }}>Find users</button>
        {found && (found.length === 0 ? <p>No user matches.</p> : (
          <ul>
            {found.filter((user) => !draft.members.includes(user.id)).map((user) => (
              <li key={user.id}><button type="button" onClick={() => toggle('members', user.id, true)}>Add {user.email}</button></li>
            ))}
          </ul>
        ))}
      </fieldset>
      {problem && <Alert>{problem}</Alert>}
      <div className="actions">
        <button type="submit" disabled={busy}>{submitLabel}</button>
        {cancel && <button type="button" onClick={cancel}>Cancel</button>}
      </div>
    </form>
  )
}

export function draftOf(group: Group): Draft {
  return { name: group.name, description: group.description ?? '', permissions: [...group.permissions], members: [...group.members] }
}
