import { execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Redis } from 'ioredis'
import type { Test } from 'tap'
import type { Role } from '../../src/auth/permissions.js'
import { send } from '../auth/support.js'
import { freePort, mintToken, projectRoot, startServer, type ServerProcess } from '../process/server-process.js'

const run = promisify(execFile)

async function tempDir(t: Test, name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `adks-${name}-`))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/**
 * One MongoDB-wire server for the test file (call it with the file's root test): `MONGODB_URL` when set,
 * else a FerretDB started by `scripts/ferretdb.sh` (built on first use), stopped when the file ends. Each
 * pair of instances gets its own database on it.
 */
export async function mongoUrl(t: Test): Promise<string> {
  if (process.env.MONGODB_URL) return process.env.MONGODB_URL
  const script = join(projectRoot, 'scripts/ferretdb.sh')
  if (!existsSync(script)) {
    throw new Error('two API processes need one MongoDB-wire server: set MONGODB_URL, or provide scripts/ferretdb.sh to start FerretDB')
  }
  const dir = await tempDir(t, 'ferretdb')
  t.teardown(() => run('bash', [script, 'stop', dir]).then(() => {}, () => {}))
  const { stdout } = await run('bash', [script, 'start', dir], { timeout: 300_000 })
  return stdout.trim()
}

export interface OwnRedis {
  readonly url: string
  /** Freezes the server: connections stay open and nothing answers (a black hole, not a refusal). */
  pause(): void
  resume(): void
}

/** A redis-server of this test's own, on a free port, so it can be stopped without touching anyone else's. */
export async function ownRedis(t: Test): Promise<OwnRedis> {
  const port = await freePort()
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  t.teardown(() => {
    child.kill('SIGCONT')
    child.kill('SIGKILL')
  })
  const url = `redis://127.0.0.1:${port}`
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
  probe.on('error', () => {})
  // Polled for 30 s, like every wait in the tests: a busy machine can take seconds to start a process.
  const deadline = Date.now() + 30_000
  for (;;) {
    try {
      await probe.connect()
      await probe.ping()
      probe.disconnect()
      break
    } catch (error) {
      if (Date.now() >= deadline) throw new Error(`redis-server did not start on ${port} within 30 s: ${(error as Error).message}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  return { url, pause: () => child.kill('SIGSTOP'), resume: () => child.kill('SIGCONT') }
}

export interface Instance {
  readonly server: ServerProcess
  /** Sends a request; `as` is a token, or `{ key }` for an API key. */
  call(method: string, path: string, as?: string | { key: string }, body?: unknown): Promise<{ status: number; json: any }>
}

export interface TwoInstances {
  readonly a: Instance
  readonly b: Instance
  token(email: string, role: Role): Promise<string>
}

/**
 * Two API processes on one MongoDB database (fresh for this test) and, when given, one Redis. They share
 * the signing secret and public URL, so a token is good on both. A starts first, so the seeding done at
 * start-up is A's alone.
 */
export async function twoInstances(t: Test, mongo: string, redisUrl?: string): Promise<TwoInstances> {
  const unique = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  const common: Record<string, string> = {
    MONGODB_URL: mongo,
    MONGODB_DB: `adks_cluster_${unique}`,
    JWT_SECRET: 'two-instances-test-secret-of-forty-characters',
    PUBLIC_URL: 'http://adks.cluster.test',
    // Prefixes of their own: other tests may share the Redis.
    ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_PREFIX: `adks-cluster-${unique}:`, CACHE_KEY_PREFIX: `adks-cluster-cache-${unique}:` } : {}),
  }
  const start = async (name: string) => {
    const env = { ...common, PORT: String(await freePort()), DATA_DIR: await tempDir(t, name) }
    return { env, server: await startServer(t, env) }
  }
  const first = await start('a')
  const second = await start('b')
  const instance = ({ server }: { server: ServerProcess }): Instance => ({
    server,
    async call(method, path, as, body) {
      const headers: Record<string, string> = {}
      if (typeof as === 'string') headers.Authorization = `Bearer ${as}`
      else if (as) headers['X-API-Key'] = as.key
      const res = await send(Number(new URL(server.url).port), method, path, headers, body)
      let json: any
      try {
        json = res.body ? res.json() : undefined
      } catch {
        json = res.body
      }
      return { status: res.status, json }
    },
  })
  return { a: instance(first), b: instance(second), token: (email, role) => mintToken(first.env, email, role) }
}

/** Asks until `done` holds or `withinMs` passes; true when it held. */
export async function eventually(withinMs: number, done: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + withinMs
  for (;;) {
    if (await done()) return true
    if (Date.now() >= deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
