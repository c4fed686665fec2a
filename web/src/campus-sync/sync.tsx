import { useState, type FormEvent } from 'react'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { ScrollRegion } from '../components/scroll-region'
import { useLoad } from '../hooks/use-load'
import { when } from '../lib/dates'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Pending, Title } from '../components/ui'
import { JobBar } from '../components/job-bar'
import { useJob } from '../hooks/use-job'
import { SyncAll } from './sync-all'
import { SyncConfig } from './sync-config'
import { changesOf, SyncDiff } from './sync-diff'
import { SyncRevert } from './sync-revert'

type Run = components['schemas']['CampusSyncRun']
const kinds = ['courses', 'sections', 'people'] as const
type Kind = (typeof kinds)[number]
const startPaths = { courses: '/api/campus-sync/courses', sections: '/api/campus-sync/sections', people: '/api/campus-sync/people' } as const

function Terms({ version }: { version: number }) {
  const terms = useLoad(() => api('get', '/api/campus-sync/terms'), [], version)
  return (
    <section aria-labelledby="sync-terms">
      <h2 id="sync-terms">Terms</h2>
      <Loaded state={terms}>{(data) => (data.items.length === 0 ? <p>The source has no terms.</p> : (
        <ScrollRegion label="The source's terms">
          <table>
            <caption>The source's terms</caption>
            <thead><tr><th scope="col">Code</th><th scope="col">Title</th><th scope="col">Start</th><th scope="col">End</th><th scope="col">In the source</th><th scope="col">Synced</th></tr></thead>
            <tbody>
              {data.items.map((term) => (
                <tr key={term.code}><td>{term.code}</td><td>{term.title ?? '—'}</td><td>{term.start ?? '—'}</td><td>{term.end ?? '—'}</td><td>{term.in_source ? 'yes' : 'no'}</td><td>{term.synced ? 'yes' : 'no'}</td></tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ))}</Loaded>
    </section>
  )
}

/** The job a run was given, followed while it runs; a dry run's diff once it has finished. */
function Watched({ jobId, ended }: { jobId: string; ended: () => void }) {
  const job = useJob(jobId, ended)
  if (job.state !== 'ready') return <Pending state={job} />
  const { result } = job.data
  const changes = changesOf(result)
  const message = result && typeof result.message === 'string' ? result.message : null
  return (
    <section aria-labelledby="sync-job" className="created">
      <h3 id="sync-job">{job.data.data.dryRun === true ? 'Dry run' : 'Run'} of {job.data.name}: {job.data.state}</h3>
      <JobBar job={job.data} />
      {job.data.error && <Alert>{job.data.error}</Alert>}
      {result && typeof result.status === 'string' && <p>Outcome: {result.status}{message && `: ${message}`}</p>}
      {changes && <SyncDiff changes={changes} />}
    </section>
  )
}

function Start({ started }: { started: (jobId: string) => void }) {
  const [kind, setKind] = useState<Kind>('courses')
  const [term, setTerm] = useState('')
  const [problem, setProblem] = useState<string | null>(null)

  async function start(dryRun: boolean, event?: FormEvent) {
    event?.preventDefault()
    setProblem(null)
    try {
      const { jobId } = await api('post', startPaths[kind], { body: { dryRun, ...(term.trim() ? { term: term.trim() } : {}) } })
      started(jobId)
    } catch (error) {
      setProblem(messageOf(error))
    }
  }

  return (
    <form onSubmit={(event) => { void start(true, event) }} aria-labelledby="sync-start">
      <h2 id="sync-start">Run a sync</h2>
      <label htmlFor="sync-kind">What to sync</label>
      <select id="sync-kind" value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
        {kinds.map((k) => <option key={k} value={k}>{k}</option>)}
      </select>
      <label htmlFor="sync-term">Term (optional)</label>
      <input id="sync-term" value={term} onChange={(event) => setTerm(event.target.value)} />
      <div className="actions">
        <button type="submit">Dry run</button>
        <button type="button" onClick={() => { void start(false) }}>Run sync</button>
      </div>
      {problem && <Alert>{problem}</Alert>}
    </form>
  )
}

function RunErrors({ run }: { run: Run }) {
  if (run.errors.length === 0) return <>0</>
  return (
    <details>
      <summary>{run.errors.length} {run.errors.length === 1 ? 'error' : 'errors'}</summary>
      <ul>{run.errors.map((e, i) => <li key={i}>Row {e.row} ({e.sourced_id}): {e.message}</li>)}</ul>
    </details>
  )
}

/** Which run a run reverts, or was reverted by, and "Revert" for a run that wrote (a dry run wrote nothing). */
function RunRevert({ run, revert }: { run: Run; revert: (id: string) => void }) {
  return (
    <>
      {run.reverts && <p>reverts {run.reverts}</p>}
      {run.reverted_by && <p>reverted by {run.reverted_by}</p>}
      {!run.dry_run && (
        <button type="button" onClick={() => revert(run._id)}>Revert<span className="visually-hidden"> run {run._id}</span></button>
      )}
    </>
  )
}

function Runs({ version, revert }: { version: number; revert: (id: string) => void }) {
  const runs = useLoad(() => api('get', '/api/campus-sync/runs', { query: { limit: 50 } }), [], version)
  return (
    <section aria-labelledby="sync-runs">
      <h2 id="sync-runs">Runs</h2>
      <Loaded state={runs}>{(data) => (data.items.length === 0 ? <p>No runs yet.</p> : (
        <ScrollRegion label={`${data.total} ${data.total === 1 ? 'run' : 'runs'}, newest first`}>
          <table>
            <caption>{data.total} {data.total === 1 ? 'run' : 'runs'}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Kind</th><th scope="col">Term</th><th scope="col">Dry run</th><th scope="col">Status</th><th scope="col">Started</th><th scope="col">Finished</th>
                <th scope="col">Rows</th><th scope="col">Created</th><th scope="col">Updated</th><th scope="col">Unchanged</th><th scope="col">Deactivated</th><th scope="col">Skipped</th><th scope="col">Errors</th>
                <th scope="col">Revert</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((run) => (
                <tr key={run._id}>
                  <td>{run.kind}</td><td>{run.term ?? 'all'}</td><td>{run.dry_run ? 'yes' : 'no'}</td>
                  <td>{run.status}{run.message && `: ${run.message}`}</td><td>{when(run.started_at)}</td><td>{when(run.finished_at)}</td>
                  <td>{run.rows ?? '—'}</td><td>{run.created}</td><td>{run.updated}</td><td>{run.unchanged}</td><td>{run.deactivated}</td><td>{run.skipped}</td>
                  <td><RunErrors run={run} /></td>
                  <td><RunRevert run={run} revert={revert} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ))}</Loaded>
    </section>
  )
}

export default function Sync() {
  const [configVersion, setConfigVersion] = useState(0)
  const [runsVersion, setRunsVersion] = useState(0)
  const [jobId, setJobId] = useState<string | null>(null)
  const [reverting, setReverting] = useState<string | null>(null)
  return (
    <>
      <Title>Campus sync</Title>
      <SyncConfig changed={() => setConfigVersion((v) => v + 1)} />
      <Terms version={configVersion} />
      <SyncAll ended={() => setRunsVersion((v) => v + 1)} />
      <Start started={setJobId} />
      {jobId && <Watched key={jobId} jobId={jobId} ended={() => setRunsVersion((v) => v + 1)} />}
      {reverting && <SyncRevert key={reverting} run={reverting} close={() => setReverting(null)} ended={() => setRunsVersion((v) => v + 1)} />}
      <Runs version={runsVersion} revert={setReverting} />
    </>
  )
}
