import type { RawFile } from '../schema/load.js'
import type { Doc, Store } from '../store/port.js'

export const schemaStateCollection = 'schema_state'

/** The class schema the store's records were last checked or migrated against (DESIGN 3.2). */
export interface StoredSchema extends Doc {
  readonly hash: string
  readonly files: readonly RawFile[]
  readonly updated_at: string
}

/** One change of the stored schema: from which hash to which, when, and what changed. */
export interface AppliedChange extends Doc {
  readonly from: string
  readonly to: string
  readonly at: string
  readonly changes: readonly string[]
}

const currentId = 'current'

export async function storedSchema(store: Store): Promise<StoredSchema | null> {
  return store.collection<StoredSchema>(schemaStateCollection).findById(currentId)
}

/** Records the schema as the store's, with what changed from the one before (none at the first start). */
export async function storeSchema(store: Store, files: readonly RawFile[], hash: string, at: Date, change?: { from: string; changes: readonly string[] }): Promise<void> {
  const collection = store.collection<Doc>(schemaStateCollection)
  if (change) {
    const applied: AppliedChange = { _id: `change:${at.toISOString()}:${hash.slice(0, 12)}`, from: change.from, to: hash, at: at.toISOString(), changes: change.changes }
    await collection.upsertOne({ _id: applied._id }, applied)
  }
  const state: StoredSchema = { _id: currentId, hash, files, updated_at: at.toISOString() }
  await collection.upsertOne({ _id: currentId }, state)
}
