/**
 * npm run bench:backup: backups and restore on the embedded store (docs/operations.md), at scale 10 and
 * at scale 100 (BENCH_BACKUP_SCALES, comma-separated; `10` for a quick run). For each scale: the
 * department seeded (kept in the system's temporary directory while its sources are unchanged,
 * seed-cache.ts; BENCH_RESEED=1 seeds again), a copy of it served by the built service (CACHE=off) beside
 * the bare Fastify, then, with the service idle:
 * - the backup command line (`node dist/scripts/backup.js --out FILE`, encrypted under SECRETS_KEY as
 *   by default) BENCH_BACKUP_REPEATS times (default 3): wall seconds, CPU seconds and peak resident set
 *   (backup-cli.ts), and the archive's bytes; the median run reported. Target at scale 100: ≤ 60 s.
 * - `--verify` of the last archive, once.
 * - the restore command line (`node dist/scripts/restore.js FILE`) into an empty DATA_DIR as many
 *   times, each into a fresh directory. Target at scale 100: ≤ 120 s.
 * then the person read under load without a backup and while backups run, in rounds beside the bare
 * Fastify (backup-load.ts). Target: p95 during a backup at most twice its p95 without.
 *
 * BENCH_DURATION, BENCH_ROUNDS and BENCH_CONNECTIONS apply as in run.ts; BENCH_BACKUP_PROFILE=1 writes a
 * CPU profile of each timed backup, verify and restore into bench-results/backup-profiles/. Results go
 * to stdout and bench-results/backup.md and .json.
 */
import { cp, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { timedBackup, timedRestore, timedVerify, type BackupRun, type RestoreRun } from './backup-cli.js'
import { backupLoad } from './backup-load.js'
import { backupReport, type BackupFigures, type ScaleBackupFigures } from './backup-report.js'
import { warmUp, type Target } from './load.js'
import { freePort, memory, run, serviceArgs, startServer, stop, type Started } from './processes.js'
import { benchEnv, cachedSeed } from './seed-cache.js'
import { auth, machine, options } from './setup.js'

const scales = (process.env.BENCH_BACKUP_SCALES ?? '10,100').split(',').map((x) => Number(x.trim())).filter((x) => x > 0)
const repeats = Math.max(1, Number(process.env.BENCH_BACKUP_REPEATS ?? 3))

async function bytesOf(dir: string): Promise<number> {
  let total = 0
  for (const name of await readdir(dir)) if (/\.sqlite(-wal)?$/.test(name)) total += (await stat(join(dir, name))).size
  return total
}

async function aFacultyMember(base: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${base}/api/people?type=Faculty&limit=1`, { headers })
  if (!response.ok) throw new Error(`GET /api/people: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { items: { _id: string }[] }).items[0]!._id
}

async function benchScale(scale: number, env: Record<string, string>, bare: Target): Promise<ScaleBackupFigures> {
  const { dir: seeded, seed, reused } = await cachedSeed(scale, env)
  const work = await mkdtemp(join(tmpdir(), `adks-bench-backup-${scale}-`))
  let service: Started | undefined
  try {
    const dataDir = join(work, 'data')
    await cp(seeded, dataDir, { recursive: true })
    const databaseMb = await bytesOf(dataDir) / 2 ** 20
    const serviceEnv = { ...env, DATA_DIR: dataDir, CACHE: 'off' }
    const port = await freePort()
    service = await startServer('node', [...serviceArgs], serviceEnv, port, '/ready', undefined, 3000)
    const pid = service.child.pid!
    const admin = await auth(serviceEnv, port)
    const person: Target = { url: `${service.url}/api/people/${encodeURIComponent(await aFacultyMember(service.url, admin))}`, headers: admin, pid }
    await warmUp(person, options, 3)

    // The backup's environment is the service's (its DATA_DIR and SECRETS_KEY), as an operator's shell would have it.
    const archives = join(work, 'archives')
    await mkdir(archives, { recursive: true })
    const backups: (BackupRun & { load: number })[] = []
    for (let i = 0; i < repeats; i++) {
      const file = join(archives, `timed-${i}.backup`)
      const taken = await timedBackup(serviceEnv, file)
      backups.push({ ...taken, load: loadavg()[0]! })
      console.error(`scale ${scale}: backup ${i + 1}/${repeats}: ${taken.seconds.toFixed(2)} s, ${taken.bytes} bytes, peak RSS ${taken.peakRssMb.toFixed(0)} MB`)
      if (i < repeats - 1) await rm(file)
    }
    const archive = join(archives, `timed-${repeats - 1}.backup`)
    const verify = { ...await timedVerify(serviceEnv, archive), load: loadavg()[0]! }
    console.error(`scale ${scale}: verify: ${verify.seconds.toFixed(2)} s`)

    const restores: (RestoreRun & { load: number })[] = []
    for (let i = 0; i < repeats; i++) {
      const into = join(work, `restored-${i}`)
      await mkdir(into)
      const restored = await timedRestore({ ...env, DATA_DIR: into }, archive)
      restores.push({ ...restored, load: loadavg()[0]! })
      console.error(`scale ${scale}: restore ${i + 1}/${repeats}: ${restored.seconds.toFixed(2)} s, ${restored.documents} documents, peak RSS ${restored.peakRssMb.toFixed(0)} MB`)
      if (restored.documents !== backups.at(-1)!.documents) throw new Error(`restored ${restored.documents} documents of the backup's ${backups.at(-1)!.documents}`)
      await rm(into, { recursive: true, force: true })
    }
    await rm(archive)

    const load = await backupLoad(bare, person, serviceEnv, join(work, 'during'), options)
    const service_ = await memory(pid)
    return {
      scale, seed: { ...seed, reused }, databaseMb, readyMs: service.readyMs,
      backups: { runs: backups }, verify, restores: { runs: restores }, load, service: { rssMb: service_.rssMb, peakRssMb: service_.peakRssMb },
    }
  } finally {
    if (service) await stop(service.child)
    await rm(work, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  await run('npm', ['run', 'build', '--silent'])
  const env = benchEnv()
  const bareServer = await startServer('node', ['--import', 'tsx', 'scripts/bench/bare-server.ts'], {}, await freePort(), '/')
  const bare: Target = { url: `${bareServer.url}/`, headers: {}, pid: bareServer.child.pid }
  const measured: ScaleBackupFigures[] = []
  try {
    await mkdir('bench-results', { recursive: true })
    for (const scale of scales) {
      measured.push(await benchScale(scale, env, bare))
      // Written after each scale: a later one that fails leaves the earlier figures.
      const figures: BackupFigures = { date: new Date().toISOString().slice(0, 10), machine: machine(), options, scales: measured }
      await writeFile('bench-results/backup.json', JSON.stringify(figures, null, 2))
      await writeFile('bench-results/backup.md', backupReport(figures))
    }
  } finally {
    await stop(bareServer.child)
  }
  console.log(backupReport({ date: new Date().toISOString().slice(0, 10), machine: machine(), options, scales: measured }))
}

await main()
