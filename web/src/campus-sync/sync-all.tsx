import { useState } from 'react'
import { api } from '../api/client'
import { messageOf } from '../lib/errors'
import { Alert, Pending } from '../components/ui'
import { JobBar } from '../components/job-bar'
import { useJob } from '../hooks/use-job'

interface RunSummary { readonly kind: string; readonly status: string; readonly errors: number; readonly message?: string }

function runsOf(result: Record<string, unknown> | null | undefined): RunSummary[] {
  return Array.isArray(result?.runs) ? result.runs as RunSummary[] : []
}

/** The complete sync's job while it runs, then its outcome: each kind's run and the errors over them. */
function Progress({ jobId, ended }: { jobId: string; ended: () => void }) {
  const job = useJob(jobId, ended)
  if (job.state !== 'ready') return <Pending state={job} />
  const { result } = job.data
  const runs = runsOf(result)
  const message = typeof result?.message === 'string' ? result.message : null
  return (
    <section aria-labelledby="sync-all-job" className="created">
      <h3 id="sync-all-job">Sync everything: {job.data.state}</h3>
      <JobBar job={job.data} />
      {job.data.error && <Alert>{job.data.error}</Alert>}
      {message && <p role="status">{message}</p>}
      {runs.length > 0 && (
        <ul aria-label="Runs of the complete sync">
          {runs.map((run) => <li key={run.kind}>{run.kind}: {run.status}, {run.errors} {run.errors === 1 ? 'error' : 'errors'}{run.message && ` (${run.message})`}</li>)}
        </ul>
      )}
    </section>
  )
}

/**
 * "Sync everything": courses, then sections, then people as one job (POST /api/campus-sync/all,
 * docs/operations.md), the order a first sync needs, with the job's progress and outcome.
 */
export function SyncAll({ ended }: { ended: () => void }) {
  const [jobId, setJobId] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  async function start() {
    setProblem(null)
    try {
      setJobId((await api('post', '/api/campus-sync/all', { body: {} })).jobId)
    } catch (error) {
      setProblem(messageOf(error))
    }
  }

  return (
    <section aria-labelledby="sync-all">
      <h2 id="sync-all">Sync everything</h2>
      <p>Courses, then sections, then people, in the order each needs the one before; it stops at the first run that fails or is refused.</p>
      <div className="actions">
        <button type="button" onClick={() => { void start() }}>Sync everything</button>
      </div>
      {problem && <Alert>{problem}</Alert>}
      {jobId && <Progress key={jobId} jobId={jobId} ended={ended} />}
    </section>
  )
}
