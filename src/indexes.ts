import { usageCollection } from './auth/api-keys/usage.js'
import { revokedTokensCollection } from './auth/revocations.js'
import { revisionIndexes, revisionsCollection } from './history/revision.js'
import { auditCollection, auditIndexes } from './privacy/audit-log.js'
import type { CompiledSchema } from './schema/index.js'
import type { IndexSpec, Store } from './store/port.js'

/** Bookkeeping collections that hold no schema records, with the indexes their lookups need. */
export const systemCollections: Readonly<Record<string, readonly IndexSpec[]>> = {
  [revokedTokensCollection]: [{ fields: ['expires_at'] }],
  // key_id alone: the embedded store files each new entry under its key's node, where a (key_id, at)
  // index would place every entry in a deep tree of compound keys, at a cost to each keyed request.
  [usageCollection]: [{ fields: ['key_id'] }],
  [auditCollection]: auditIndexes,
  [revisionsCollection]: revisionIndexes,
}

/**
 * The indexes of the schema's collections and of the bookkeeping ones, made at every start and after a
 * restore; the services whose collections are their own (jobs, notifications, workflows) make theirs
 * when they open.
 */
export async function ensureStoreIndexes(store: Store, schema: CompiledSchema): Promise<void> {
  for (const collection of schema.collections) await store.ensureIndexes(collection.name, collection.indexes)
  for (const [name, indexes] of Object.entries(systemCollections)) await store.ensureIndexes(name, indexes)
}
