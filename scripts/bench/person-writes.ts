/**
 * The person write: `PUT /api/people/:id` as an admin, each request a real change (the faculty member's
 * office, set to a value never sent before), so that every request writes a new version of the record
 * (and, from b4892bc, its revision); an update that changes nothing writes nothing. Each connection
 * writes people of its own, so no two requests in flight write the same record and none waits on
 * another's compare-and-set.
 */
import type autocannon from 'autocannon'
import type { Target } from './load.js'

export const personWriteName = 'PUT /api/people/:id (a changed office each time)'

type Headers = Record<string, string>

/** Every office value sent, in this process: no request repeats one, so none is a no-op. */
let serial = 0

/** The first `count` faculty members of the department by name. */
export async function facultyToWrite(base: string, auth: Headers, count: number): Promise<string[]> {
  const response = await fetch(`${base}/api/people?type=Faculty&limit=${count}`, { headers: auth })
  if (!response.ok) throw new Error(`GET /api/people: ${response.status} ${await response.text()}`)
  const ids = ((await response.json()) as { items: { _id: string }[] }).items.map((p) => p._id)
  if (ids.length < count) throw new Error(`the department has ${ids.length} faculty, not the ${count} the writes need`)
  return ids
}

/**
 * The writes as a load target: connection i of every load writes `people[i]`, `people[i + connections]`,
 * … in turn (so with as many people as connections, each connection one person).
 */
export function personWrites(base: string, auth: Headers, people: readonly string[], connections: number, pid: number | undefined): Target {
  let clients = 0
  const headers = { ...auth, 'content-type': 'application/json' }
  const setupClient = (client: autocannon.Client) => {
    const own = people.filter((_, i) => i % connections === clients % connections)
    clients++
    let next = 0
    client.setRequests([{
      method: 'PUT',
      headers,
      setupRequest: (request) => ({
        ...request,
        path: `/api/people/${encodeURIComponent(own[next++ % own.length]!)}`,
        body: JSON.stringify({ office: `Bench office ${++serial}` }),
      }),
    }])
  }
  return { url: `${base}/api/people/${encodeURIComponent(people[0]!)}`, headers, pid, setupClient }
}
