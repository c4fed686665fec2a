import { hostname } from 'node:os'
import { SchemaEvolutionError } from './errors.js'
import type { RawFile } from '../schema/load.js'
import { DuplicateKeyError, type Doc, type Store } from '../store/port.js'

export const schemaStateCollection = 'schema_state'

/** The class schema the store's records were last checked or migrated against (docs/schemas.md). */
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

interface Lease extends Doc {
  readonly holder: string
  readonly expires_at: string
}

const leaseId = 'lease'

/**
 * Runs `work` holding the store's migration lease, so that of several instances starting on one shared
 * store with new schema files one migrates; another is refused at once (and, restarted once the first is
 * done, finds nothing left to do). A lease a crashed holder left lapses after `ttlMs`.
 */
export async function withMigrationLease<R>(store: Store, holder: string, work: () => Promise<R>, ttlMs = 10 * 60 * 1000): Promise<R> {
  const leases = store.collection<Lease>(schemaStateCollection)
  const now = new Date()
  const lease: Lease = { _id: leaseId, holder, expires_at: new Date(now.getTime() + ttlMs).toISOString() }
  try {
    await leases.insertOne(lease)
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error
    const other = await leases.findById(leaseId)
    // A holder that cannot be running any more left its lease behind: on the embedded store this process
    // holds the data directory alone, and a holder on this host whose process is gone was killed.
    const stale = store.kind === 'embedded' || (other !== null && !alive(other.holder))
    const taken = await leases.updateOne({ _id: leaseId, ...(stale ? { holder: other?.holder ?? '' } : { expires_at: { $lt: now.toISOString() } }) }, { $set: { holder, expires_at: lease.expires_at } })
    if (!taken) {
      throw new LeaseHeld(`another process (${other?.holder ?? 'unknown'}) is migrating the store until ${other?.expires_at ?? 'soon'}; start again once it is done`)
    }
  }
  try {
    return await work()
  } finally {
    await leases.deleteOne({ _id: leaseId, holder })
  }
}

/** Whether a holder (`<host>:<pid>`) may still be running: one of another host is taken to be. */
function alive(holder: string): boolean {
  const [host, pid] = holder.split(':')
  if (host !== hostname() || !Number(pid)) return true
  try {
    process.kill(Number(pid), 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export class LeaseHeld extends SchemaEvolutionError {
  override name = 'LeaseHeld'
}
