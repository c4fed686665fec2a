import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { developmentSecretsKey } from '../auth/secret-box.js'
import type { Config } from '../config.js'
import { BackupError, type ArchiveKey } from './archive.js'

/**
 * The key a new backup is encrypted under: BACKUP_KEY, else SECRETS_KEY; outside production with
 * neither set, the data directory's development key (auth/secret-box.ts), which a backup moved to
 * another machine needs beside it. Production always has SECRETS_KEY (config.ts).
 */
export async function keyForWriting(config: Config): Promise<ArchiveKey> {
  if (config.backups.key) return config.backups.key
  if (config.nodeEnv === 'production') throw new BackupError('no BACKUP_KEY or SECRETS_KEY is set to encrypt the backup with; set one, or pass --no-encrypt')
  return { bytes: await developmentSecretsKey(config.dataDir), source: "the data directory's development key" }
}

/** Every key a backup may have been made under that this environment holds, tried in turn by the reader. */
export async function keysForReading(config: Config): Promise<ArchiveKey[]> {
  const keys: ArchiveKey[] = []
  if (config.backups.key) keys.push(config.backups.key)
  if (config.secretsKey && config.backups.key?.source !== 'SECRETS_KEY') keys.push({ bytes: config.secretsKey, source: 'SECRETS_KEY' })
  if (config.nodeEnv !== 'production' && existsSync(join(config.dataDir, 'secrets-key'))) {
    keys.push({ bytes: await developmentSecretsKey(config.dataDir), source: "the data directory's development key" })
  }
  return keys
}
