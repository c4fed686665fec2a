import type { components } from '../api/schema'
import { ProgressBar } from './ui'

type Job = components['schemas']['Job']

/** A job's progress as the API reports it (a percentage), as a bar of the same value. */
export function JobBar({ job }: { job: Job }) {
  if (!job.progress) return <span>—</span>
  const { percent, message } = job.progress
  return (
    <>
      <ProgressBar value={percent / 100} label={`Progress of job ${job.id}`} />
      {message && <span className="job-message">{message}</span>}
    </>
  )
}
