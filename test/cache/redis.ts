import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { Redis } from 'ioredis'
import type { Test } from 'tap'

export const sharedRedisUrl = 'redis://127.0.0.1:6379'

/**
 * A key prefix of its own on the shared Redis, and a client to inspect it; every key under the prefix is
 * deleted when the test ends (never FLUSHDB: other work uses this Redis).
 */
export async function privatePrefix(t: Test): Promise<{ prefix: string; redis: Redis }> {
  const prefix = `adks-test:${process.pid}:${Date.now().toString(36)}:${Math.random().toString(36).slice(2, 8)}:`
  const redis = new Redis(sharedRedisUrl)
  t.teardown(async () => {
    await deleteUnder(redis, prefix)
    await redis.quit()
  })
  return { prefix, redis }
}

export async function keysUnder(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = []
  let cursor = '0'
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500)
    cursor = next
    keys.push(...batch)
  } while (cursor !== '0')
  return keys
}

async function deleteUnder(redis: Redis, prefix: string): Promise<void> {
  const keys = await keysUnder(redis, `${prefix}*`)
  if (keys.length) await redis.unlink(...keys)
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/**
 * A redis-server of the test's own, which the test may stop and start again on the same port. Its data
 * survives a restart (append-only file, synced on every write) so a restart shows what a cache outage
 * leaves behind.
 */
export class OwnRedis {
  private child: ChildProcess | undefined

  constructor(readonly port: number, private readonly dir: string) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`
  }

  async start(): Promise<void> {
    const child = spawn('redis-server', [
      '--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir,
      '--appendonly', 'yes', '--appendfsync', 'always', '--save', '',
    ], { stdio: 'ignore' })
    this.child = child
    const probe = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 })
    probe.on('error', () => {})
    // Polled for 30 s, like every wait in the tests: a busy machine can take seconds to start a process.
    const deadline = Date.now() + 30_000
    try {
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`)
        try {
          await probe.connect()
          await probe.ping()
          return
        } catch {
          probe.disconnect()
          await new Promise((r) => setTimeout(r, 20))
        }
      }
      throw new Error('redis-server did not start within 30 s')
    } finally {
      probe.disconnect()
    }
  }

  /** Black-holes it: the process stops (SIGSTOP) with its connections open, so commands wait unanswered. */
  pause(): void {
    this.child?.kill('SIGSTOP')
  }

  /** Lets a paused server go on (SIGCONT); it then runs whatever its clients sent meanwhile. */
  resume(): void {
    this.child?.kill('SIGCONT')
  }

  async stop(): Promise<void> {
    const child = this.child
    if (!child || child.exitCode !== null) return
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGKILL')
    await exited
  }
}
