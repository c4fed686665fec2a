/**
 * npm run backup -- [--out FILE] [--no-encrypt]   writes a backup of the configured store (docs/operations.md)
 * npm run backup -- --verify FILE                 checks a backup: its key, tag and every checksum
 *
 * The embedded store is read beside the service, which may keep serving; MONGODB_URL's is read through
 * the driver. Encrypted under BACKUP_KEY, else SECRETS_KEY (docs/operations.md, "Backups and restore").
 * Prints one line; a fault is one line on stderr and a non-zero exit.
 */
import { mkdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { BackupError, readArchive } from '../src/backups/archive.js'
import { backupPath } from '../src/backups/files.js'
import { keyForWriting, keysForReading } from '../src/backups/keys.js'
import { takeBackup, type BackupSource } from '../src/backups/take.js'
import { loadConfig } from '../src/config.js'
import { compileSchema } from '../src/schema/index.js'
import { embeddedSnapshot, openStore } from '../src/store/open.js'

const usage = 'usage: npm run backup -- [--out FILE] [--no-encrypt] | --verify FILE'

async function main(): Promise<string> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, 'no-encrypt': { type: 'boolean' }, verify: { type: 'string' } }, strict: true })
  const config = loadConfig()
  if (values.verify) {
    const manifest = await readArchive(resolve(values.verify), await keysForReading(config))
    const documents = Object.values(manifest.collections).reduce((sum, c) => sum + c.count, 0)
    return `${values.verify}: good: ${documents} documents in ${Object.keys(manifest.collections).length} collections as of ${manifest.created_at}, ${manifest.encrypted ? 'encrypted' : 'NOT encrypted'}, service ${manifest.service_version}`
  }
  const schema = await compileSchema(config.schemaDir)
  const key = values['no-encrypt'] ? null : await keyForWriting(config)
  const store = config.mongodbUrl ? await openStore(config, []) : undefined
  try {
    const source: BackupSource = store ? { kind: store.kind, snapshot: () => store.snapshot(), store } : { kind: 'embedded', snapshot: () => embeddedSnapshot(config.dataDir) }
    const file = values.out ? resolve(values.out) : backupPath(config.backups.dir, new Date())
    await mkdir(dirname(file), { recursive: true })
    const taken = await takeBackup(source, { file, key, schema })
    const documents = Object.values(taken.manifest.collections).reduce((sum, c) => sum + c.count, 0)
    return `${file}: ${documents} documents in ${Object.keys(taken.manifest.collections).length} collections as of ${taken.manifest.created_at}, ${taken.bytes} bytes, ${key ? `encrypted under ${key.source}` : 'NOT encrypted (--no-encrypt)'}`
  } finally {
    await store?.close()
  }
}

main().then((line) => console.log(line), (error: unknown) => {
  if (error instanceof BackupError) console.error(`backup: ${error.message}`)
  else if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) console.error(`backup: ${(error as Error).message}\n${usage}`)
  else console.error(`backup failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
