import { EJSON } from 'bson'
import { ensureStoreIndexes } from '../indexes.js'
import type { ChainReport } from '../privacy/audit-entry.js'
import { AuditLog } from '../privacy/audit-log.js'
import type { CompiledSchema } from '../schema/index.js'
import type { Doc, Store } from '../store/port.js'
import { BackupError, readArchive, type ArchiveKey, type Manifest } from './archive.js'

export interface RestoreOptions {
  readonly file: string
  /** The keys the backup may be encrypted under (BACKUP_KEY, SECRETS_KEY, the development key). */
  readonly keys: readonly ArchiveKey[]
  readonly schema: CompiledSchema
  /** Replace whatever the store holds; without it a store holding any document is refused. */
  readonly replace: boolean
  readonly progress?: (done: number, total: number) => void | Promise<void>
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
 * Restores a backup into the store (DESIGN 8.1). The whole file is read and checked first (key, tag,
 * checksums, manifest) and the store is looked at before anything is written; only then is it read a
 * second time and written, a batch at a time, with the store's indexes made at the end and the audit
 * chain walked. A backup made under another schema is refused: bringing one forward is the schema
 * migrations' work.
 */
export async function restoreBackup(store: Store, options: RestoreOptions): Promise<RestoreReport> {
  const { file, keys, schema } = options
  const manifest = await readArchive(file, keys)
  if (manifest.schema.hash !== schema.hash) {
    throw new BackupError(`${file}: the backup was made under another class schema (${manifest.schema.hash.slice(0, 12)}, service ${manifest.service_version}) than this service's (${schema.hash.slice(0, 12)}); restore it with the schema files it was made under`)
  }
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
  await ensureStoreIndexes(store, schema)
  const auditChain = await new AuditLog(store).verify()
  return { manifest, documents: done, replaced, auditChain }
}
