import { useState, type FormEvent } from 'react'
import { api } from '../api/client'
import type { operations } from '../api/schema'
import { useMe } from '../session/me'
import { useLoad } from '../hooks/use-load'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Title } from '../components/ui'
import { when } from '../lib/dates'

type Grantable = operations['createApiKey']['requestBody']['content']['application/json']['permissions'][number]
/** The permissions a key may carry (the API's list); the form offers those the caller holds. */
const grantable = ['read_people', 'read_courses', 'read_publications', 'read_labs', 'read_resources', 'write_courses', 'write_publications', 'write_labs', 'write_resources'] as const satisfies readonly Grantable[]

export default function ApiKeys() {
  const me = useMe()
  const held = grantable.filter((p) => (me.permissions as readonly string[]).includes(p))
  const [version, setVersion] = useState(0)
  const keys = useLoad(() => api('get', '/api/api-keys'), [], version)
  const [name, setName] = useState('')
  const [chosen, setChosen] = useState<Set<Grantable>>(new Set())
  const [days, setDays] = useState('90')
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [copied, setCopied] = useState(false)

  async function run(action: () => Promise<unknown>) {
    setProblem(null)
    try {
      await action()
      setVersion((v) => v + 1)
    } catch (error) {
      setProblem(messageOf(error))
    }
  }

  function create(event: FormEvent) {
    event.preventDefault()
    setCopied(false)
    void run(async () => {
      const answer = await api('post', '/api/api-keys', { body: { name, permissions: [...chosen], expiresInDays: Number(days) } })
      setCreated({ name: answer.name, key: answer.key })
      setName('')
      setChosen(new Set())
    })
  }

  function toggle(permission: Grantable, on: boolean) {
    const next = new Set(chosen)
    if (on) next.add(permission)
    else next.delete(permission)
    setChosen(next)
  }

  return (
    <>
      <Title>API keys</Title>
      <form onSubmit={create} aria-labelledby="new-key">
        <h2 id="new-key">New key</h2>
        <label htmlFor="key-name">Name</label>
        <input id="key-name" required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
        <fieldset>
          <legend>Permissions</legend>
          {held.length === 0 && <p>You hold no permission a key can carry.</p>}
          {held.map((permission) => (
            <label key={permission} className="check">
              <input type="checkbox" checked={chosen.has(permission)} onChange={(event) => toggle(permission, event.target.checked)} /> {permission}
            </label>
          ))}
        </fieldset>
        <label htmlFor="key-days">Expires in (days)</label>
        <input id="key-days" type="number" min={1} max={365} required value={days} onChange={(event) => setDays(event.target.value)} />
        <div className="actions"><button type="submit">Create key</button></div>
      </form>
      {problem && <Alert>{problem}</Alert>}
      {created && (
        <section aria-labelledby="created-key" className="created">
          <h2 id="created-key">Key “{created.name}” created</h2>
          <p>Copy it now: it is shown only once.</p>
          <p><code data-testid="new-key">{created.key}</code></p>
          <button type="button" onClick={() => { void navigator.clipboard.writeText(created.key).then(() => setCopied(true), () => setProblem('The browser refused to copy; select the key and copy it yourself')) }}>Copy</button>
          {copied && <span role="status"> Copied.</span>}
        </section>
      )}
      <h2>Your keys</h2>
      <Loaded state={keys}>{(data) => (data.items.length === 0 ? <p>You have no keys.</p> : (
        <table>
          <thead>
            <tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Permissions</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Actions</th></tr>
          </thead>
          <tbody>
            {data.items.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td><code>{key.prefix}</code></td>
                <td>{key.permissions.join(', ')}</td>
                <td>{key.status}</td>
                <td>{when(key.createdAt, 'never')}</td>
                <td>{when(key.lastUsedAt, 'never')}</td>
                <td>
                  {key.status === 'active'
                    ? <button type="button" onClick={() => { void run(() => api('post', '/api/api-keys/{id}/revoke', { path: { id: key.id } })) }}>Revoke</button>
                    : <button type="button" onClick={() => { void run(() => api('delete', '/api/api-keys/{id}', { path: { id: key.id } })) }}>Delete</button>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}</Loaded>
    </>
  )
}
