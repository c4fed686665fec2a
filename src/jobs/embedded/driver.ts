import { randomUUID } from 'node:crypto'
import type { Collection, Filter, Store } from '../../store/port.js'
import { FailureListeners } from '../failure-listeners.js'
import {
  runHandler, backoffDelay, defaultAttempts, defaultBackoffMs, jobLog, JobNotFailedError, newJobId, PermanentJobError, queueNames, shutdownReason,
  UnknownJobError,
  type DriverLogger, type Enqueued, type EnqueueOptions, type FailureListener, type HandlerMap, type JobDriver, type JobListQuery, type JobState, type JobView,
  type QueueName, type QueueSummary, type ScheduleSpec, type SchedulerView,
} from '../port.js'
import { checkSchedule, nextRun } from '../schedule.js'
import {
  jobIndexes, jobsCollection, jobView, queueStateCollection, schedulerKey, schedulersCollection, schedulerView,
  type JobDoc, type QueueStateDoc, type SchedulerDoc,
} from './records.js'

export interface EmbeddedDriverOptions {
  readonly log: DriverLogger
  /** False: this process only enqueues and answers, and runs nothing (WORKERS=off). */
  readonly runJobs?: boolean
  /** How often due jobs and schedules are looked for when nothing wakes the loop sooner. */
  readonly pollMs?: number
  /** How long a run holds its job without renewing; a run lost to a crash is taken up again after it. */
  readonly leaseMs?: number
  /** Lost runs a job survives; one more and it fails. BullMQ's maxStalledCount. */
  readonly maxStalls?: number
  /** How long `close` waits for running jobs to stop before handing them back. */
  readonly closeGraceMs?: number
}

interface Running {
  readonly token: string
  readonly controller: AbortController
  readonly done: Promise<void>
}

const pending: JobState[] = ['waiting', 'delayed']
const unfinished: JobState[] = ['waiting', 'delayed', 'active']

/**
 * Runs jobs in this process with their records in the store, for a department without Redis. Each run
 * holds its job by a lease it renews; a process that dies leaves the lease to run out, and the next
 * loop (in this process after a restart, or another process on a shared store) runs the job again.
 * One job at a time per queue.
 */
export class EmbeddedJobDriver implements JobDriver {
  readonly kind = 'embedded' as const
  private readonly handlers = new Map<QueueName, HandlerMap>()
  private readonly running = new Map<string, Running>()
  private readonly busyQueues = new Set<QueueName>()
  private readonly jobs: Collection<JobDoc>
  private readonly schedules: Collection<SchedulerDoc>
  private readonly queueStates: Collection<QueueStateDoc>
  private readonly pollMs: number
  private readonly leaseMs: number
  private readonly maxStalls: number
  private readonly closeGraceMs: number
  private readonly failures: FailureListeners
  private timer: NodeJS.Timeout | undefined
  private loop: Promise<void> = Promise.resolve()
  private wakePending = false
  private closing = false
  /** Enqueues one at a time, so two concurrent runs with one dedup key cannot both add a job. */
  private enqueueChain: Promise<unknown> = Promise.resolve()

  private constructor(store: Store, private readonly options: EmbeddedDriverOptions) {
    this.jobs = store.collection<JobDoc>(jobsCollection)
    this.schedules = store.collection<SchedulerDoc>(schedulersCollection)
    this.queueStates = store.collection<QueueStateDoc>(queueStateCollection)
    this.pollMs = options.pollMs ?? 1000
    this.leaseMs = options.leaseMs ?? 30_000
    this.maxStalls = options.maxStalls ?? 1
    this.closeGraceMs = options.closeGraceMs ?? 10_000
    this.failures = new FailureListeners(options.log)
  }

  static async open(store: Store, options: EmbeddedDriverOptions): Promise<EmbeddedJobDriver> {
    await store.ensureIndexes(jobsCollection, jobIndexes)
    return new EmbeddedJobDriver(store, options)
  }

  register(queue: QueueName, handlers: HandlerMap): void {
    this.handlers.set(queue, { ...this.handlers.get(queue), ...handlers })
  }

  async start(): Promise<void> {
    if (this.options.runJobs === false || this.timer) return
    this.timer = setInterval(() => this.wake(), this.pollMs)
    this.timer.unref()
    this.wake()
  }

  async enqueue(queue: QueueName, name: string, data: Record<string, unknown>, options: EnqueueOptions = {}): Promise<Enqueued> {
    const add = async (): Promise<Enqueued> => {
      if (options.dedupKey !== undefined) {
        const existing = await this.jobs.findOne({ queue, dedup_key: options.dedupKey, state: { $in: unfinished } })
        if (existing) return { id: existing._id, folded: true }
      }
      const id = await this.insert(queue, name, data, options, null)
      return { id, folded: false }
    }
    const result = this.enqueueChain.then(add, add)
    this.enqueueChain = result.catch(() => {})
    const enqueued = await result
    if (!enqueued.folded) this.wake()
    return enqueued
  }

  async job(id: string): Promise<JobView | null> {
    const doc = await this.jobs.findById(id)
    return doc ? jobView(doc) : null
  }

  async list(query: JobListQuery): Promise<{ items: JobView[]; total: number }> {
    const filter: Filter = { ...(query.queue ? { queue: query.queue } : {}), ...(query.state ? { state: query.state } : {}) }
    const [docs, total] = await Promise.all([
      this.jobs.find(filter, { sort: [['_id', -1]], skip: query.offset, limit: query.limit }),
      this.jobs.count(filter),
    ])
    return { items: docs.map(jobView), total }
  }

  async queues(): Promise<QueueSummary[]> {
    const paused = new Set((await this.queueStates.find({ paused: true })).map((q) => q._id))
    return Promise.all(queueNames.map(async (name) => {
      const counts = Object.fromEntries(await Promise.all(
        (['waiting', 'active', 'completed', 'failed', 'delayed'] as const).map(async (state) => [state, await this.jobs.count({ queue: name, state })]),
      )) as Record<JobState, number>
      return { name, counts, paused: paused.has(name) }
    }))
  }

  async retry(queue: QueueName, id: string): Promise<JobView> {
    const doc = await this.jobs.findOne({ _id: id, queue })
    if (!doc) throw new UnknownJobError(id, queue)
    if (doc.state !== 'failed') throw new JobNotFailedError(id, doc.state)
    const updated = await this.jobs.updateOne({ _id: id, state: 'failed' }, {
      $set: { state: 'waiting', attempts: 0, stalls: 0, error: null, result: null, progress: null, started_at: null, finished_at: null, run_at: new Date().toISOString() },
    })
    if (!updated) throw new JobNotFailedError(id, (await this.jobs.findById(id))?.state ?? 'gone')
    this.wake()
    return jobView(updated)
  }

  async pause(queue: QueueName): Promise<void> {
    await this.queueStates.upsertOne({ _id: queue }, { _id: queue, paused: true })
  }

  async resume(queue: QueueName): Promise<void> {
    await this.queueStates.upsertOne({ _id: queue }, { _id: queue, paused: false })
    this.wake()
  }

  async upsertScheduler(queue: QueueName, spec: ScheduleSpec): Promise<SchedulerView> {
    checkSchedule(spec)
    const now = Date.now()
    // As in BullMQ: an interval fires at once and then on its multiples; a pattern waits for its next time.
    // A schedule upserted again unchanged (every start does) keeps its next time: a daily check of the
    // whole audit trail must not run at every restart.
    const stored = await this.schedules.findById(schedulerKey(queue, spec.id))
    const unchanged = stored !== null && stored.pattern === (spec.pattern ?? null) && stored.every === (spec.every ?? null) && stored.tz === (spec.tz ?? null)
    const first = unchanged ? Date.parse(stored.next_run_at) : spec.every !== undefined ? now : nextRun(spec, now)
    const doc: SchedulerDoc = {
      _id: schedulerKey(queue, spec.id), queue, id: spec.id, name: spec.name ?? spec.id,
      pattern: spec.pattern ?? null, every: spec.every ?? null, tz: spec.tz ?? null, data: JSON.stringify(spec.data ?? {}),
      next_run_at: new Date(first).toISOString(),
    }
    await this.schedules.upsertOne({ _id: doc._id }, doc)
    this.wake()
    return schedulerView(doc)
  }

  async removeScheduler(queue: QueueName, id: string): Promise<boolean> {
    return (await this.schedules.deleteOne({ _id: schedulerKey(queue, id) })) > 0
  }

  async schedulers(queue?: QueueName): Promise<SchedulerView[]> {
    const docs = await this.schedules.find(queue ? { queue } : {}, { sort: [['_id', 1]] })
    return docs.map(schedulerView)
  }

  onFailed(listener: FailureListener): void {
    this.failures.add(listener)
  }

  async close(): Promise<void> {
    this.closing = true
    clearInterval(this.timer)
    await this.loop
    const runs = [...this.running.entries()]
    for (const [, run] of runs) run.controller.abort(new Error(shutdownReason))
    let timer: NodeJS.Timeout | undefined
    const grace = new Promise<void>((resolve) => { timer = setTimeout(resolve, this.closeGraceMs) })
    await Promise.race([Promise.all(runs.map(([, run]) => run.done)), grace])
    clearTimeout(timer)
    for (const [id, run] of this.running) await this.handBack(id, run.token)
    await this.failures.settled()
  }

  private async insert(queue: QueueName, name: string, data: Record<string, unknown>, options: EnqueueOptions, scheduler: string | null): Promise<string> {
    const now = new Date().toISOString()
    const id = newJobId()
    const delayed = options.delayMs !== undefined && options.delayMs > 0
    await this.jobs.insertOne({
      _id: id, queue, name, state: delayed ? 'delayed' : 'waiting', data: JSON.stringify(data), progress: null, attempts: 0,
      max_attempts: options.attempts ?? defaultAttempts, backoff_ms: options.backoffMs ?? defaultBackoffMs, stalls: 0,
      result: null, error: null, created_at: now, started_at: null, finished_at: null,
      run_at: delayed ? new Date(Date.parse(now) + options.delayMs!).toISOString() : now,
      dedup_key: options.dedupKey ?? null, lease_until: null, lease_token: null, scheduler,
    })
    return id
  }

  /** Runs one pass of the loop soon; passes never overlap. */
  private wake(): void {
    if (this.options.runJobs === false || this.closing || this.wakePending) return
    this.wakePending = true
    this.loop = this.loop.then(async () => {
      this.wakePending = false
      if (this.closing) return
      try {
        await this.pass()
      } catch (error) {
        this.options.log.error({ err: error }, 'the job loop failed; it tries again at the next poll')
      }
    })
  }

  private async pass(): Promise<void> {
    const now = Date.now()
    await this.fireSchedules(now)
    await this.recoverLost(now)
    const paused = new Set((await this.queueStates.find({ paused: true })).map((q) => q._id))
    for (const queue of queueNames) {
      if (!paused.has(queue) && !this.busyQueues.has(queue)) await this.claim(queue, now)
    }
  }

  private async fireSchedules(now: number): Promise<void> {
    const due = await this.schedules.find({ next_run_at: { $lte: new Date(now).toISOString() } })
    for (const schedule of due) {
      const next = new Date(nextRun({ ...(schedule.pattern ? { pattern: schedule.pattern } : { every: schedule.every! }), ...(schedule.tz ? { tz: schedule.tz } : {}) }, now))
      // Compare-and-set on the time it was due: of two processes on one store, one fires it.
      const won = await this.schedules.updateOne({ _id: schedule._id, next_run_at: schedule.next_run_at }, { $set: { next_run_at: next.toISOString() } })
      if (won) await this.insert(schedule.queue, schedule.name, JSON.parse(schedule.data) as Record<string, unknown>, {}, schedule.id)
    }
  }

  /** Jobs whose run lost its lease (its process died) go back to waiting, or fail past the stall limit. */
  private async recoverLost(now: number): Promise<void> {
    const lost = await this.jobs.find({ state: 'active', lease_until: { $lt: new Date(now).toISOString() } })
    for (const job of lost) {
      if (this.running.has(job._id)) continue
      const release = { lease_until: null, lease_token: null }
      const update = job.stalls >= this.maxStalls
        ? { $set: { ...release, state: 'failed' as const, error: 'the job stalled more often than allowed', finished_at: new Date(now).toISOString() } }
        : { $set: { ...release, state: 'waiting' as const, run_at: new Date(now).toISOString() }, $inc: { stalls: 1, attempts: -1 } }
      const moved = await this.jobs.updateOne({ _id: job._id, lease_token: job.lease_token! }, update)
      if (!moved) continue
      this.options.log.warn({ job: job._id, queue: job.queue, state: moved.state }, 'a job lost its run (its process stopped)')
      // Told beside the loop, so a slow listener holds up no queue; closing waits for it.
      if (moved.state === 'failed') void this.failures.tell(jobView(moved))
    }
  }

  private async claim(queue: QueueName, now: number): Promise<void> {
    const nowIso = new Date(now).toISOString()
    const candidate = await this.jobs.findOne({ queue, state: { $in: pending }, run_at: { $lte: nowIso } }, { sort: [['run_at', 1], ['_id', 1]] })
    if (!candidate) return
    const token = randomUUID()
    const job = await this.jobs.updateOne({ _id: candidate._id, state: candidate.state, run_at: candidate.run_at }, {
      $set: { state: 'active', lease_token: token, lease_until: new Date(now + this.leaseMs).toISOString(), started_at: nowIso },
      $inc: { attempts: 1 },
    })
    if (!job) return
    this.busyQueues.add(queue)
    const controller = new AbortController()
    const done = this.run(job, token, controller.signal).finally(() => {
      this.running.delete(job._id)
      this.busyQueues.delete(queue)
      this.wake()
    })
    this.running.set(job._id, { token, controller, done })
  }

  private async run(job: JobDoc, token: string, signal: AbortSignal): Promise<void> {
    const mine = { _id: job._id, lease_token: token }
    const renew = setInterval(() => {
      this.jobs.updateOne(mine, { $set: { lease_until: new Date(Date.now() + this.leaseMs).toISOString() } })
        .catch((error: unknown) => this.options.log.error({ err: error, job: job._id }, 'could not renew a job lease'))
    }, Math.max(10, Math.floor(this.leaseMs / 3)))
    try {
      const handler = this.handlers.get(job.queue)?.[job.name]
      if (!handler) throw new PermanentJobError(`No handler for job ${job.name} in queue ${job.queue}`)
      const result = await runHandler(handler, {
        id: job._id,
        data: JSON.parse(job.data) as Record<string, unknown>,
        attempt: job.attempts,
        signal,
        log: jobLog(this.options.log, { id: job._id, queue: job.queue, name: job.name }),
        progress: async (percent, message, counts) => {
          await this.jobs.updateOne(mine, { $set: { progress: { percent, processed: counts?.processed ?? null, total: counts?.total ?? null, message: message ?? null } } })
        },
      }, job)
      await this.jobs.updateOne(mine, {
        $set: { state: 'completed', result: JSON.stringify(result ?? {}), error: null, finished_at: new Date().toISOString(), lease_until: null, lease_token: null },
      })
    } catch (error) {
      if (signal.aborted && this.closing) return this.handBack(job._id, token)
      const message = error instanceof Error ? error.message : String(error)
      const final = error instanceof PermanentJobError || job.attempts >= job.max_attempts
      const now = Date.now()
      const recorded = await this.jobs.updateOne(mine, {
        $set: final
          ? { state: 'failed', error: message, finished_at: new Date(now).toISOString(), lease_until: null, lease_token: null }
          : { state: 'delayed', error: message, run_at: new Date(now + backoffDelay(job.backoff_ms, job.attempts)).toISOString(), lease_until: null, lease_token: null },
      })
      // Only the run that still held the lease wrote the failure, so only it tells.
      if (final && recorded) await this.failures.tell(jobView(recorded))
    } finally {
      clearInterval(renew)
    }
  }

  /** A run stopped by shutdown does not count as an attempt: the job waits to run again. */
  private async handBack(id: string, token: string): Promise<void> {
    await this.jobs.updateOne({ _id: id, lease_token: token }, {
      $set: { state: 'waiting', run_at: new Date().toISOString(), lease_until: null, lease_token: null }, $inc: { attempts: -1 },
    })
  }
}
