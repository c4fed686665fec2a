import { useEffect, useState } from 'react'
import { api } from '../api/client'

/** Names already read, for this tab's life: a person's name does not change while a page is open. */
const known = new Map<string, Promise<string>>()

function nameOf(id: string): Promise<string> {
  let name = known.get(id)
  if (!name) {
    // Users with no Person (admins) and the system have no name to read; they are shown by their id.
    name = id.startsWith('User/') || !id.includes('/')
      ? Promise.resolve(id)
      : api('get', '/api/people/{id}', { path: { id } }).then((p) => `${p.first_name} ${p.last_name}`, () => id)
    known.set(id, name)
  }
  return name
}

/** A function from a person's id to their name, once read; their id until then. */
export function useNames(ids: readonly string[]): (id: string) => string {
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map())
  const wanted = [...new Set(ids)].sort().join('\n')
  useEffect(() => {
    let current = true
    const list = wanted ? wanted.split('\n') : []
    void Promise.all(list.map(async (id) => [id, await nameOf(id)] as const)).then((pairs) => { if (current) setNames(new Map(pairs)) })
    return () => { current = false }
  }, [wanted])
  return (id) => names.get(id) ?? id
}
