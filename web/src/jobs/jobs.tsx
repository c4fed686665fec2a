import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { ScrollRegion } from '../components/scroll-region'
import { when } from '../lib/dates'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Title } from '../components/ui'
import { JobBar } from '../components/job-bar'
import { running, usePolled } from '../hooks/use-polled'

type Job = components['schemas']['Job']
type State = Job['state']
type Queue = components['schemas']['Queue']
const states = ['waiting', 'active', 'completed', 'failed', 'delayed'] as const satisfies readonly State[]

function Queues({ queues, act }: { queues: readonly Queue[]; act: (name: string, paused: boolean) => void }) {
  return (
    <ScrollRegion label="Queues">
      <table>
        <caption>Queues</caption>
        <thead>
          <tr><th scope="col">Queue</th>{states.map((s) => <th key={s} scope="col">{s}</th>)}<th scope="col">Paused</th><th scope="col">Actions</th></tr>
        </thead>
        <tbody>
          {queues.map((queue) => (
            <tr key={queue.name}>
              <th scope="row">{queue.name}</th>
              {states.map((s) => <td key={s}>{queue.counts[s]}</td>)}
              <td>{queue.paused ? 'yes' : 'no'}</td>
              <td>
                <button type="button" aria-label={`${queue.paused ? 'Resume' : 'Pause'} ${queue.name}`} onClick={() => act(queue.name, queue.paused)}>
                  {queue.paused ? 'Resume' : 'Pause'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  )
}

/** The queues and the jobs the filters select, read together so their counts and rows agree. */
async function loadJobs(queue: string, state: State | '') {
  const [queues, jobs] = await Promise.all([
    api('get', '/api/queues'),
    api('get', '/api/admin/jobs', { query: { limit: 50, ...(queue ? { queue } : {}), ...(state ? { state } : {}) } }),
  ])
  return { queues, jobs }
}

const stateOf = (value: string | null): State | '' => (states as readonly string[]).includes(value ?? '') ? value as State : ''

export default function Jobs() {
  // The filters are in the address, so the dashboard links to the failed jobs and a link shares a view.
  const [params, setParams] = useSearchParams()
  const queue = params.get('queue') ?? ''
  const state = stateOf(params.get('state'))
  const filter = (name: 'queue' | 'state', value: string) => setParams((current) => {
    const next = new URLSearchParams(current)
    if (value) next.set(name, value)
    else next.delete(name)
    return next
  }, { replace: true })
  const [problem, setProblem] = useState<string | null>(null)
  const [loaded, reload] = usePolled(() => loadJobs(queue, state), [queue, state], (data) => data.jobs.items.some(running))

  async function act(action: () => Promise<unknown>) {
    setProblem(null)
    try {
      await action()
    } catch (error) {
      setProblem(messageOf(error))
    }
    reload()
  }

  const pauseOrResume = (name: string, paused: boolean) => {
    void act(() => api('post', paused ? '/api/queues/{queueName}/resume' : '/api/queues/{queueName}/pause', { path: { queueName: name } }))
  }
  const retry = (job: Job) => {
    void act(() => api('post', '/api/queues/{queueName}/jobs/{jobId}/retry', { path: { queueName: job.queue, jobId: job.id } }))
  }

  return (
    <>
      <Title>Jobs</Title>
      {problem && <Alert>{problem}</Alert>}
      <Loaded state={loaded}>{(data) => (
        <>
          <Queues queues={data.queues} act={pauseOrResume} />
          <h2>Jobs</h2>
          <div className="filters">
            <label htmlFor="job-queue">Queue</label>
            <select id="job-queue" value={queue} onChange={(event) => filter('queue', event.target.value)}>
              <option value="">Every queue</option>
              {data.queues.map(({ name }) => <option key={name} value={name}>{name}</option>)}
            </select>
            <label htmlFor="job-state">State</label>
            <select id="job-state" value={state} onChange={(event) => filter('state', event.target.value)}>
              <option value="">Any state</option>
              {states.map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
            <button type="button" onClick={reload}>Refresh</button>
          </div>
          <JobTable jobs={data.jobs} retry={retry} />
        </>
      )}</Loaded>
    </>
  )
}

function JobTable({ jobs, retry }: { jobs: { items: Job[]; total: number }; retry: (job: Job) => void }) {
  if (jobs.items.length === 0) return <p>No jobs.</p>
  const caption = `${jobs.total} ${jobs.total === 1 ? 'job' : 'jobs'}, newest first`
  return (
    <ScrollRegion label={caption}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr><th scope="col">Job</th><th scope="col">Queue</th><th scope="col">Name</th><th scope="col">State</th><th scope="col">Progress</th><th scope="col">Attempts</th><th scope="col">Created</th><th scope="col">Finished</th><th scope="col">Error</th><th scope="col">Actions</th></tr>
        </thead>
        <tbody>
          {jobs.items.map((job) => (
            <tr key={job.id}>
              <td><code>{job.id}</code></td>
              <td>{job.queue}</td>
              <td>{job.name}</td>
              <td>{job.state}</td>
              <td><JobBar job={job} /></td>
              <td>{job.attempts}</td>
              <td>{when(job.created_at)}</td>
              <td>{when(job.finished_at)}</td>
              <td>{job.error ?? ''}</td>
              <td>{job.state === 'failed' && <button type="button" aria-label={`Retry job ${job.id}`} onClick={() => retry(job)}>Retry</button>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  )
}
