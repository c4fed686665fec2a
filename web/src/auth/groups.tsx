import { useState } from 'react'
import { api, ApiError } from '../api/client'
import type { components } from '../api/schema'
import { useLoad } from '../hooks/use-load'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Title } from '../components/ui'
import { draftOf, GroupForm, type Draft } from './group-form'

type Group = components['schemas']['Group']
const empty: Draft = { name: '', description: '', permissions: [], members: [] }

/** Groups and the users' emails, to show members by email rather than by user id. */
async function loadGroups() {
  const [groups, users] = await Promise.all([
    api('get', '/api/groups', { query: { limit: 200, sort: 'name' } }),
    api('get', '/api/users', { query: { limit: 200 } }),
  ])
  return { groups, emails: new Map(users.items.map((user) => [user.id, user.email])) }
}

function GroupEntry({ group, emails, reload }: { group: Group; emails: ReadonlyMap<string, string>; reload: () => void }) {
  const [editing, setEditing] = useState(false)
  const [problem, setProblem] = useState<{ text: string; conflict: boolean } | null>(null)
  const headingId = `group-${group._id}`

  async function save(draft: Draft) {
    try {
      await api('put', '/api/groups/{id}', { path: { id: group._id }, body: { ...draft, description: draft.description || null, _version: group._version } })
      setEditing(false)
      reload()
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setProblem({ text: error.message, conflict: true })
        return
      }
      throw error
    }
  }

  async function remove() {
    setProblem(null)
    try {
      await api('delete', '/api/groups/{id}', { path: { id: group._id } })
      reload()
    } catch (error) {
      setProblem({ text: messageOf(error), conflict: false })
    }
  }

  return (
    <section aria-labelledby={headingId} className="group">
      <h2 id={headingId}>{group.name}</h2>
      {group.description && <p>{group.description}</p>}
      <dl>
        <dt>Permissions</dt><dd>{group.permissions.length ? group.permissions.join(', ') : 'none'}</dd>
        <dt>Members</dt>
        <dd>{group.members.length ? <ul>{group.members.map((id) => <li key={id}>{emails.get(id) ?? id}</li>)}</ul> : 'none'}</dd>
      </dl>
      {problem && <Alert>{problem.text}</Alert>}
      {problem?.conflict && <button type="button" onClick={reload}>Reload</button>}
      {editing
        ? <GroupForm idPrefix={`edit-${group._id}`} initial={draftOf(group)} emails={emails} submitLabel="Save" save={save} cancel={() => setEditing(false)} />
        : (
          <div className="actions">
            <button type="button" aria-label={`Edit ${group.name}`} onClick={() => { setProblem(null); setEditing(true) }}>Edit</button>
            <button type="button" aria-label={`Delete ${group.name}`} onClick={() => { void remove() }}>Delete</button>
          </div>
        )}
    </section>
  )
}

export default function Groups() {
  const [version, setVersion] = useState(0)
  const [creating, setCreating] = useState(false)
  const loaded = useLoad(loadGroups, [version])
  const reload = () => setVersion((v) => v + 1)

  async function create(draft: Draft) {
    await api('post', '/api/groups', { body: { ...draft, description: draft.description || undefined } })
    setCreating(false)
    reload()
  }

  return (
    <>
      <Title>Groups</Title>
      <Loaded state={loaded}>{(data) => (
        <>
          {creating
            ? (
              <section aria-labelledby="new-group">
                <h2 id="new-group">New group</h2>
                <GroupForm idPrefix="new" initial={empty} emails={data.emails} submitLabel="Create group" save={create} cancel={() => setCreating(false)} />
              </section>
            )
            : <button type="button" onClick={() => setCreating(true)}>New group</button>}
          {data.groups.items.length === 0 && <p>No groups yet.</p>}
          {data.groups.items.map((group) => <GroupEntry key={`${group._id}:${group._version}`} group={group} emails={data.emails} reload={reload} />)}
        </>
      )}</Loaded>
    </>
  )
}
