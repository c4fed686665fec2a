import autocannon from 'autocannon'
import type { LoadOptions, Target } from './load.js'
import { summarize, type Latency } from './search.js'
import { readFile } from 'node:fs/promises'

/** A target driven by autocannon, with every response's latency kept for exact percentiles. */
export interface Timed {
  readonly name: string
  readonly rps: number
  readonly latency: Latency
  readonly errors: number
  /** Server CPU time per request, in microseconds. */
  readonly cpuUs?: number
}

export interface PairedTimed extends Timed {
  /** Median over the rounds of this target's req/s over the baseline's in the same round. */
  readonly ratio: number
  readonly bare: Timed
  /** Every round's figures, in the order taken. */
  readonly rounds: readonly { readonly rps: number; readonly bareRps: number; readonly p50: number; readonly p95: number; readonly cpuUs?: number }[]
}

/** CPU time (user + system) a process has used, in microseconds, from /proc. */
export async function cpuTimeUs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

/**
 * autocannon's summary has no 95th percentile (it reports 90 and 97.5), and the targets are set on it, so
 * each response's time is kept from its `response` event.
 */
function drive(target: Target, options: { connections: number; durationSeconds: number } | { connections: number; amount: number }, latencies?: number[]): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const clients = target.setupClient ? { setupClient: target.setupClient } : {}
    const length = 'amount' in options ? { amount: options.amount } : { duration: options.durationSeconds }
    const instance = autocannon({ url: target.url, headers: target.headers, connections: options.connections, ...length, ...clients }, (error, result) => (error ? reject(error) : resolve(result)))
    if (latencies) instance.on('response', (_client, _status, _bytes, ms) => void latencies.push(ms))
  })
}

/** One second unmeasured, then `durationSeconds` measured. */
export async function timedLoad(name: string, target: Target, options: Pick<LoadOptions, 'connections' | 'durationSeconds'>): Promise<Timed> {
  await drive(target, { ...options, durationSeconds: 1 })
  const latencies: number[] = []
  const cpuBefore = target.pid === undefined ? 0 : await cpuTimeUs(target.pid)
  const result = await drive(target, options, latencies)
  const cpuAfter = target.pid === undefined ? 0 : await cpuTimeUs(target.pid)
  const errors = result.errors + result.timeouts + result.non2xx
  return {
    name, rps: result.requests.average, latency: summarize(latencies, errors), errors,
    ...(target.pid === undefined || !result.requests.total ? {} : { cpuUs: (cpuAfter - cpuBefore) / result.requests.total }),
  }
}

/** Exactly `amount` requests, all measured (a warm-up is the caller's); req/s over their own time. */
export async function timedAmount(name: string, target: Target, connections: number, amount: number): Promise<Timed> {
  const latencies: number[] = []
  const cpuBefore = target.pid === undefined ? 0 : await cpuTimeUs(target.pid)
  const started = performance.now()
  const result = await drive(target, { connections, amount }, latencies)
  const seconds = (performance.now() - started) / 1000
  const cpuAfter = target.pid === undefined ? 0 : await cpuTimeUs(target.pid)
  const errors = result.errors + result.timeouts + result.non2xx
  return {
    name, rps: result.requests.total / seconds, latency: summarize(latencies, errors), errors,
    ...(target.pid === undefined || !result.requests.total ? {} : { cpuUs: (cpuAfter - cpuBefore) / result.requests.total }),
  }
}

/** As load.ts's `paired`: rounds of the baseline and then the target, the round of median ratio reported. */
export async function pairedTimed(name: string, bare: Target, target: Target, options: LoadOptions): Promise<PairedTimed> {
  return (await alternatedTimed(bare, [{ name, target }], options))[0]!
}

/**
 * As load.ts's `alternated`, with every response timed: each round a round of the baseline and then one
 * of each target in turn, in reverse order every other round; for each target the round of median ratio.
 */
export async function alternatedTimed(bare: Target, targets: readonly { name: string; target: Target }[], options: LoadOptions): Promise<PairedTimed[]> {
  const rounds = targets.map(() => [] as (Timed & { ratio: number; bare: Timed })[])
  for (let i = 0; i < options.rounds; i++) {
    const baseline = await timedLoad('bare Fastify: GET /', bare, options)
    const order = targets.map((_, t) => t)
    for (const t of i % 2 ? order.reverse() : order) {
      const result = await timedLoad(targets[t]!.name, targets[t]!.target, options)
      rounds[t]!.push({ ...result, ratio: result.rps / baseline.rps, bare: baseline })
    }
  }
  return rounds.map((measured) => {
    const median = [...measured].sort((a, b) => a.ratio - b.ratio)[Math.floor(measured.length / 2)]!
    return {
      ...median, errors: measured.reduce((sum, round) => sum + round.errors, 0),
      rounds: measured.map((r) => ({ rps: r.rps, bareRps: r.bare.rps, p50: r.latency.p50, p95: r.latency.p95, ...(r.cpuUs === undefined ? {} : { cpuUs: r.cpuUs }) })),
    }
  })
}
