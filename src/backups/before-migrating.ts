import { mkdir } from 'node:fs/promises'
import type { Config } from '../config.js'
import type { CompiledSchema } from '../schema/index.js'
import type { Store } from '../store/port.js'
import { backupPath } from './files.js'
import { keyForWriting } from './keys.js'
import { takeBackup } from './take.js'

/** The backup a schema migration takes first (docs/schemas.md), into BACKUP_DIR, of the records as they are under `was`. */
export async function backupBeforeMigrating(store: Store, was: CompiledSchema, config: Config): Promise<void> {
  await mkdir(config.backups.dir, { recursive: true })
  await takeBackup({ kind: store.kind, snapshot: () => store.snapshot(), store }, { file: backupPath(config.backups.dir, new Date()), key: await keyForWriting(config), schema: was })
}
