/**
 * npm run restore -- FILE [--replace]   restores a backup into the configured store (docs/operations.md)
 *
 * Into the embedded store of DATA_DIR (the service stopped: it holds the directory) or MONGODB_URL's.
 * The whole file is checked before anything is written; a store holding documents is refused unless
 * --replace. Prints one line; a fault is one line on stderr and a non-zero exit.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { BackupError } from '../src/backups/archive.js'
import { keysForReading } from '../src/backups/keys.js'
import { restoreBackup } from '../src/backups/restore.js'
import { loadMigrations } from '../src/migrations/apply.js'
import { loadConfig } from '../src/config.js'
import { compileSchema } from '../src/schema/index.js'
import { openStore } from '../src/store/open.js'
import { DataDirInUseError } from '../src/store/port.js'

const usage = 'usage: npm run restore -- FILE [--replace]'

async function main(): Promise<string> {
  const { values, positionals } = parseArgs({ options: { replace: { type: 'boolean' } }, allowPositionals: true, strict: true })
  if (positionals.length !== 1) throw new BackupError(`name one backup file\n${usage}`)
  const file = resolve(positionals[0]!)
  const config = loadConfig()
  const schema = await compileSchema(config.schemaDir)
  const keys = await keysForReading(config)
  // No commit of a restore needs to reach the disk on its own: one cut short is run again with --replace,
  // and closing the store checkpoints the whole of it to the database file, flushed.
  const store = await openStore({ ...config, embedded: { ...config.embedded, synchronous: 'normal' } }, [])
  try {
    const report = await restoreBackup(store, { file, keys, schema, replace: values.replace ?? false, migrations: await loadMigrations(config.schemaDir) })
    const chain = report.auditChain.intact ? `audit chain intact (${report.auditChain.checked} entries)` : `AUDIT CHAIN BROKEN at ${report.auditChain.firstBrokenAt}: ${report.auditChain.reason}`
    if (!report.auditChain.intact) throw new BackupError(`restored ${report.documents} documents, but the ${chain}`)
    const forward = report.manifest.schema.hash === schema.hash ? '' : `; it was made under an older class schema (${report.manifest.schema.hash.slice(0, 12)}), which the next start brings forward through the migrations (or npm run schema:migrate)`
    return `restored ${report.documents} documents in ${Object.keys(report.manifest.collections).length} collections as of ${report.manifest.created_at} into the ${store.kind} store${report.replaced.length ? `, replacing ${report.replaced.length} collections` : ''}; ${chain}${forward}`
  } finally {
    await store.close()
  }
}

main().then((line) => console.log(line), (error: unknown) => {
  if (error instanceof BackupError) console.error(`restore: ${error.message}`)
  else if (error instanceof DataDirInUseError) console.error(`restore: DATA_DIR ${error.dir} is held by a running service; stop it before restoring into its data directory`)
  else if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) console.error(`restore: ${(error as Error).message}\n${usage}`)
  else console.error(`restore failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
