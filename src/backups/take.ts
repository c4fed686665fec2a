import { stat } from 'node:fs/promises'
import type { CompiledSchema } from '../schema/index.js'
import type { Store, StoreSnapshot } from '../store/port.js'
import { ArchiveWriter, type ArchiveKey, type Manifest } from './archive.js'
import { linesAsOfMoment } from './moment.js'
import { serviceVersion } from './version.js'

export interface TakeOptions {
  /** The file to write; written as `<file>.partial` and renamed when whole. */
  readonly file: string
  /** The key to encrypt under; null only for a backup asked for with --no-encrypt. */
  readonly key: ArchiveKey | null
  readonly schema: CompiledSchema
  /** Told how many documents are written of about how many, every few thousand. */
  readonly progress?: (done: number, total: number) => void | Promise<void>
}

export interface TakenBackup {
  readonly file: string
  readonly bytes: number
  readonly manifest: Manifest
}

const progressEvery = 5000

/**
 * What a backup reads: the store, or, for `npm run backup` beside a running service on the embedded
 * store (whose data directory that service holds), a snapshot of its database file read alongside.
 */
export interface BackupSource {
  readonly kind: Store['kind']
  snapshot(): Promise<StoreSnapshot>
  /** Where revisions are read to bring an inexact snapshot to its moment (moment.ts). */
  readonly store?: Store
}

/**
 * Writes a backup of every collection of the store as of one moment (docs/operations.md): a snapshot of the
 * store (store/port.ts, StoreSnapshot), each collection brought to the snapshot's moment where it is
 * not exact (moment.ts), written through the archive (archive.ts).
 */
export async function takeBackup(source: BackupSource, options: TakeOptions): Promise<TakenBackup> {
  const snapshot = await source.snapshot()
  const writer = new ArchiveWriter(options.file, snapshot.at, options.key)
  try {
    let total = 0
    for (const name of snapshot.collections) total += await snapshot.count(name)
    let done = 0
    await options.progress?.(0, total)
    for (const name of snapshot.collections) {
      await writer.collection(name)
      for await (const line of linesAsOfMoment(snapshot, source.store, options.schema, name)) {
        await writer.document(line)
        if (++done % progressEvery === 0) await options.progress?.(done, Math.max(done, total))
      }
    }
    const manifest = await writer.finish({
      service_version: serviceVersion,
      created_at: snapshot.at.toISOString(),
      store: source.kind,
      schema: { hash: options.schema.hash, definitions: options.schema.source },
    })
    await options.progress?.(done, done)
    return { file: options.file, bytes: (await stat(options.file)).size, manifest }
  } catch (error) {
    await writer.abort()
    throw error
  } finally {
    await snapshot.close()
  }
}
