import { spawn, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:net'

/**
 * The built service as `npm start` and the Dockerfile run it: a young generation of 8 MB per semi-space
 * (V8 would grow it to 16) halves the nursery's share of the resident set and keeps it in cache; an
 * old generation allowed to grow to twice what the last full collection kept (V8 may choose up to four
 * times) holds the resident set steady under load; no pretenuring by allocation site, which in some
 * processes sent every request's objects to the old generation and made each request dearer by half;
 * and Node's own code on 2 MB pages (where the system offers them) spares the request path most of its
 * instruction TLB misses, which cost dearly on virtual machines.
 */
export const serviceArgs = ['--max-semi-space-size=8', '--heap-growing-percent=100', '--no-allocation-site-pretenuring', '--use-largepages=silent', 'dist/src/server.js'] as const

/**
 * The Redis a service on a MongoDB store runs with, as production runs it (REDIS_URL from the
 * environment, else the local server), under a prefix of its own so that runs never share keys.
 */
export function benchRedis(): Record<string, string> {
  return { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: `adks-bench-${process.pid}:` }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

export interface Started {
  readonly child: ChildProcess
  readonly url: string
  /** Milliseconds from spawn until the health URL answered 200. */
  readonly readyMs: number
}

/**
 * Starts a process (in `cwd`, another checkout's, when given) and waits until `readyPath` answers 200,
 * polling `attempts` times (about 12 s by default).
 */
export async function startServer(command: string, args: readonly string[], env: Record<string, string>, port: number, readyPath: string, cwd?: string, attempts = 600): Promise<Started> {
  const started = performance.now()
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < attempts; i++) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}`)
    try {
      if ((await fetch(url + readyPath)).ok) return { child, url, readyMs: performance.now() - started }
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 20))
  }
  child.kill('SIGKILL')
  throw new Error(`${command} did not become ready`)
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
  if (child.exitCode === null) child.kill('SIGKILL')
}

/** Resident set size now and at its peak, in MB, from /proc. */
export async function memory(pid: number): Promise<{ rssMb: number; peakRssMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 }
}

export function run(command: string, args: string[], env: Record<string, string> = {}, cwd?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] })
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))))
  })
}

/** Runs a command to its end and returns what it printed to stdout. */
export function output(command: string, args: string[], cwd?: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
    const chunks: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.once('exit', (code) => (code === 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))))
  })
}
