/**
 * The job port. Handlers and the admin routes speak only this interface; the BullMQ driver (Redis) and
 * the embedded driver (records in the store) implement it identically, which the contract suite in
 * test/jobs/contract.ts checks against both.
 */
import { randomBytes } from 'node:crypto'
import type { Actor } from '../actor.js'
import { JobNotFailed, JobNotFound, JobsUnavailable, QueueNotFound, ScheduleNotFound, ValidationFailed } from '../errors.js'

export const queueNames = ['campus-sync', 'publication-import', 'citation-refresh', 'maintenance', 'notifications'] as const
export type QueueName = (typeof queueNames)[number]

export function isQueueName(name: string): name is QueueName {
  return (queueNames as readonly string[]).includes(name)
}

/** BullMQ's `prioritized` and `waiting-children` are answered as `waiting`: none of our jobs uses either. */
export const jobStates = ['waiting', 'active', 'completed', 'failed', 'delayed'] as const
export type JobState = (typeof jobStates)[number]

export interface JobProgress {
  readonly percent: number
  readonly processed: number | null
  readonly total: number | null
  readonly message: string | null
}

/** All a handler sees of the queue it runs on. */
export interface JobContext<D = Record<string, unknown>> {
  /** The job's id, as the admin endpoints show it. */
  readonly id: string
  readonly data: D
  /** 1 on the first run, 2 on the first retry, ... */
  readonly attempt: number
  /** Reports progress; `counts` fills `processed` and `total` of the progress answer. */
  progress(percent: number, message?: string, counts?: { processed: number; total: number }): Promise<void>
  /**
   * Aborted when the process shuts down: stop at the next checkpoint and return or throw. A job stopped
   * this way is handed back to the queue (not counted as a failed attempt) and runs again later, so
   * every handler must be idempotent.
   */
  readonly signal: AbortSignal
  readonly log: JobLog
  /**
   * Who the job's writes are by (docs/history.md): `job:<id>`, through the queue and job name. A handler
   * that is a run of its own (a sync, an import) writes as the run instead.
   */
  readonly actor: Actor
}

export interface JobLog {
  info(message: string, detail?: Record<string, unknown>): void
  error(message: string, detail?: Record<string, unknown>): void
}

export type JobHandler = (context: JobContext) => Promise<Record<string, unknown> | void>

/** Runs a job's handler, its context completed with the job as the actor of its writes. */
export function runHandler(handler: JobHandler, context: Omit<JobContext, 'actor'>, job: { readonly queue: string; readonly name: string }): Promise<Record<string, unknown> | void> {
  return handler({ ...context, actor: { id: `job:${context.id}`, via: `${job.queue}/${job.name}` } })
}
/** A queue's handlers by job name. */
export type HandlerMap = Readonly<Record<string, JobHandler>>

/** A failure that retrying cannot mend (bad data, a missing record): the job fails at once. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PermanentJobError'
  }
}

export interface JobView {
  readonly id: string
  readonly queue: QueueName
  readonly name: string
  readonly state: JobState
  readonly data: Record<string, unknown>
  readonly progress: JobProgress | null
  /** Attempts started so far. */
  readonly attempts: number
  readonly result: Record<string, unknown> | null
  readonly error: string | null
  readonly created_at: string
  readonly started_at: string | null
  readonly finished_at: string | null
}

/**
 * Told of a job that failed for good (no attempts left, a PermanentJobError, stalled too often), once,
 * after its record says failed. Whatever it throws is logged and leaves the job as it is.
 */
export type FailureListener = (job: JobView) => void | Promise<void>

export interface EnqueueOptions {
  /**
   * While a job of this queue with the same key is waiting, delayed or running, enqueueing returns that
   * job instead of adding another: a manual run of a sync already running folds into it.
   */
  readonly dedupKey?: string
  /** Defaults: 3 attempts, 30 s first backoff. */
  readonly attempts?: number
  readonly backoffMs?: number
  /** Runs the job no sooner than this many milliseconds from now (it waits as `delayed`). */
  readonly delayMs?: number
}

export interface Enqueued {
  readonly id: string
  /** True when an existing job with the same dedup key was returned instead of a new one. */
  readonly folded: boolean
}

export interface QueueSummary {
  readonly name: QueueName
  readonly counts: Readonly<Record<JobState, number>>
  readonly paused: boolean
}

/** A recurring job: `pattern` (cron, with optional seconds field) or `every` milliseconds. */
export interface ScheduleSpec {
  readonly id: string
  /** The job name each run gets; the scheduler id when absent. */
  readonly name?: string
  readonly pattern?: string
  readonly every?: number
  readonly tz?: string
  readonly data?: Record<string, unknown>
}

export interface SchedulerView {
  readonly queue: QueueName
  readonly id: string
  readonly name: string
  readonly pattern: string | null
  readonly every: number | null
  readonly tz: string | null
  readonly data: Record<string, unknown>
  readonly next_run: string | null
}

export interface JobListQuery {
  readonly queue?: QueueName
  readonly state?: JobState
  readonly limit: number
  readonly offset: number
}

export interface JobDriver {
  readonly kind: 'bullmq' | 'embedded'
  /** Sets the handlers of a queue; call before `start`. */
  register(queue: QueueName, handlers: HandlerMap): void
  /** Starts running jobs in this process (no-op when this process only enqueues). */
  start(): Promise<void>
  enqueue(queue: QueueName, name: string, data: Record<string, unknown>, options?: EnqueueOptions): Promise<Enqueued>
  /** Any queue's job; null when there is none. */
  job(id: string): Promise<JobView | null>
  /** Newest first. */
  list(query: JobListQuery): Promise<{ items: JobView[]; total: number }>
  queues(): Promise<QueueSummary[]>
  /** Runs a failed job again from its first attempt; throws NotFound or a 409 for a job not failed. */
  retry(queue: QueueName, id: string): Promise<JobView>
  pause(queue: QueueName): Promise<void>
  resume(queue: QueueName): Promise<void>
  upsertScheduler(queue: QueueName, spec: ScheduleSpec): Promise<SchedulerView>
  /** False when there was none. */
  removeScheduler(queue: QueueName, id: string): Promise<boolean>
  schedulers(queue?: QueueName): Promise<SchedulerView[]>
  /**
   * Adds a listener for the jobs this process runs that fail for good (the process that ran the last
   * attempt tells; one that only enqueues tells nothing). `close` waits for the listeners at work.
   */
  onFailed(listener: FailureListener): void
  /** Stops taking jobs, asks running ones to stop at a checkpoint, and hands back those that do not finish in time. */
  close(): Promise<void>
}

export const defaultAttempts = 3
export const defaultBackoffMs = 30_000

/** BullMQ's exponential backoff: the delay before retry n (n = attempts made so far, from 1) is base * 2^(n-1). */
export function backoffDelay(baseMs: number, attemptsMade: number): number {
  return Math.round(baseMs * 2 ** Math.max(0, attemptsMade - 1))
}

let counter = 0
/**
 * A job id that is safe in a URL path (digits, letters and '-') and sorts by creation: milliseconds,
 * a per-process counter, then randomness so two processes never collide.
 */
export function newJobId(now = Date.now()): string {
  counter = (counter + 1) % 1_000_000
  return `${String(now).padStart(13, '0')}-${String(counter).padStart(6, '0')}-${randomBytes(4).toString('hex')}`
}

export class UnknownQueueError extends QueueNotFound {
  constructor(name: string) { super(`No queue named ${name}`) }
}

export class UnknownJobError extends JobNotFound {
  constructor(id: string, queue?: string) { super(`No job ${id}${queue ? ` in queue ${queue}` : ''}`) }
}

export class UnknownSchedulerError extends ScheduleNotFound {
  constructor(id: string, queue: string) { super(`No scheduler ${id} in queue ${queue}`) }
}

export class JobNotFailedError extends JobNotFailed {
  constructor(id: string, state: string) { super(`Job ${id} is ${state}; only a failed job can be retried`) }
}

export class BadScheduleError extends ValidationFailed {}

export class JobsUnavailableError extends JobsUnavailable {
  constructor() { super('The job queue is unavailable (Redis does not answer); try again shortly') }
}

/** The driver's own log (pino's or Fastify's logger fits). */
export interface DriverLogger {
  info(detail: object, message: string): void
  warn(detail: object, message: string): void
  error(detail: object, message: string): void
}

/** A handler's log: each line names the job it comes from. */
export function jobLog(log: DriverLogger, job: { id: string; queue: string; name: string }): JobLog {
  const base = { job: job.id, queue: job.queue, name: job.name }
  return {
    info: (message, detail) => log.info({ ...base, ...detail }, message),
    error: (message, detail) => log.error({ ...base, ...detail }, message),
  }
}

/** Why a handler was told to stop: the process is shutting down, and the job goes back to the queue. */
export const shutdownReason = 'the process is shutting down'
