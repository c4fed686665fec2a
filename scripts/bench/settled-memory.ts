/**
 * A service's resident set once it has settled: after a few seconds with no load (background work a
 * load leaves behind finishes) and two full garbage collections asked of it by signal (gc-on-signal.mjs,
 * loaded into the service), so that garbage a load left in V8's heap is not counted as memory it keeps.
 */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { memory } from './processes.js'

/** Node arguments, before the service's own, that let `settledMemory` collect its garbage. */
export const collectableArgs = ['--expose-gc', '--import', resolve('scripts/bench/gc-on-signal.mjs')] as const

export interface SettledMemory {
  /** Resident set from /proc before the collections, after the idle wait. */
  readonly idleRssMb: number
  /** Resident set from /proc after them: the figure the targets are judged on. */
  readonly rssMb: number
  /** Its parts, from /proc: anonymous memory (V8's heap, SQLite's caches, malloc), file pages mapped, shared memory (SQLite's WAL index). */
  readonly anonMb: number
  readonly fileMb: number
  readonly shmemMb: number
  /** V8's heap in use, its heap reserved, and memory outside it (SQLite, buffers), as the process reported after them. */
  readonly heapUsedMb: number
  readonly heapTotalMb: number
  readonly externalMb: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const mb = (bytes: number) => bytes / 2 ** 20

/** `file` is the service's BENCH_MEMORY_FILE. */
export async function settledMemory(pid: number, file: string, idleMs = 5000): Promise<SettledMemory> {
  await sleep(idleMs)
  const idle = await memory(pid)
  const asked = Date.now()
  for (let i = 0; i < 2; i++) {
    process.kill(pid, 'SIGWINCH')
    await sleep(1000)
  }
  const after = await memory(pid)
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const statusMb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024
  const reported = JSON.parse(await readFile(file, 'utf8')) as { at: number; heapUsed: number; heapTotal: number; external: number }
  if (reported.at < asked) throw new Error(`the service (pid ${pid}) did not answer SIGWINCH: is gc-on-signal.mjs loaded?`)
  return {
    idleRssMb: idle.rssMb, rssMb: after.rssMb, anonMb: statusMb('RssAnon'), fileMb: statusMb('RssFile'), shmemMb: statusMb('RssShmem'),
    heapUsedMb: mb(reported.heapUsed), heapTotalMb: mb(reported.heapTotal), externalMb: mb(reported.external),
  }
}
