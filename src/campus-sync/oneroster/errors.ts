import type { Collection } from '../../domain/campus-sync/model.js'

export type FeedFailure = 'timeout' | 'network' | 'too-large' | 'http' | 'auth' | 'bad-answer'

/**
 * A OneRoster REST read that stopped part-way. Pages yielded before it stay valid (the sync has applied
 * them); the run fails with this message, which names the collection, the offset and the cause.
 */
export class OneRosterFetchError extends Error {
  constructor(
    readonly collection: Collection | 'token',
    readonly offset: number,
    readonly failure: FeedFailure,
    detail: string,
    readonly status?: number,
  ) {
    super(`OneRoster ${collection} at offset ${offset}: ${detail}`)
    this.name = 'OneRosterFetchError'
  }
}

/** A CSV package that cannot be read at all (no manifest, a file over its cap, a broken zip). */
export class OneRosterPackageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OneRosterPackageError'
  }
}
