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
function drive(target: Target, options: Pick<LoadOptions, 'connections' | 'durationSeconds'>, latencies?: number[]): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url: target.url, headers: target.headers, connections: options.connections, duration: options.durationSeconds }, (error, result) => (error ? reject(error) : resolve(result)))
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

/** As load.ts's `paired`: rounds of the baseline and then the target, the round of median ratio reported. */
export async function pairedTimed(name: string, bare: Target, target: Target, options: LoadOptions): Promise<PairedTimed> {
  const rounds: PairedTimed[] = []
  for (let i = 0; i < options.rounds; i++) {
    const baseline = await timedLoad('bare Fastify: GET /', bare, options)
    const result = await timedLoad(name, target, options)
    rounds.push({ ...result, ratio: result.rps / baseline.rps, bare: baseline })
  }
  const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!
  return { ...median, errors: rounds.reduce((sum, round) => sum + round.errors, 0) }
}
