import type { DriverLogger, FailureListener, JobView } from './port.js'

/** A driver's failure listeners, and the tellings still at work, which closing waits for. */
export class FailureListeners {
  private readonly listeners: FailureListener[] = []
  private readonly pending = new Set<Promise<void>>()

  constructor(private readonly log: DriverLogger) {}

  add(listener: FailureListener): void {
    this.listeners.push(listener)
  }

  /** Tells every listener of a job that failed for good; a listener's own failure is logged, never the job's. */
  tell(job: JobView): Promise<void> {
    const told = Promise.all(this.listeners.map(async (listener) => {
      try {
        await listener(job)
      } catch (error) {
        this.log.error({ err: error, job: job.id, queue: job.queue, name: job.name }, 'a job failure listener failed')
      }
    })).then(() => {})
    this.pending.add(told)
    void told.finally(() => this.pending.delete(told))
    return told
  }

  /** Resolves when every telling begun so far has ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending])
  }
}
