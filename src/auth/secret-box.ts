import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ConfigError, secretsKeyBytes, type Config } from '../config.js'

// iv (12 bytes) . tag (16 bytes) . ciphertext, each base64url; the prefix tells a sealed value from a plain one.
const sealedPattern = /^sealed:v1:([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]*)$/

/**
 * Secrets the service keeps in the store and must later send in clear (the campus-sync client secret),
 * encrypted with AES-256-GCM under SECRETS_KEY. Each value is bound to what it is (`context`, the
 * authenticated data), so a sealed value copied into another place does not open there.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {}

  static isSealed(value: string): boolean {
    return sealedPattern.test(value)
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    cipher.setAAD(Buffer.from(context))
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return `sealed:v1:${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`
  }

  /** The plain text of a sealed value; one this key cannot open is a fault of SECRETS_KEY, named as such. */
  open(sealed: string, context: string): string {
    const [, iv, tag, body] = sealedPattern.exec(sealed) ?? []
    try {
      if (iv === undefined || tag === undefined || body === undefined) throw new Error('not a sealed value')
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'))
      decipher.setAAD(Buffer.from(context))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
    } catch {
      throw new ConfigError('SECRETS_KEY', `cannot decrypt the stored ${context}: it was encrypted with another key (start with the SECRETS_KEY it was stored under, or see docs/operations.md to store it again)`)
    }
  }
}

/**
 * The key stored secrets are sealed with: SECRETS_KEY, or, outside production with none set, a random key
 * made once and kept in the data directory (like the development signing secret in keys.ts), so sealed
 * values open again after a restart.
 */
export async function secretBox(config: Config): Promise<SecretBox> {
  if (config.secretsKey) return new SecretBox(config.secretsKey)
  if (config.nodeEnv === 'production') throw new ConfigError('SECRETS_KEY', 'is required in production')
  return new SecretBox(await developmentSecretsKey(config.dataDir))
}

/** The random key kept in the data directory when SECRETS_KEY is unset outside production; made at its first use. */
export async function developmentSecretsKey(dataDir: string): Promise<Buffer> {
  const file = join(dataDir, 'secrets-key')
  await mkdir(dataDir, { recursive: true })
  try {
    await writeFile(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const key = secretsKeyBytes((await readFile(file, 'utf8')).trim())
  if (!key) throw new ConfigError('SECRETS_KEY', `is unset and ${file} does not hold a key (32 bytes, base64)`)
  return key
}
