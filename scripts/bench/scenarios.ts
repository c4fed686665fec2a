export interface Scenario {
  readonly name: string
  readonly url: string
  readonly headers: Record<string, string>
  /** Fraction of the bare baseline's requests per second this scenario should reach. */
  readonly target?: number
}

async function json(url: string, headers: Record<string, string>): Promise<any> {
  const response = await fetch(url, { headers })
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`)
  return response.json()
}

/** The catalog reads of the foundation issue, on the sample department, uncached. */
export async function catalogScenarios(base: string, auth: Record<string, string>): Promise<Scenario[]> {
  const person = (await json(`${base}/api/people?type=Faculty&limit=1`, auth)).items[0]._id as string
  const course = (await json(`${base}/api/courses?limit=1`, auth)).items[0] as { title: string }
  const word = course.title.split(/\s+/).find((w) => w.length >= 4)?.slice(0, 4).toLowerCase() ?? 'intr'
  return [
    { name: 'GET /api/people/:id', url: `${base}/api/people/${encodeURIComponent(person)}`, headers: auth, target: 0.5 },
    { name: 'GET /api/people?limit=50&sort=last_name', url: `${base}/api/people?limit=50&sort=last_name`, headers: auth, target: 0.1 },
    { name: `GET /api/courses?search=${word}`, url: `${base}/api/courses?search=${word}`, headers: auth },
    { name: 'GET /api/schemas/Faculty', url: `${base}/api/schemas/Faculty`, headers: auth },
  ]
}
