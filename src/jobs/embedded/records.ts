import type { Doc, IndexSpec } from '../../store/port.js'
import type { JobProgress, JobState, JobView, QueueName, SchedulerView } from '../port.js'

export const jobsCollection = 'jobs'
export const schedulersCollection = 'job_schedulers'
export const queueStateCollection = 'job_queues'

export const jobIndexes: IndexSpec[] = [{ fields: ['queue', 'state'] }, { fields: ['state', 'run_at'] }, { fields: ['dedup_key'] }]

/**
 * One job. `data` and `result` are kept as JSON text: they come from callers and handlers, and a key
 * with a '.' or a leading '$' is not storable as a field name in either store. Times are ISO strings,
 * which order as the instants they name.
 */
export interface JobDoc extends Doc {
  readonly queue: QueueName
  readonly name: string
  readonly state: JobState
  readonly data: string
  readonly progress: JobProgress | null
  /** Attempts started and not handed back (a run lost to a crash or shutdown is not counted). */
  readonly attempts: number
  readonly max_attempts: number
  readonly backoff_ms: number
  /** Runs lost because their lease ran out; past the limit the job fails instead of running again. */
  readonly stalls: number
  readonly result: string | null
  readonly error: string | null
  readonly created_at: string
  readonly started_at: string | null
  readonly finished_at: string | null
  /** When a waiting or delayed job may run. */
  readonly run_at: string
  readonly dedup_key: string | null
  /** Until when the running process holds the job; it renews the lease while the handler runs. */
  readonly lease_until: string | null
  /** Names the run that holds the lease: a write by a run that lost it matches nothing. */
  readonly lease_token: string | null
  readonly scheduler: string | null
}

export interface SchedulerDoc extends Doc {
  readonly queue: QueueName
  readonly id: string
  readonly name: string
  readonly pattern: string | null
  readonly every: number | null
  readonly tz: string | null
  readonly data: string
  readonly next_run_at: string
}

export interface QueueStateDoc extends Doc {
  readonly paused: boolean
}

export const schedulerKey = (queue: QueueName, id: string) => `${queue}:${id}`

export function jobView(doc: JobDoc): JobView {
  return {
    id: doc._id,
    queue: doc.queue,
    name: doc.name,
    state: doc.state,
    data: JSON.parse(doc.data) as Record<string, unknown>,
    progress: doc.progress,
    attempts: doc.attempts,
    result: doc.result === null ? null : JSON.parse(doc.result) as Record<string, unknown>,
    error: doc.error,
    created_at: doc.created_at,
    started_at: doc.started_at,
    finished_at: doc.finished_at,
  }
}

export function schedulerView(doc: SchedulerDoc): SchedulerView {
  return {
    queue: doc.queue, id: doc.id, name: doc.name, pattern: doc.pattern, every: doc.every, tz: doc.tz,
    data: JSON.parse(doc.data) as Record<string, unknown>, next_run: doc.next_run_at,
  }
}
