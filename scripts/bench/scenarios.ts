export interface Scenario {
  readonly name: string
  readonly url: string
  readonly headers: Record<string, string>
  /** Fraction of the bare baseline's requests per second this scenario should reach. */
  readonly target?: number
  /** For a replay of recorded answers: the scenario whose answers it sends. */
  readonly replays?: string
}

export const personByToken = 'GET /api/people/:id'
export const personByKey = 'GET /api/people/:id with an API key'

async function json(url: string, init: RequestInit): Promise<any> {
  const response = await fetch(url, init)
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`)
  return response.json()
}

/** A key for the catalog reads, created through the API as an admin would. */
async function apiKey(base: string, auth: Record<string, string>): Promise<string> {
  const created = await json(`${base}/api/api-keys`, {
    method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Benchmark reader', permissions: ['read_people', 'read_courses'] }),
  })
  return created.key as string
}

/** The catalog reads of the foundation issue, on the sample department, uncached, and the same read by API key. */
export async function catalogScenarios(base: string, auth: Record<string, string>): Promise<Scenario[]> {
  const person = (await json(`${base}/api/people?type=Faculty&limit=1`, { headers: auth })).items[0]._id as string
  const course = (await json(`${base}/api/courses?limit=1`, { headers: auth })).items[0] as { title: string }
  const word = course.title.split(/\s+/).find((w) => w.length >= 4)?.slice(0, 4).toLowerCase() ?? 'intr'
  const personUrl = `${base}/api/people/${encodeURIComponent(person)}`
  return [
    { name: personByToken, url: personUrl, headers: auth, target: 0.5 },
    { name: personByKey, url: personUrl, headers: { 'X-API-Key': await apiKey(base, auth) } },
    { name: 'GET /api/people?limit=50&sort=last_name', url: `${base}/api/people?limit=50&sort=last_name`, headers: auth, target: 0.1 },
    { name: `GET /api/courses?search=${word}`, url: `${base}/api/courses?search=${word}`, headers: auth },
    { name: 'GET /api/schemas/Faculty', url: `${base}/api/schemas/Faculty`, headers: auth },
  ]
}
