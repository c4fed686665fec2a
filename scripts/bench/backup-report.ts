/** The report of `npm run bench:backup` (backup.ts): one column per scale, each figure beside its target. */
import type { BackupRun, ChildRun, RestoreRun } from './backup-cli.js'
import { median, type BackupLoad } from './backup-load.js'
import type { LoadOptions } from './load.js'
import { fmt } from './report.js'
import type { SeedFigures } from './seed-cache.js'

export const backupTargets = {
  /** The scale the seconds' targets are set at. */
  scale: 100,
  backupS: 60,
  restoreS: 120,
  /** p95 of the person read during a backup, at most this many times its p95 without. */
  p95Factor: 2,
} as const

export interface Timed<R extends ChildRun> {
  readonly runs: readonly (R & { readonly load: number })[]
}

export interface ScaleBackupFigures {
  readonly scale: number
  readonly seed: SeedFigures & { readonly reused: boolean }
  /** The database file and its write-ahead log as the service was started on them. */
  readonly databaseMb: number
  readonly readyMs: number
  readonly backups: Timed<BackupRun>
  readonly verify: ChildRun & { readonly load: number }
  readonly restores: Timed<RestoreRun>
  readonly load: BackupLoad
  /** The service's resident set after the rounds, and its peak. */
  readonly service: { readonly rssMb: number; readonly peakRssMb: number }
}

export interface BackupFigures {
  readonly date: string
  readonly machine: string
  readonly options: LoadOptions
  readonly scales: readonly ScaleBackupFigures[]
}

const verdict = (met: boolean) => (met ? 'met' : 'missed')
const mb = (n: number) => `${fmt(n, n < 10 ? 1 : 0)} MB`
const s = (n: number) => `${fmt(n, n < 10 ? 2 : 1)} s`

/** The median run by wall seconds (the middle one of an odd count, the upper of an even). */
export function medianRun<R extends ChildRun>(runs: readonly R[]): R {
  return [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!
}

export function p95Met(l: BackupLoad): boolean {
  return l.p95During <= backupTargets.p95Factor * l.p95Without
}

function secondsCell(runs: readonly (ChildRun & { load: number })[]): string {
  const m = medianRun(runs)
  const all = runs.length > 1 ? ` (runs: ${runs.map((r) => fmt(r.seconds, 1)).join(', ')})` : ''
  return `${s(m.seconds)}; ${s(m.cpuSeconds)} of CPU; load ${m.load.toFixed(1)}${all}`
}

export function backupReport(f: BackupFigures): string {
  const cols = f.scales
  const t = backupTargets
  const row = (what: string, cell: (x: ScaleBackupFigures) => string, target = '') => `| ${what} | ${cols.map(cell).join(' | ')} | ${target} |`
  const at = cols.find((x) => x.scale === t.scale)
  const secondsTarget = (bound: number, pick: (x: ScaleBackupFigures) => number) =>
    `≤ ${bound} s at scale ${t.scale}: ${at ? verdict(pick(at) <= bound) : 'not measured'}`
  const backup = (x: ScaleBackupFigures) => medianRun(x.backups.runs)
  const restore = (x: ScaleBackupFigures) => medianRun(x.restores.runs)
  const ratio = (l: BackupLoad) => l.p95During / l.p95Without
  const lines = [
    `# Backups and restore on the embedded store, ${f.date}`,
    '',
    `${f.machine}. The archives encrypted (AES-256-GCM under SECRETS_KEY), as by default. Backup and restore are the built`,
    'command lines (`node dist/scripts/backup.js`, `restore.js`: what `npm run backup` and `npm run restore` run, less tsx\'s start-up),',
    'each timed from spawn to exit with its CPU and peak resident set from GNU time; the backups beside the service serving the',
    `same DATA_DIR, the restores into an empty DATA_DIR. The person read: ${f.options.rounds} round(s) of ${f.options.durationSeconds} s (after 1 s unmeasured) at ${f.options.connections} connections,`,
    'CACHE=off, each round one of the bare Fastify, one without a backup and one while backups run (one after another for the whole round),',
    'the median round\'s figures reported.',
    '',
    `| what | ${cols.map((x) => `scale ${x.scale}`).join(' | ')} | target |`,
    `|---|${cols.map(() => '---').join('|')}|---|`,
    row('seed', (x) => `${s(x.seed.seconds)}${x.seed.reused ? ' (kept from an earlier run)' : ''}: ${x.seed.summary.split('\n').at(-1)!.split(':')[0]}`),
    row('database file (with its WAL)', (x) => mb(x.databaseMb)),
    row('documents, collections', (x) => `${fmt(backup(x).documents)}, ${backup(x).collections}`),
    row(`backup, median of ${cols[0]?.backups.runs.length ?? 0}`, (x) => secondsCell(x.backups.runs), secondsTarget(t.backupS, (x) => backup(x).seconds)),
    row('archive', (x) => `${mb(backup(x).bytes / 2 ** 20)} (${fmt(backup(x).bytes)} bytes), ${(100 * backup(x).bytes / 2 ** 20 / x.databaseMb).toFixed(0)}% of the database file`),
    row('backup peak RSS', (x) => mb(Math.max(...x.backups.runs.map((r) => r.peakRssMb)))),
    row('`--verify` of the archive', (x) => `${s(x.verify.seconds)}; ${s(x.verify.cpuSeconds)} of CPU; peak RSS ${mb(x.verify.peakRssMb)}`),
    row(`restore into an empty DATA_DIR, median of ${cols[0]?.restores.runs.length ?? 0}`, (x) => secondsCell(x.restores.runs), secondsTarget(t.restoreS, (x) => restore(x).seconds)),
    row('restored', (x) => `${fmt(restore(x).documents)} documents, audit chain of ${fmt(restore(x).auditEntries)} entries intact`),
    row('restore peak RSS', (x) => mb(Math.max(...x.restores.runs.map((r) => r.peakRssMb)))),
    row('person read p95, without a backup', (x) => `${fmt(x.load.p95Without, 2)} ms`),
    row('person read p95, during a backup', (x) => `${fmt(x.load.p95During, 2)} ms (${ratio(x.load).toFixed(2)}×)`, `≤ ${t.p95Factor}× without: ${cols.map((x) => `scale ${x.scale} ${verdict(p95Met(x.load))}`).join(', ')}`),
    row('p50, p99 without', (x) => `${fmt(x.load.p50Without, 2)}, ${fmt(x.load.p99Without, 2)} ms`),
    row('p50, p99 during', (x) => `${fmt(x.load.p50During, 2)}, ${fmt(x.load.p99During, 2)} ms`),
    row('req/s without, during; bare Fastify', (x) => `${fmt(x.load.rpsWithout)}, ${fmt(x.load.rpsDuring)}; ${fmt(x.load.bareRps)}`),
    row('service CPU µs/req without, during', (x) => `${fmt(x.load.cpuUsWithout)}, ${fmt(x.load.cpuUsDuring)}`),
    row('errors', (x) => String(x.load.errors)),
    row('service ready; RSS after the rounds, peak', (x) => `${fmt(x.readyMs)} ms; ${mb(x.service.rssMb)}, ${mb(x.service.peakRssMb)}`),
    '',
  ]
  for (const x of cols) {
    lines.push(
      `Scale ${x.scale}, the person read's rounds (p95 ms; req/s):`,
      '',
      '| round | bare req/s | without | during | backups started (ended) in the round |',
      '|---:|---:|---|---|---:|',
      ...x.load.rounds.map((r, i) => `| ${i + 1} | ${fmt(r.bare.rps)} | ${fmt(r.without.latency.p95, 2)}; ${fmt(r.without.rps)} | ${fmt(r.during.latency.p95, 2)}; ${fmt(r.during.rps)} | ${r.during.backupsStarted} (${r.during.backupsCompleted}) |`),
      '',
    )
  }
  const medianRatio = median(cols.map((x) => ratio(x.load)))
  if (cols.length) lines.push(`p95 during a backup over p95 without, by scale: ${cols.map((x) => `${x.scale}: ${ratio(x.load).toFixed(2)}×`).join(', ')} (median ${medianRatio.toFixed(2)}×).`, '')
  return lines.join('\n')
}
