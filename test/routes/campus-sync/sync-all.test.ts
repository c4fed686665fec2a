/**
 * POST /api/campus-sync/all over the real app, on the sample package (what a fresh `npm start` syncs
 * with nothing configured): courses, sections and people as one job, in order.
 */
import t from 'tap'
import type { JobView } from '../../../src/jobs/port.js'
import { buildTestApp } from '../../helpers/app.js'
import { until } from '../../jobs/contract.js'
import { provider } from '../../campus-sync/support.js'
import { accepted, admin, restSource, type Caller } from './support.js'

/** The job once it has completed or failed; the sample package on a shared machine can take minutes. */
function settled(caller: Caller, id: string): Promise<JobView> {
  return until(async () => {
    const job = (await caller({ method: 'GET', url: `/api/admin/jobs/${id}` })).json() as JobView
    return job.state === 'completed' || job.state === 'failed' ? job : null
  }, `job ${id}`, 300_000)
}

interface Summary { kind: string; status: string; errors: number; message?: string }
interface Run { kind: string; status: string; errors: unknown[]; message?: string; skipped: number }

t.test('a people-only run on a fresh store says once which run to do first, not an error per enrollment', async (t) => {
  const { as } = await buildTestApp(t)
  const ops = as(admin, 'admin')
  const job = await settled(ops, await accepted(t, ops, '/api/campus-sync/people'))
  t.equal(job.state, 'completed', `${job.error ?? ''}`)
  const result = job.result as unknown as { errors: unknown[]; message?: string; skipped: number }
  t.same(result.errors, [], 'no row in error for the classes never synced')
  t.match(result.message, /^sync sections first: Section-\S+ is not synced yet \(and \d+ other classes\); \d+ enrollments in them left out$/, 'one sentence naming the run to do first')
  t.equal(result.message!.match(/sync sections first/g)!.length, 1, 'said once')
  const run = (await ops({ method: 'GET', url: '/api/campus-sync/runs?kind=people' })).json().items[0] as Run
  t.equal(run.message, result.message, 'the run record says so too')
  t.same(run.errors, [])
})

t.test('"sync everything" runs courses, sections and people in order as one job, with 0 errors on the sample package', async (t) => {
  const { as, app } = await buildTestApp(t)
  const ops = as(admin, 'admin')
  const jobId = await accepted(t, ops, '/api/campus-sync/all')
  t.equal(await accepted(t, ops, '/api/campus-sync/all'), jobId, 'a second request while it waits or runs answers the same job')
  const job = await settled(ops, jobId)
  t.match(job, { queue: 'campus-sync', name: 'all', state: 'completed', progress: { percent: 100 } }, `${job.error ?? ''}`)
  const result = job.result as unknown as { status: string; errors: number; runs: Summary[]; message: string }
  t.equal(result.status, 'completed')
  t.same(result.runs.map((r) => [r.kind, r.status, r.errors]), [['courses', 'completed', 0], ['sections', 'completed', 0], ['people', 'completed', 0]], 'three runs, in order, none with an error')
  t.equal(result.errors, 0)
  t.equal(result.runs.find((r) => r.kind === 'people')!.message, undefined, 'the people run met no class left unsynced')
  const runs = (await ops({ method: 'GET', url: '/api/campus-sync/runs' })).json().items as Run[]
  t.same(runs.map((r) => [r.kind, r.status, r.errors.length]), [['people', 'completed', 0], ['sections', 'completed', 0], ['courses', 'completed', 0]], "each kind's run record, as a run of one kind leaves it")
  t.ok((await app.records.find(app.schema.class('Enrollment')!, {})).length > 0, 'enrollments written')
})

t.test('POST /api/campus-sync/all takes only a known term, and only from holders of manage_jobs', async (t) => {
  const { as } = await buildTestApp(t)
  const ops = as(admin, 'admin')
  const bad = await ops({ method: 'POST', url: '/api/campus-sync/all', payload: { dryRun: true } })
  t.equal(bad.statusCode, 400, 'no dry run of everything: a sections dry run after unwritten courses would say nothing')
  const unknownTerm = await ops({ method: 'POST', url: '/api/campus-sync/all', payload: { term: '99F' } })
  t.equal(unknownTerm.statusCode, 400, 'a term the source does not have')
  const staff = as('someone@dept.example.edu', 'staff')
  t.equal((await staff({ method: 'POST', url: '/api/campus-sync/all' })).statusCode, 403, 'only holders of manage_jobs')
})

t.test('a complete sync stops at the first run refused and says which; the later kinds do not run', async (t) => {
  const { as } = await buildTestApp(t)
  const ops = as(admin, 'admin')
  const p = await provider(t)
  t.equal((await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(p.url) } })).statusCode, 200)
  const first = await settled(ops, await accepted(t, ops, '/api/campus-sync/all'))
  t.match(first, { state: 'completed', result: { status: 'completed', errors: 0 } }, 'the first complete sync')
  // Every course of the feed ends: deactivating all of them is over the guard's limit, so courses are refused.
  for (const course of p.feed.courses) Object.assign(course, { status: 'tobedeleted', dateLastModified: '2030-01-01T00:00:00Z' })
  const job = await settled(ops, await accepted(t, ops, '/api/campus-sync/all'))
  t.equal(job.state, 'completed', 'a refusal is an answer, not a failed job')
  const result = job.result as unknown as { status: string; stopped_at: string; message: string; runs: Summary[] }
  t.match(result, { status: 'refused', stopped_at: 'courses' })
  t.match(result.message, /^stopped at courses: Refused: the sync would deactivate 2 of 2 active course records/)
  t.same(result.runs.map((r) => [r.kind, r.status]), [['courses', 'refused']], 'sections and people never ran')
  const runs = (await ops({ method: 'GET', url: '/api/campus-sync/runs' })).json().items as Run[]
  t.same(runs.map((r) => [r.kind, r.status]), [['courses', 'refused'], ['people', 'completed'], ['sections', 'completed'], ['courses', 'completed']], 'only the refused courses run was added')
})
