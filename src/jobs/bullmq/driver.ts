import { Queue, UnrecoverableError, WaitingError, Worker, type Job, type JobsOptions } from 'bullmq'
import { Redis } from 'ioredis'
import { FailureListeners } from '../failure-listeners.js'
import {
  runHandler, defaultAttempts, defaultBackoffMs, jobLog, JobNotFailedError, JobsUnavailableError, newJobId, PermanentJobError, queueNames,
  shutdownReason, UnknownJobError,
  type DriverLogger, type Enqueued, type EnqueueOptions, type FailureListener, type HandlerMap, type JobDriver, type JobListQuery, type JobState, type JobView,
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

/** ioredis's ways of saying the connection went away, which can arrive before its status says so. */
/** Waits for a promise at most `ms`; a failure or a late answer is left behind. */
async function bounded(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([promise.catch(() => {}), new Promise<void>((resolve) => { timer = setTimeout(resolve, ms) })])
  clearTimeout(timer)
}

function connectionFailure(error: unknown): boolean {
  const { name, message, code } = (error ?? {}) as { name?: string; message?: string; code?: string }
  return name === 'MaxRetriesPerRequestError' || /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT)$/.test(code ?? '') ||
    /Connection is closed|Stream isn't writeable|Command timed out/.test(message ?? '')
}

/**
 * BullMQ on Redis: one Queue per queue name for enqueueing and the admin answers, and (when this process
 * runs jobs) one Worker per queue with registered handlers, one job at a time each.
 */
export class BullJobDriver implements JobDriver {
  readonly kind = 'bullmq' as const
  private readonly handlers = new Map<QueueName, HandlerMap>()
  /**
   * Queue objects by name (they hold no job data, only BullMQ's handle on the queue's keys). One whose
   * call met a Redis failure is dropped, so the next call starts afresh once Redis is back; the end of
   * test/jobs/redis-down.test.ts shows the routes answering again after an outage.
   */
  private readonly queueObjects = new Map<QueueName, Queue>()
  private readonly workers: Worker[] = []
  /**
   * Every connection the workers use, their blocking duplicates included: BullMQ's own close never
   * returns while Redis is unreachable, so shutdown ends by dropping these itself.
   */
  private readonly workerConnections: Redis[] = []
  private closing = false
  /** Jobs running in this process, until BullMQ has recorded their outcome (or they went back to waiting). */
  private readonly inFlight = new Map<string, { settled: Promise<void>; settle: () => void }>()
  private readonly failures: FailureListeners

  constructor(private readonly options: BullDriverOptions) {
    this.failures = new FailureListeners(options.log)
  }

  register(queue: QueueName, handlers: HandlerMap): void {
    this.handlers.set(queue, { ...this.handlers.get(queue), ...handlers })
  }

  async start(): Promise<void> {
    if (!this.options.runJobs || this.workers.length > 0) return
    for (const [queue, handlers] of this.handlers) {
      const worker = new Worker(queue, (job, token, signal) => {
        let settle!: () => void
        const settled = new Promise<void>((resolve) => { settle = resolve })
        this.inFlight.set(job.id!, { settled, settle })
        return this.process(queue, handlers, job, token, signal)
      }, {
        connection: this.workerConnection(queue),
        prefix: this.options.prefix,
        concurrency: 1,
        ...(this.options.lockDuration ? { lockDuration: this.options.lockDuration } : {}),
        ...(this.options.stalledInterval ? { stalledInterval: this.options.stalledInterval } : {}),
        ...(this.options.maxStalledCount !== undefined ? { maxStalledCount: this.options.maxStalledCount } : {}),
      })
      worker.on('error', (err) => this.options.log.error({ err, queue }, 'job worker error'))
      worker.on('failed', (job, err) => {
        this.options.log.warn({ err, queue, job: job?.id, name: job?.name }, 'job attempt failed')
        if (!job) return
        // BullMQ sets finishedOn only when it moved the job to failed for good (a retry clears it), and
        // emits this after the move: the record says failed by now. A job failed for stalling too often
        // is failed here too, by the worker that takes it up next.
        const told = job.finishedOn ? this.failures.tell(bullJobView(queue, job, 'failed')) : Promise.resolve()
        void told.then(() => this.landed(job.id!))
      })
      worker.on('completed', (job) => this.landed(job.id!))
      this.workers.push(worker)
    }
    await Promise.all(this.workers.map((w) => w.waitUntilReady()))
  }

  private landed(id: string): void {
    this.inFlight.get(id)?.settle()
    this.inFlight.delete(id)
  }

  /** BullMQ's blocking commands must wait for Redis as long as it takes, unlike the request path. */
  private workerConnection(queue: QueueName): Redis {
    const track = (client: Redis): Redis => {
      client.on('error', () => {})
      const duplicate = client.duplicate.bind(client)
      client.duplicate = (override) => track(duplicate(override))
      this.workerConnections.push(client)
      return client
    }
    return track(new Redis(this.options.redisUrl, { maxRetriesPerRequest: null, connectionName: `adks-worker-${queue}` }))
  }

  enqueue(queue: QueueName, name: string, data: Record<string, unknown>, options: EnqueueOptions = {}): Promise<Enqueued> {
    return this.call(queue, async (q) => {
      const jobId = newJobId()
      const job = await q.add(name, data, {
        ...jobOptions(options), jobId,
        ...(options.delayMs !== undefined && options.delayMs > 0 ? { delay: options.delayMs } : {}),
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

  onFailed(listener: FailureListener): void {
    this.failures.add(listener)
  }

  async close(): Promise<void> {
    this.closing = true
    // Paused first, so that no worker takes a job (a handed-back one included) while the others stop.
    await Promise.all(this.workers.map((worker) => bounded(worker.pause(true), 2000)))
    for (const worker of this.workers) worker.cancelAllJobs(shutdownReason)
    let timer: NodeJS.Timeout | undefined
    const grace = new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), this.options.closeGraceMs ?? 10_000) })
    const outcome = await Promise.race([Promise.all([...this.inFlight.values()].map((j) => j.settled)).then(() => 'done' as const), grace])
    clearTimeout(timer)
    if (outcome === 'late') this.options.log.warn({}, 'a job did not stop within the grace period; it is left to stall and run again')
    // Every outcome is recorded by now, so the workers close by force: BullMQ's graceful close waits on
    // its blocking connection, and never returns while Redis is unreachable (taskforcesh/bullmq#4656).
    await Promise.all(this.workers.map((worker) => bounded(worker.close(true), 5000)))
    await bounded(this.failures.settled(), this.options.closeGraceMs ?? 10_000)
    for (const connection of this.workerConnections) connection.disconnect()
    await Promise.all([...this.queueObjects.values()].map((q) => bounded(q.close(), 2000)))
    this.queueObjects.clear()
    if (this.options.ownsClient) await this.options.client.quit().catch(() => this.options.client.disconnect())
  }

  private async process(queue: QueueName, handlers: HandlerMap, job: Job, token: string | undefined, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
    const handler = handlers[job.name]
    if (!handler) throw new UnrecoverableError(`No handler for job ${job.name} in queue ${queue}`)
    const abort = signal ?? new AbortController().signal
    try {
      const result = await runHandler(handler, {
        id: job.id!,
        data: job.data as Record<string, unknown>,
        attempt: job.attemptsMade + 1,
        signal: abort,
        log: jobLog(this.options.log, { id: job.id!, queue, name: job.name }),
        progress: (percent, message, counts) => job.updateProgress({ percent, processed: counts?.processed ?? null, total: counts?.total ?? null, message: message ?? null }),
      }, { queue, name: job.name })
      return result ?? {}
    } catch (error) {
      // Stopped for shutdown: back to waiting, not counted as a failed attempt.
      if (this.closing && abort.aborted) {
        await job.moveToWait(token)
        this.landed(job.id!)
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
      if (error instanceof JobsUnavailableError || this.options.client.status !== 'ready' || connectionFailure(error)) {
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
