import type { Store } from '../store/port.js'
import { schemaStateCollection, storedSchema } from './state.js'

/**
 * Whether the store still holds the class schema this process was built on (docs/schemas.md): once another
 * instance has migrated a shared store, this one's validators and derived schemas are of the old
 * schema, so it must write nothing more until it is restarted; reads stay safe enough to serve.
 *
 * Cache rule. Holds: the stored schema's hash as last read. Invalidated by: any write to the
 * `schema_state` collection this process makes or hears of (the store's write counts, other
 * instances' through the cluster's notices), and after the store's `maxAgeMs` where writes may go
 * unheard. Test: test/migrations/instances.test.ts ("an instance of the old schema refuses writes").
 */
export class SchemaGuard {
  private known?: { hash: string | undefined; count: number; at: number }

  constructor(private readonly store: Store, private readonly hash: string, private readonly now: () => number = Date.now) {}

  async current(): Promise<boolean> {
    const counts = this.store.writeCounts
    const count = counts?.of(schemaStateCollection) ?? -1
    const maxAge = counts?.maxAgeMs?.() ?? (counts ? Infinity : 0)
    if (!this.known || this.known.count !== count || this.now() - this.known.at > maxAge) {
      this.known = { hash: (await storedSchema(this.store))?.hash, count, at: this.now() }
    }
    return this.known.hash === undefined || this.known.hash === this.hash
  }
}
