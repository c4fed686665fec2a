/**
 * The service's person read (GET /api/people/:id as an admin, CACHE=off) under autocannon, without a
 * backup and while backups run beside it, in rounds: each round one of the bare Fastify, then the read
 * without a backup and the read during backups, in reverse order every other round. "During" starts a
 * backup (`node dist/scripts/backup.js` on the service's DATA_DIR, as `npm run backup` is run beside a
 * serving service) and, when one ends before the round does, another at once, so that a backup runs
 * for the whole round, its 1 s unmeasured start included; the one running when the round ends is
 * stopped. Every response is timed (scale-load.ts); per target the median of the rounds' p95 is reported.
 */
import { mkdir } from 'node:fs/promises'
import type { LoadOptions, Target } from './load.js'
import { backupsRunning } from './backup-cli.js'
import { timedLoad, type Timed } from './scale-load.js'

export interface LoadRound {
  readonly bare: Timed
  readonly without: Timed
  readonly during: Timed & { readonly backupsCompleted: number; readonly backupsStarted: number }
}

export interface BackupLoad {
  readonly rounds: readonly LoadRound[]
  /** Medians over the rounds. */
  readonly p95Without: number
  readonly p95During: number
  readonly p50Without: number
  readonly p50During: number
  readonly p99Without: number
  readonly p99During: number
  readonly rpsWithout: number
  readonly rpsDuring: number
  readonly bareRps: number
  /** Service CPU µs a request, medians. */
  readonly cpuUsWithout: number
  readonly cpuUsDuring: number
  readonly errors: number
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : Number.NaN
}

export async function backupLoad(bare: Target, person: Target, backupEnv: Record<string, string>, scratch: string, options: LoadOptions): Promise<BackupLoad> {
  await mkdir(scratch, { recursive: true })
  const rounds: LoadRound[] = []
  for (let i = 0; i < options.rounds; i++) {
    const bareRound = await timedLoad('bare Fastify: GET /', bare, options)
    let without: Timed | undefined
    let during: LoadRound['during'] | undefined
    const measureWithout = async () => { without = await timedLoad('GET /api/people/:id', person, options) }
    const measureDuring = async () => {
      const backups = backupsRunning(backupEnv, scratch)
      let timed: Timed
      try {
        timed = await timedLoad('GET /api/people/:id during a backup', person, options)
      } catch (error) {
        await backups.stop().catch(() => undefined)
        throw error
      }
      const { completed, started } = await backups.stop()
      during = { ...timed, backupsCompleted: completed, backupsStarted: started }
    }
    for (const measure of i % 2 ? [measureDuring, measureWithout] : [measureWithout, measureDuring]) await measure()
    rounds.push({ bare: bareRound, without: without!, during: during! })
    console.error(`backup load, round ${i + 1}/${options.rounds}: p95 ${without!.latency.p95} ms without, ${during!.latency.p95} ms during ${during!.backupsStarted} backup(s) (${during!.backupsCompleted} ended)`)
  }
  const of = (pick: (r: LoadRound) => number) => median(rounds.map(pick))
  return {
    rounds,
    p95Without: of((r) => r.without.latency.p95), p95During: of((r) => r.during.latency.p95),
    p50Without: of((r) => r.without.latency.p50), p50During: of((r) => r.during.latency.p50),
    p99Without: of((r) => r.without.latency.p99), p99During: of((r) => r.during.latency.p99),
    rpsWithout: of((r) => r.without.rps), rpsDuring: of((r) => r.during.rps), bareRps: of((r) => r.bare.rps),
    cpuUsWithout: of((r) => r.without.cpuUs ?? Number.NaN), cpuUsDuring: of((r) => r.during.cpuUs ?? Number.NaN),
    errors: rounds.reduce((sum, r) => sum + r.without.errors + r.during.errors, 0),
  }
}
