import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { basename } from 'node:path'
import type { Test } from 'tap'
import { buildApp, type AppOptions } from '../../src/app.js'
import { signingKeys } from '../../src/auth/keys.js'
import type { Role } from '../../src/auth/permissions.js'
import { signIdToken, userIdForEmail } from '../../src/auth/tokens.js'
import { loadConfig, type Config } from '../../src/config.js'
import { errorCodeCheck } from './error-codes.js'
import { tempDir } from './temp-dir.js'

export interface TestApp {
  readonly app: FastifyInstance
  readonly config: Config
  /** An ID token for a user with this email; with a role, the user has it from the first request. */
  token(email: string, role?: Role): Promise<string>
  /** `app.inject` as the given user (a token is minted and cached per email and role). */
  as(email: string, role: Role): (options: InjectOptions) => Promise<LightMyRequestResponse>
}

/** The MongoDB-wire server the suites' second pass runs on (see README); unset, tests use the embedded store. */
const mongodbUrl = process.env.MONGODB_URL

/** One database per data directory, so that a service restarted on the same DATA_DIR finds its records. */
function databaseFor(dataDir: string): string {
  return `adks_${basename(dataDir)}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 63)
}

async function dropDatabase(url: string, name: string): Promise<void> {
  const { MongoStore } = await import('../../src/store/mongo/store.js')
  const store = await MongoStore.open(url, name)
  await store.dropDatabase()
  await store.close()
}

/**
 * The real service, built in-process on a fresh store: the embedded one in a temporary data directory,
 * or, when MONGODB_URL is set, a database of its own on that server, dropped when the test ends.
 * `env` overrides configuration variables. Any 4xx or 5xx it answers without a code listed in
 * docs/errors.md fails `t`.
 */
export async function buildTestApp(t: Test, env: Record<string, string> = {}, options: AppOptions = {}): Promise<TestApp> {
  let app: FastifyInstance | undefined
  let database: string | undefined
  const dataDir = await tempDir(t, async () => {
    await app?.close()
    if (mongodbUrl && database) await dropDatabase(mongodbUrl, database)
  })
  if (mongodbUrl) database = databaseFor(env.DATA_DIR ?? dataDir)
  // Rate limits are raised out of the way unless a test sets them; their own tests use the real values.
  const config = loadConfig({
    NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir,
    RATE_LIMIT_ANONYMOUS: '1000000', RATE_LIMIT_USER: '1000000', RATE_LIMIT_KEY_READ: '1000000', RATE_LIMIT_KEY_WRITE: '1000000',
    ...(mongodbUrl && database ? { MONGODB_URL: mongodbUrl, MONGODB_DB: database } : {}),
    ...env,
  })
  app = await buildApp(config, { ...options, plugins: [errorCodeCheck(t), ...options.plugins ?? []] })
  await app.ready()
  const keys = await signingKeys(config)
  const tokens = new Map<string, string>()
  const token = async (email: string, role?: Role) => {
    const key = `${email}:${role ?? ''}`
    let value = tokens.get(key)
    if (!value) {
      value = signIdToken(keys, config, { sub: userIdForEmail(email), email, ...(role ? { role_grant: role } : {}) })
      tokens.set(key, value)
    }
    return value
  }
  const ready = app
  return {
    app: ready,
    config,
    token,
    as: (email, role) => async (opts) => ready.inject({ ...opts, headers: { ...opts.headers, authorization: `Bearer ${await token(email, role)}` } }),
  }
}
