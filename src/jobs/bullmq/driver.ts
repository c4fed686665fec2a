import { Queue, UnrecoverableError, WaitingError, Worker, type Job, type JobsOptions } from 'bullmq'
import type { Redis } from 'ioredis'
import {
  defaultAttempts, defaultBackoffMs, jobLog, JobNotFailedError, JobsUnavailableError, newJobId, PermanentJobError, queueNames,
  shutdownReason, UnknownJobError,
  type DriverLogger, type Enqueued, type EnqueueOptions, type HandlerMap, type JobDriver, type JobListQuery, type JobState, type JobView,
  type QueueName, type QueueSummary, type ScheduleSpec, type SchedulerView,
} from '../port.js'
import { checkSchedule } from '../schedule.js'
import { bullJobView, bullSchedulerView, bullTypes, stateOf } from './views.js'

export interface BullDriverOptions {
  /** The fail-fast client every enqueue and admin read goes through. */
  readonly client: Redis
  /** True: `close` quits the client too; else its creator does. */
  readonly ownsClient?: boolean
  /** Where workers connect; each worker opens its own connections that retry forever. */
  readonly redisUrl: string
  /** Key prefix of every queue (`<REDIS_PREFIX>bull`). */
  readonly prefix: string
  readonly log: DriverLogger
  /** True: this process runs workers (`npm run worker`, or the API with WORKERS=inline). */
  readonly runJobs: boolean
  /** A request-path call that takes longer is answered as Redis being unavailable. */
  readonly callTimeoutMs?: number
  /** BullMQ worker settings; tests shorten them. */
  readonly lockDuration?: number
  readonly stalledInterval?: number
  readonly maxStalledCount?: number
  readonly closeGraceMs?: number
}

const retention = { removeOnComplete: { count: 1000 }, removeOnFail: { count: 1000 } }

function jobOptions(options: EnqueueOptions): JobsOptions {
  return {
    attempts: options.attempts ?? defaultAttempts,
    backoff: { type: 'exponential', delay: options.backoffMs ?? defaultBackoffMs },
    ...retention,
  }
}

/**
 * BullMQ on Redis: one Queue per queue name for enqueueing and the admin answers, and (when this process
 * runs jobs) one Worker per queue with registered handlers, one job at a time each.
 */
export class BullJobDriver implements JobDriver {
  readonly kind = 'bullmq' as const
  private readonly handlers = new Map<QueueName, HandlerMap>()
  /** Queue objects by name. One whose connection failed is dropped, so the next call starts afresh once Redis is back. */
  private readonly queueObjects = new Map<QueueName, Queue>()
  private readonly workers: Worker[] = []
  private closing = false

  constructor(private readonly options: BullDriverOptions) {}

  register(queue: QueueName, handlers: HandlerMap): void {
    this.handlers.set(queue, { ...this.handlers.get(queue), ...handlers })
  }

  async start(): Promise<void> {
    if (!this.options.runJobs || this.workers.length > 0) return
    for (const [queue, handlers] of this.handlers) {
      const worker = new Worker(queue, (job, token, signal) => this.process(queue, handlers, job, token, signal), {
        // BullMQ's blocking commands must wait for Redis as long as it takes, unlike the request path.
        connection: { url: this.options.redisUrl, maxRetriesPerRequest: null, connectionName: `adks-worker-${queue}` } as never,
        prefix: this.options.prefix,
        concurrency: 1,
        ...(this.options.lockDuration ? { lockDuration: this.options.lockDuration } : {}),
        ...(this.options.stalledInterval ? { stalledInterval: this.options.stalledInterval } : {}),
        ...(this.options.maxStalledCount !== undefined ? { maxStalledCount: this.options.maxStalledCount } : {}),
      })
      worker.on('error', (err) => this.options.log.error({ err, queue }, 'job worker error'))
      worker.on('failed', (job, err) => this.options.log.warn({ err, queue, job: job?.id, name: job?.name }, 'job attempt failed'))
      this.workers.push(worker)
    }
    await Promise.all(this.workers.map((w) => w.waitUntilReady()))
  }

  enqueue(queue: QueueName, name: string, data: Record<string, unknown>, options: EnqueueOptions = {}): Promise<Enqueued> {
    return this.call(queue, async (q) => {
      const jobId = newJobId()
      const job = await q.add(name, data, {
        ...jobOptions(options), jobId,
        ...(options.dedupKey !== undefined ? { deduplication: { id: options.dedupKey } } : {}),
      })
      return { id: job.id!, folded: job.id !== jobId }
    })
  }

  async job(id: string): Promise<JobView | null> {
    for (const queue of queueNames) {
      const view = await this.call(queue, (q) => this.view(q, queue, id))
      if (view) return view
    }
    return null
  }

  async list(query: JobListQuery): Promise<{ items: JobView[]; total: number }> {
    const queues = query.queue ? [query.queue] : [...queueNames]
    const states = query.state ? [query.state] : (Object.keys(bullTypes) as JobState[])
    // Each list is read newest first up to offset + limit; the merge of those windows holds the page.
    const window = query.offset + query.limit
    const views: JobView[] = []
    let total = 0
    for (const queue of queues) {
      await this.call(queue, async (q) => {
        for (const state of states) {
          const types = bullTypes[state]
          total += await q.getJobCountByTypes(...types)
          for (const type of types) {
            for (const job of await q.getJobs([type], 0, window - 1, false)) if (job) views.push(bullJobView(queue, job, state))
          }
        }
      })
    }
    // A job that moved between two lists while they were read is counted in the later one only.
    const unique = [...new Map(views.map((v) => [v.id, v])).values()]
    unique.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1))
    return { items: unique.slice(query.offset, window), total }
  }

  async queues(): Promise<QueueSummary[]> {
    return Promise.all(queueNames.map((name) => this.call(name, async (q) => {
      const raw = await q.getJobCounts(...Object.values(bullTypes).flat())
      const counts = Object.fromEntries(Object.entries(bullTypes).map(([state, types]) => [state, types.reduce((n, t) => n + (raw[t] ?? 0), 0)])) as Record<JobState, number>
      return { name, counts, paused: await q.isPaused() }
    })))
  }

  retry(queue: QueueName, id: string): Promise<JobView> {
    return this.call(queue, async (q) => {
      const job = await q.getJob(id)
      if (!job) throw new UnknownJobError(id, queue)
      const state = stateOf(await job.getState())
      if (state !== 'failed') throw new JobNotFailedError(id, state ?? 'gone')
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true })
      const view = await this.view(q, queue, id)
      if (!view) throw new UnknownJobError(id, queue)
      return view
    })
  }

  pause(queue: QueueName): Promise<void> {
    return this.call(queue, (q) => q.pause())
  }

  resume(queue: QueueName): Promise<void> {
    return this.call(queue, (q) => q.resume())
  }

  async upsertScheduler(queue: QueueName, spec: ScheduleSpec): Promise<SchedulerView> {
    checkSchedule(spec)
    return this.call(queue, async (q) => {
      const repeat = { ...(spec.pattern !== undefined ? { pattern: spec.pattern } : { every: spec.every! }), ...(spec.tz ? { tz: spec.tz } : {}) }
      await q.upsertJobScheduler(spec.id, repeat, { name: spec.name ?? spec.id, data: spec.data ?? {}, opts: jobOptions({}) })
      const saved = await q.getJobScheduler(spec.id)
      if (!saved) throw new Error(`scheduler ${spec.id} vanished after its upsert`)
      return bullSchedulerView(queue, saved)
    })
  }

  removeScheduler(queue: QueueName, id: string): Promise<boolean> {
    return this.call(queue, (q) => q.removeJobScheduler(id))
  }

  async schedulers(queue?: QueueName): Promise<SchedulerView[]> {
    const views: SchedulerView[] = []
    for (const name of queue ? [queue] : queueNames) {
      const list = await this.call(name, (q) => q.getJobSchedulers(0, -1, true))
      views.push(...list.map((s) => bullSchedulerView(name, s)).sort((a, b) => (a.id < b.id ? -1 : 1)))
    }
    return views
  }

  async close(): Promise<void> {
    this.closing = true
    const grace = this.options.closeGraceMs ?? 10_000
    await Promise.all(this.workers.map(async (worker) => {
      worker.cancelAllJobs(shutdownReason)
      // worker.close() waits for running jobs with no limit, and forever when Redis is gone.
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), grace) })
      const outcome = await Promise.race([worker.close().then(() => 'closed' as const), late])
      clearTimeout(timer)
      if (outcome === 'late') await worker.close(true).catch(() => {})
    }))
    await Promise.all([...this.queueObjects.values()].map((q) => q.close().catch(() => {})))
    this.queueObjects.clear()
    if (this.options.ownsClient) await this.options.client.quit().catch(() => this.options.client.disconnect())
  }

  private async process(queue: QueueName, handlers: HandlerMap, job: Job, token: string | undefined, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
    const handler = handlers[job.name]
    if (!handler) throw new UnrecoverableError(`No handler for job ${job.name} in queue ${queue}`)
    const abort = signal ?? new AbortController().signal
    try {
      const result = await handler({
        data: job.data as Record<string, unknown>,
        attempt: job.attemptsMade + 1,
        signal: abort,
        log: jobLog(this.options.log, { id: job.id!, queue, name: job.name }),
        progress: (percent, message, counts) => job.updateProgress({ percent, processed: counts?.processed ?? null, total: counts?.total ?? null, message: message ?? null }),
      })
      return result ?? {}
    } catch (error) {
      // Stopped for shutdown: back to waiting, not counted as a failed attempt.
      if (this.closing && abort.aborted) {
        await job.moveToWait(token)
        throw new WaitingError()
      }
      if (error instanceof PermanentJobError) throw new UnrecoverableError(error.message)
      throw error
    }
  }

  /** The job and its state, read so that they agree: a job can move on between the two reads. */
  private async view(queue: Queue, name: QueueName, id: string): Promise<JobView | null> {
    for (;;) {
      const before = await queue.getJobState(id)
      const job = await queue.getJob(id)
      const after = await queue.getJobState(id)
      if (!job) return null
      if (before !== after) continue
      const state = stateOf(after)
      return state ? bullJobView(name, job, state) : null
    }
  }

  private queueObject(name: QueueName): Queue {
    let queue = this.queueObjects.get(name)
    if (!queue) {
      queue = new Queue(name, { connection: this.options.client, prefix: this.options.prefix })
      queue.on('error', () => {})
      this.queueObjects.set(name, queue)
    }
    return queue
  }

  /**
   * One request-path call on a queue: bounded in time, and a Redis that does not answer (or is not
   * connected) becomes a 503 naming the job queue rather than a hang or a 500. Answers of our own
   * (404, 409) and Redis's own replies pass through.
   */
  private async call<T>(name: QueueName, action: (queue: Queue) => Promise<T>): Promise<T> {
    if (this.options.client.status !== 'ready') throw new JobsUnavailableError()
    const queue = this.queueObject(name)
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new JobsUnavailableError()), this.options.callTimeoutMs ?? 3000)
    })
    try {
      return await Promise.race([action(queue), timeout])
    } catch (error) {
      if (error instanceof JobsUnavailableError || this.options.client.status !== 'ready') {
        this.queueObjects.delete(name)
        queue.close().catch(() => {})
        throw new JobsUnavailableError()
      }
      throw error
    } finally {
      clearTimeout(timer)
    }
  }
}
