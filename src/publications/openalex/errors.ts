/** OpenAlex failed after its retries, or answered something unusable. */
export class OpenAlexError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message)
    this.name = 'OpenAlexError'
  }
}

/**
 * The day's API budget is spent (OpenAlex answers 429 until it renews at midnight UTC). Not a failure of
 * the run's data: what was fetched stands, and the run can resume from `cursor` after `resetsAt`.
 */
export class OpenAlexBudgetError extends Error {
  constructor(readonly resetsAt: Date, readonly cursor?: string) {
    super(`OpenAlex daily budget spent; it renews at ${resetsAt.toISOString()}`)
    this.name = 'OpenAlexBudgetError'
  }
}
