import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ConfigError, type Config } from '../config.js'

export interface SigningKeys {
  readonly algorithm: 'HS256' | 'RS256'
  readonly signKey: string
  readonly verifyKey: string
}

const placeholders = /^(changeme|change-me|secret|password|test|example|x+)$/i

/** A key file named by a variable; a fault in it stops start-up with the one-line message naming the variable. */
async function pemFile(variable: string, path: string, kind: string): Promise<string> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new ConfigError(variable, `cannot be read (${JSON.stringify(path)}): ${(error as NodeJS.ErrnoException).code ?? 'error'}`)
  }
  if (!text.includes(kind)) throw new ConfigError(variable, `must name a PEM file holding a ${kind}`)
  return text
}

/**
 * The keys ID tokens are signed with. Outside production, with no key configured, a random secret is
 * made once and kept in the data directory, so tokens survive restarts and `npm run token` signs with
 * the key the server verifies with.
 */
export async function signingKeys(config: Config): Promise<SigningKeys> {
  const { jwt } = config
  if (jwt.privateKeyPath && jwt.publicKeyPath) {
    // One after the other, so that when both are wrong the message always names the same variable.
    const signKey = await pemFile('JWT_PRIVATE_KEY_PATH', jwt.privateKeyPath, 'PRIVATE KEY')
    const verifyKey = await pemFile('JWT_PUBLIC_KEY_PATH', jwt.publicKeyPath, 'PUBLIC KEY')
    return { algorithm: 'RS256', signKey, verifyKey }
  }
  if (jwt.secret) {
    if (placeholders.test(jwt.secret) || new Set(jwt.secret).size < 8) throw new ConfigError('JWT_SECRET', 'looks like a placeholder; use a long random value')
    return { algorithm: 'HS256', signKey: jwt.secret, verifyKey: jwt.secret }
  }
  if (config.nodeEnv === 'production') throw new ConfigError('JWT_SECRET', 'is required in production')
  const file = join(config.dataDir, 'jwt-secret')
  await mkdir(config.dataDir, { recursive: true })
  try {
    await writeFile(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const secret = (await readFile(file, 'utf8')).trim()
  return { algorithm: 'HS256', signKey: secret, verifyKey: secret }
}
