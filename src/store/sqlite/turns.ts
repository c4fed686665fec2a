/** How long back-to-back store operations may hold the event loop before one waits for a turn. */
const budgetMs = 10

/**
 * better-sqlite3 answers synchronously, so a promise of this store is settled when it is returned, and
 * a loop of awaited store calls (a job reading the audit trail in batches, a seed) never lets the event
 * loop run: requests, timers and `/ready` would wait for the whole loop. Each operation passes here
 * first; once operations have run back to back for `budgetMs` without the event loop getting a turn,
 * the next one waits for a turn (`setImmediate`). Requests, which make a few calls each, never wait.
 */
export class Turns {
  /** When the current stretch of operations without a turn of the event loop began. */
  private since = 0
  /** A turn is due: set when a stretch begins, cleared when the event loop gets round to it. */
  private due = false

  pass(): Promise<void> | undefined {
    const now = performance.now()
    if (!this.due) {
      this.due = true
      this.since = now
      setImmediate(() => { this.due = false })
      return undefined
    }
    if (now - this.since < budgetMs) return undefined
    return new Promise((resolve) => setImmediate(resolve))
  }
}
