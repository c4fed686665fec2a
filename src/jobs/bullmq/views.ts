import type { Job, JobSchedulerJson, JobType } from 'bullmq'
import { jobStates, type JobProgress, type JobState, type JobView, type QueueName, type SchedulerView } from '../port.js'

/** The BullMQ lists behind each state we answer with; `prioritized` and `waiting-children` are waiting too. */
export const bullTypes: Record<JobState, JobType[]> = {
  waiting: ['wait', 'prioritized', 'waiting-children'],
  active: ['active'],
  completed: ['completed'],
  failed: ['failed'],
  delayed: ['delayed'],
}

export function stateOf(bullState: string): JobState | null {
  for (const state of jobStates) if (bullTypes[state].some((type) => type === bullState)) return state
  return bullState === 'waiting' ? 'waiting' : null
}

function progressOf(value: unknown): JobProgress | null {
  if (typeof value !== 'object' || value === null || typeof (value as JobProgress).percent !== 'number') return null
  const p = value as JobProgress
  return { percent: p.percent, processed: p.processed ?? null, total: p.total ?? null, message: p.message ?? null }
}

const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : null)

export function bullJobView(queue: QueueName, job: Job, state: JobState): JobView {
  return {
    id: job.id!,
    queue,
    name: job.name,
    state,
    data: (job.data ?? {}) as Record<string, unknown>,
    progress: progressOf(job.progress),
    // attemptsMade counts finished runs (completed or failed); the one running counts as well.
    attempts: job.attemptsMade + (state === 'active' ? 1 : 0),
    result: state === 'completed' ? ((job.returnvalue ?? {}) as Record<string, unknown>) : null,
    error: job.failedReason || null,
    created_at: new Date(job.timestamp).toISOString(),
    started_at: iso(job.processedOn),
    finished_at: state === 'completed' || state === 'failed' ? iso(job.finishedOn) : null,
  }
}

export function bullSchedulerView(queue: QueueName, s: JobSchedulerJson): SchedulerView {
  return {
    queue, id: s.key, name: s.name, pattern: s.pattern ?? null, every: s.every ? Number(s.every) : null, tz: s.tz ?? null,
    data: (s.template?.data ?? {}) as Record<string, unknown>, next_run: iso(s.next),
  }
}
