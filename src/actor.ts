import { AsyncLocalStorage } from 'node:async_hooks'

/** Who a write is by and what it came through, as its revision names them (DESIGN 6.9). */
export interface Actor {
  /** A user id, an API key id, or a run: `sync:<run>`, `import:<run>`, `seed`, `migration:<name>`. */
  readonly id: string
  readonly name?: string
  /** The route (`PUT /api/people/:id`) or job (`campus-sync`) the write came through. */
  readonly via: string
  /** A run (a sync, an import, a revert) that a revert can undo: its revisions carry its id as `run`. */
  readonly run?: true
}

/** Writes made outside any request or job (a script that forgot to say who it is) are the system's. */
export const systemActor: Actor = { id: 'system', via: 'system' }

/**
 * The actor of the code running now. A request's actor is only known once its credentials are checked,
 * after the context is entered, so the context holds a function that is asked at each write.
 */
const context = new AsyncLocalStorage<() => Actor>()

/** Runs `work` with its writes, and those of everything it starts, made by `actor`. */
export function actingAs<R>(actor: Actor | (() => Actor), work: () => R): R {
  return context.run(typeof actor === 'function' ? actor : () => actor, work)
}

export function currentActor(): Actor {
  return context.getStore()?.() ?? systemActor
}
