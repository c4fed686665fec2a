import type { components } from '../api/schema'
import { Pending, ProgressBar } from '../components/ui'
import { useJob } from '../hooks/use-job'
import { running } from '../hooks/use-polled'

type Job = components['schemas']['Job']

/**
 * A backup job followed until it ends: its bar and the job's own line ("1200 of 3400 documents
 * written"). `ended` gets the job as it finished, once.
 */
export function BackupRun({ jobId, ended }: { jobId: string; ended: (job: Job) => void }) {
  const job = useJob(jobId, ended)
  const finished = job.state === 'ready' && !running(job.data)
  if (job.state !== 'ready') return <Pending state={job} />
  if (finished) return null
  const { progress, state } = job.data
  return (
    <div className="backup-run">
      <ProgressBar value={(progress?.percent ?? 0) / 100} label="Backup progress" />
      <p className="job-message">{state === 'waiting' ? 'Waiting for the job queue to start it…' : progress?.message ?? 'Starting…'}</p>
    </div>
  )
}
