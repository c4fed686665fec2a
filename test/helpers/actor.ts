import type { Actor } from '../../src/actor.js'

/** Who a test's own writes are by, where it writes around the routes and jobs that name their callers. */
export const testActor: Actor = { id: 'test', via: 'test' }
