import type { Scenario } from './scenarios.js'

/** Reads a URL until the service answers it from the cache; a service started with CACHE=off never does. */
async function warmed(url: string, headers: Record<string, string>): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const response = await fetch(url, { headers })
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`)
    await response.arrayBuffer()
    if (response.headers.get('x-cache') === 'hit') return
  }
  throw new Error(`${url} is not served from the cache; is the service running with CACHE=off?`)
}

/** The cached reads of the privacy issue, measured warm: every request of the run is a cache hit. */
export async function cacheScenarios(base: string, auth: Record<string, string>): Promise<Scenario[]> {
  const response = await fetch(`${base}/api/people?type=Faculty&limit=1`, { headers: auth })
  if (!response.ok) throw new Error(`listing faculty: ${response.status}`)
  const person = ((await response.json()) as { items: { _id: string }[] }).items[0]!._id
  const scenarios: Scenario[] = [
    { name: 'cached GET /api/people/:id', url: `${base}/api/people/${encodeURIComponent(person)}`, headers: auth, target: 0.7 },
    { name: 'cached GET /api/people?limit=50', url: `${base}/api/people?limit=50`, headers: auth, target: 0.4 },
  ]
  for (const scenario of scenarios) await warmed(scenario.url, auth)
  return scenarios
}
