/**
 * The backup and restore command lines (the built dist/scripts/backup.js and restore.js, what
 * `npm run backup` and `npm run restore` run less tsx's start-up) run as children and timed: wall
 * seconds from spawn to exit, CPU seconds and peak resident set. Those two come from GNU time
 * (`/usr/bin/time`, the kernel's rusage of the exited child, so the peak is exact); without it, from
 * /proc/<pid> read every 10 ms while the child runs (VmHWM only grows, so at most the last 10 ms are missed).
 * BENCH_BACKUP_PROFILE=1 runs each timed child with --cpu-prof into bench-results/backup-profiles/.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cpuTimeUs } from './scale-load.js'

const gnuTime = '/usr/bin/time'
export const profileDir = 'bench-results/backup-profiles'
const profiling = process.env.BENCH_BACKUP_PROFILE === '1'

export interface ChildRun {
  readonly seconds: number
  /** User + system CPU seconds of the child. */
  readonly cpuSeconds: number
  readonly peakRssMb: number
  readonly stdout: string
  /** How the peak and the CPU were read. */
  readonly measuredBy: 'GNU time' | '/proc'
}

async function procFigures(pid: number): Promise<{ peakKb: number; cpuUs: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    return { peakKb: Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0), cpuUs: await cpuTimeUs(pid) }
  } catch {
    return null // exited between two reads
  }
}

/** Runs `node <args>` to its end with `env` added; throws with its stderr's last line on a non-zero exit. */
export async function timedNode(args: readonly string[], env: Record<string, string>, label: string): Promise<ChildRun> {
  const profile = profiling ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, label)}`] : []
  if (profiling) await mkdir(join(profileDir, label), { recursive: true })
  const timed = existsSync(gnuTime)
  const timeFile = join(tmpdir(), `adks-bench-backup-time-${process.pid}-${Date.now()}.txt`)
  const command = timed ? gnuTime : process.execPath
  const argv = timed ? ['-f', '%M %U %S', '-o', timeFile, process.execPath, ...profile, ...args] : [...profile, ...args]
  const started = performance.now()
  const child = spawn(command, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const out: Buffer[] = []
  const err: Buffer[] = []
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  let sampled = { peakKb: 0, cpuUs: 0 }
  let done = false
  void exited.then(() => { done = true })
  if (!timed) {
    while (!done) {
      sampled = (await procFigures(child.pid!)) ?? sampled
      await new Promise((r) => setTimeout(r, 10))
    }
  }
  const code = await exited
  const seconds = (performance.now() - started) / 1000
  const stdout = Buffer.concat(out).toString('utf8')
  if (code !== 0) {
    const lines = Buffer.concat(err).toString('utf8').trim().split('\n')
    throw new Error(`node ${args.join(' ')} exited with ${code}: ${lines.at(-1) ?? ''}`)
  }
  if (!timed) return { seconds, cpuSeconds: sampled.cpuUs / 1e6, peakRssMb: sampled.peakKb / 1024, stdout, measuredBy: '/proc' }
  const [kb, user, system] = (await readFile(timeFile, 'utf8')).trim().split('\n').at(-1)!.split(' ').map(Number)
  await rm(timeFile, { force: true })
  return { seconds, cpuSeconds: user! + system!, peakRssMb: kb! / 1024, stdout, measuredBy: 'GNU time' }
}

export interface BackupRun extends ChildRun {
  readonly bytes: number
  readonly documents: number
  readonly collections: number
}

/** `node dist/scripts/backup.js --out FILE` beside the service on DATA_DIR; its line says documents, collections and bytes. */
export async function timedBackup(env: Record<string, string>, file: string): Promise<BackupRun> {
  const run = await timedNode(['dist/scripts/backup.js', '--out', file], env, 'backup')
  const said = /: (\d+) documents in (\d+) collections .*, (\d+) bytes, encrypted/.exec(run.stdout)
  if (!said) throw new Error(`backup said: ${run.stdout.trim()}`)
  return { ...run, documents: Number(said[1]), collections: Number(said[2]), bytes: Number(said[3]) }
}

export interface RestoreRun extends ChildRun {
  readonly documents: number
  readonly auditEntries: number
}

/** `node dist/scripts/restore.js FILE` into the (empty) DATA_DIR of `env`. */
export async function timedRestore(env: Record<string, string>, file: string): Promise<RestoreRun> {
  const run = await timedNode(['dist/scripts/restore.js', file], env, 'restore')
  const said = /restored (\d+) documents .*audit chain intact \((\d+) entries\)/.exec(run.stdout)
  if (!said) throw new Error(`restore said: ${run.stdout.trim()}`)
  return { ...run, documents: Number(said[1]), auditEntries: Number(said[2]) }
}

/** `node dist/scripts/backup.js --verify FILE`: the key, the tag and every checksum, nothing written. */
export async function timedVerify(env: Record<string, string>, file: string): Promise<ChildRun> {
  const run = await timedNode(['dist/scripts/backup.js', '--verify', file], env, 'verify')
  if (!/: good: /.test(run.stdout)) throw new Error(`verify said: ${run.stdout.trim()}`)
  return run
}

/**
 * Backups one after another, each into `dir` (removed when it ends), until `stop`: the one running then
 * is ended (SIGTERM) and waited for. `stop` gives how many ran to their end and how many were started.
 */
export function backupsRunning(env: Record<string, string>, dir: string): { stop(): Promise<{ completed: number; started: number }> } {
  let stopping = false
  let completed = 0
  let started = 0
  let current: ReturnType<typeof spawn> | undefined
  let failure: unknown
  const loop = (async () => {
    while (!stopping) {
      const file = join(dir, `during-${started}.backup`)
      started++
      current = spawn(process.execPath, ['dist/scripts/backup.js', '--out', file], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] })
      const code = await new Promise<number | null>((resolve) => current!.once('exit', (c) => resolve(c)))
      if (code === 0) completed++
      else if (!stopping) throw new Error(`a backup during the load exited with ${code}`)
      await rm(file, { force: true })
      await rm(`${file}.partial`, { force: true })
    }
  })().catch((error: unknown) => { failure = error })
  return {
    async stop() {
      stopping = true
      if (current && current.exitCode === null && current.signalCode === null) current.kill('SIGTERM')
      await loop
      if (failure) throw failure
      return { completed, started }
    },
  }
}
