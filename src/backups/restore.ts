import { EJSON } from 'bson'
import { ensureStoreIndexes } from '../indexes.js'
import type { ChainReport } from '../privacy/audit-entry.js'
import { AuditLog } from '../privacy/audit-log.js'
import type { CompiledSchema } from '../schema/index.js'
import type { Doc, Store } from '../store/port.js'
import type { Migration } from '../migrations/apply.js'
import { schemaStateCollection } from '../migrations/state.js'
import { BackupError, readArchive, type ArchiveKey, type Manifest } from './archive.js'

export interface RestoreOptions {
  readonly file: string
  /** The keys the backup may be encrypted under (BACKUP_KEY, SECRETS_KEY, the development key). */
  readonly keys: readonly ArchiveKey[]
  readonly schema: CompiledSchema
  /** Replace whatever the store holds; without it a store holding any document is refused. */
  readonly replace: boolean
  readonly progress?: (done: number, total: number) => void | Promise<void>
  /** This service's schema migrations: a backup of an older schema they lead from is restored, and the next start brings it forward. */
  readonly migrations?: readonly Migration[]
}

export interface RestoreReport {
  readonly manifest: Manifest
  readonly documents: number
  /** Collections that held documents and were dropped first (with `replace`). */
  readonly replaced: readonly string[]
  readonly auditChain: ChainReport
}

const batchSize = 1000

/** Collections of the store holding at least one document. */
async function nonEmpty(store: Store): Promise<string[]> {
  const held: string[] = []
  for (const name of await store.collectionNames()) if (await store.collection(name).findOne({})) held.push(name)
  return held
}

/**
 * A backup of another schema is restored only where this service's migrations bring it forward: the
 * store's record of its schema must be in it (start-up then migrates, docs/schemas.md), and every migration
 * applied to it must be one of this service's; one that is not says the backup is of a newer schema.
 */
function olderSchemaOnly(file: string, manifest: Manifest, state: readonly Doc[], migrations: readonly Migration[]): void {
  const made = `${manifest.schema.hash.slice(0, 12)}, service ${manifest.service_version}`
  if (!state.some((doc) => doc._id === 'current')) {
    throw new BackupError(`${file}: the backup was made under another class schema (${made}) before the store recorded its schema; restore it with the schema files it was made under`)
  }
  const known = new Set(migrations.map((m) => m.name))
  const held = state.find((doc) => doc._id === 'migrations')?.applied
  const applied = Array.isArray(held) ? held.map(String) : []
  const unknown = applied.filter((name) => !known.has(name))
  if (unknown.length) {
    throw new BackupError(`${file}: the backup is of a newer class schema (${made}, migrated by ${unknown.join(', ')}, which this service does not have); restore it with that version of the service`)
  }
}

/**
 * Restores a backup into the store (docs/operations.md). The whole file is read and checked first (key, tag,
 * checksums, manifest) and the store is looked at before anything is written; only then is it read a
 * second time and written, a batch at a time, into collections given their indexes first, and the
 * audit chain walked. A backup of an older schema is restored as it was, its schema with it, for the
 * migrations to bring forward at the next start; one of a newer schema is refused.
 */
export async function restoreBackup(store: Store, options: RestoreOptions): Promise<RestoreReport> {
  const { file, keys, schema } = options
  // The store's own record of its schema and of the migrations applied to it, as the backup holds them.
  const state: Doc[] = []
  const manifest = await readArchive(file, keys, (entry) => {
    if (entry.kind === 'document' && entry.collection === schemaStateCollection) state.push(EJSON.parse(entry.line, { relaxed: true }) as Doc)
  })
  if (manifest.schema.hash !== schema.hash) olderSchemaOnly(file, manifest, state, options.migrations ?? [])
  const held = await nonEmpty(store)
  if (held.length && !options.replace) {
    throw new BackupError(`the store is not empty (${held.slice(0, 5).join(', ')}${held.length > 5 ? ', …' : ''} hold documents); restore into an empty store, or pass --replace to replace all it holds`)
  }
  const replaced: string[] = []
  if (options.replace) {
    for (const name of await store.collectionNames()) {
      await store.drop(name)
      if (held.includes(name)) replaced.push(name)
    }
  }
  // Indexes first, on empty collections: each document then enters them as it is written, which costs
  // the embedded store less than building each index from a full read afterwards and reading every
  // document once more for the fields that hold lists (its multikey bookkeeping).
  await ensureStoreIndexes(store, schema)
  const total = Object.values(manifest.collections).reduce((sum, c) => sum + c.count, 0)
  let done = 0
  let batch: Doc[] = []
  let collection = ''
  const flush = async () => {
    if (!batch.length) return
    await store.collection(collection).insertMany(batch)
    done += batch.length
    batch = []
    await options.progress?.(done, total)
  }
  await options.progress?.(0, total)
  const again = await readArchive(file, keys, async (entry) => {
    if (entry.kind === 'collection') {
      await flush()
      collection = entry.name
      return
    }
    batch.push(EJSON.parse(entry.line, { relaxed: true }) as Doc)
    if (batch.length >= batchSize) await flush()
  })
  await flush()
  if (JSON.stringify(again.collections) !== JSON.stringify(manifest.collections)) {
    throw new BackupError(`${file}: the file changed while it was being restored; restore it again with --replace`)
  }
  const auditChain = await new AuditLog(store).verify()
  return { manifest, documents: done, replaced, auditChain }
}
