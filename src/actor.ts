/**
 * Who a write is by and what it came through, as its revision names them (docs/history.md). Every write
 * of the record service takes one (records/service.ts, WriteBy).
 */
export interface Actor {
  /** A user id, an API key id, or a run: `sync:<run>`, `import:<run>`, `seed`, `migration:<name>`. */
  readonly id: string
  readonly name?: string
  /** The route (`PUT /api/people/:id`) or job (`campus-sync`) the write came through. */
  readonly via: string
  /** A run (a sync, an import, a revert) that a revert can undo: its revisions carry its id as `run`. */
  readonly run?: true
}

/**
 * The service itself, writing of its own accord outside any request, job or run: start-up's upkeep of
 * stored records, and the user a verified token names, created before the request has a caller.
 */
export const systemActor: Actor = { id: 'system', via: 'system' }
