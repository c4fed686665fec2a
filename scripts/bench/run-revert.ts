/**
 * A campus sync run that updated 1,000 people, and its revert (docs/history.md), all through the API of a
 * running service. A OneRoster REST feed of 1,000 teachers (one term, no classes) is served on 127.0.0.1
 * (sync-feeds.ts's server) and set as the campus sync source; a first people run creates them as
 * faculty; the feed then renames every one of them and a second people run updates the 1,000, each
 * write a new version with its revision by the run's actor (`sync:<run>`). That second run is reverted
 * (`POST /api/campus-sync/runs/:id/revert`), first as a dry run, then for real; each job is timed from
 * the request that queued it to the job seen completed (`GET /api/admin/jobs/:jobId`, polled every
 * 20 ms), and by its own start and finish. Every person the revert names is read back: each must carry
 * the name it had before the run.
 */
import { cpuTimeUs } from './scale-load.js'
import { oneRosterServer, type Feed } from './sync-feeds.js'

type Headers = Record<string, string>

export const revertedPeople = 1000

export interface JobTiming {
  /** From the request that queued the job to the job seen completed. */
  readonly seconds: number
  /** The job's own run, from its started_at to its finished_at. */
  readonly jobSeconds: number
  /** The service's CPU time (user and system) over the same span as `seconds`. */
  readonly cpuSeconds: number
  readonly result: Record<string, unknown>
}

export interface RunRevert {
  readonly people: number
  /** The first people run, which created them. */
  readonly create: JobTiming
  /** The run reverted, which renamed them. */
  readonly update: JobTiming
  readonly dryRun: JobTiming
  readonly revert: JobTiming
  /** People the revert named, and how many of them read back with their name from before the run. */
  readonly named: number
  readonly restored: number
}

const modified = '2025-08-01T12:00:00Z'
const pad = (n: number) => String(n).padStart(5, '0')
const familyName = (n: number) => `Historyfamily${pad(n)}`

function teachers(count: number): Feed {
  const base = { status: 'active', dateLastModified: modified }
  return {
    academicSessions: [{ ...base, sourcedId: 'T25F', title: '25F', type: 'term', startDate: '2025-08-25', endDate: '2025-12-15' }],
    courses: [],
    classes: [],
    enrollments: [],
    users: Array.from({ length: count }, (_, n) => ({
      ...base, sourcedId: `H${pad(n)}`, enabledUser: 'true', givenName: `Historygiven${pad(n)}`, familyName: familyName(n),
      identifier: `hist${pad(n)}`, email: `hist${pad(n)}@campus.example.edu`, roles: [{ roleType: 'primary', role: 'teacher' }],
    })),
  }
}

async function call(method: string, url: string, headers: Headers, body?: unknown): Promise<any> {
  const response = await fetch(url, {
    method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`)
  return response.json()
}

/** Queues a job by `POST path` and waits for it to complete. */
async function timedJob(base: string, headers: Headers, pid: number, path: string, body: unknown): Promise<JobTiming> {
  const cpuBefore = await cpuTimeUs(pid)
  const started = performance.now()
  const { jobId } = await call('POST', base + path, headers, body) as { jobId: string }
  for (;;) {
    const job = await call('GET', `${base}/api/admin/jobs/${encodeURIComponent(jobId)}`, headers) as {
      state: string; error: string | null; result: Record<string, unknown> | null; started_at: string | null; finished_at: string | null
    }
    if (job.state === 'completed') {
      const seconds = (performance.now() - started) / 1000
      const cpuSeconds = (await cpuTimeUs(pid) - cpuBefore) / 1e6
      const jobSeconds = job.started_at && job.finished_at ? (Date.parse(job.finished_at) - Date.parse(job.started_at)) / 1000 : Number.NaN
      return { seconds, jobSeconds, cpuSeconds, result: job.result ?? {} }
    }
    if (job.state === 'failed') throw new Error(`${path}: job ${jobId} failed: ${job.error}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** `pid`: the service's, for its CPU time. */
export async function benchRunRevert(base: string, admin: Headers, pid: number): Promise<RunRevert> {
  const feed = teachers(revertedPeople)
  const server = await oneRosterServer(feed)
  try {
    await call('PUT', `${base}/api/campus-sync/config`, admin, {
      source: { type: 'oneroster-rest', url: server.url, client_id: 'bench', client_secret: 'bench' }, delete_policy: 'keep',
    })
    const create = await timedJob(base, admin, pid, '/api/campus-sync/people', {})
    if (create.result.created !== revertedPeople) throw new Error(`the first people run created ${String(create.result.created)} people, not ${revertedPeople}`)
    const now = new Date().toISOString()
    feed.users.forEach((user, n) => Object.assign(user, { familyName: `Renamed${pad(n)}`, dateLastModified: now }))
    const update = await timedJob(base, admin, pid, '/api/campus-sync/people', {})
    if (update.result.updated !== revertedPeople) throw new Error(`the second people run updated ${String(update.result.updated)} people, not ${revertedPeople}`)
    const path = `/api/campus-sync/runs/${encodeURIComponent(`SyncRun/${String(update.result.run_id)}`)}/revert`
    const dryRun = await timedJob(base, admin, pid, path, { dryRun: true })
    const revert = await timedJob(base, admin, pid, path, {})
    const changes = (revert.result.changes ?? []) as { id: string }[]
    let restored = 0
    for (const { id } of changes) {
      const person = await call('GET', `${base}/api/people/${encodeURIComponent(id)}`, admin) as { last_name: string; source?: { sourced_id?: string } }
      const n = Number(person.source?.sourced_id?.slice(1))
      if (person.last_name === familyName(n)) restored++
    }
    return { people: revertedPeople, create, update, dryRun, revert, named: changes.length, restored }
  } finally {
    await server.close()
  }
}
