import { useEffect, useEffectEvent } from 'react'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { Alert, Loading, ProgressBar } from '../components/ui'
import { running, usePolled } from '../hooks/use-polled'

type Job = components['schemas']['Job']

/**
 * A backup job followed until it ends: its bar and the job's own line ("1200 of 3400 documents
 * written"). `ended` gets the job as it finished, once.
 */
export function BackupRun({ jobId, ended }: { jobId: string; ended: (job: Job) => void }) {
  const [job] = usePolled(() => api('get', '/api/admin/jobs/{jobId}', { path: { jobId } }), [jobId], running)
  const finished = job.state === 'ready' && !running(job.data) ? job.data : null
  // The page's latest `ended`, called once: polling stops when the job has ended, so `finished` stays.
  const onEnded = useEffectEvent(ended)
  useEffect(() => { if (finished) onEnded(finished) }, [finished])
  if (job.state === 'loading') return <Loading />
  if (job.state === 'failed') return <Alert>{job.error}</Alert>
  if (finished) return null
  const { progress, state } = job.data
  return (
    <div className="backup-run">
      <ProgressBar value={(progress?.percent ?? 0) / 100} label="Backup progress" />
      <p className="job-message">{state === 'waiting' ? 'Waiting for the job queue to start it…' : progress?.message ?? 'Starting…'}</p>
    </div>
  )
}
