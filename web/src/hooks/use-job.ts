import { useEffect, useEffectEvent } from 'react'
import { api } from '../api/client'
import type { components } from '../api/schema'
import type { LoadState } from './use-load'
import { running, usePolled } from './use-polled'

type Job = components['schemas']['Job']

/**
 * A queued job followed until it ends (backups, campus sync and its reverts), read once a second from
 * GET /api/admin/jobs/:jobId; `ended` is called once with the job as it finished, the page's latest
 * `ended` (polling stops at the end, so the finished job stays the same).
 */
export function useJob(jobId: string, ended: (job: Job) => void): LoadState<Job> {
  const [job] = usePolled(() => api('get', '/api/admin/jobs/{jobId}', { path: { jobId } }), [jobId], running)
  const finished = job.state === 'ready' && !running(job.data) ? job.data : null
  const onEnded = useEffectEvent(ended)
  useEffect(() => { if (finished) onEnded(finished) }, [finished])
  return job
}
