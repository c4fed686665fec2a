import autocannon from 'autocannon'
import { readFile } from 'node:fs/promises'

export interface LoadResult {
  readonly name: string
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  /**
   * Server CPU time (user + system) per request, in microseconds. Unlike requests per second it hardly
   * depends on what else the machine is doing, so it is the figure to compare two paths by.
   */
  readonly cpuUs?: number
}

/** A scenario measured in rounds, each right after a round of the bare baseline. */
export interface PairedResult extends LoadResult {
  /** The median over the rounds of this scenario's requests per second over the baseline's in that round. */
  readonly ratio: number
  /** The baseline in the round whose ratio is the median. */
  readonly bare: LoadResult
  readonly rounds: readonly { readonly rps: number; readonly bareRps: number }[]
}

export interface LoadOptions {
  readonly durationSeconds: number
  readonly connections: number
  /** Rounds of (baseline, scenario) per scenario; the median round is reported. */
  readonly rounds: number
}

export interface Target {
  readonly url: string
  readonly headers: Record<string, string>
  /** The server's pid, for its CPU time. */
  readonly pid: number | undefined
  /**
   * For a write (person-writes.ts): sets each connection's requests (method, path, a body per request)
   * in place of a GET of `url`.
   */
  readonly setupClient?: (client: autocannon.Client) => void
}

/** CPU time a process has used, in microseconds, from /proc (clock ticks of 10 ms on Linux). */
async function cpuTimeUs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

/**
 * Drives one URL with autocannon after a short warm-up; any non-2xx answer counts as an error. Given the
 * server's pid, also reports the server's CPU time per request.
 */
export async function load(name: string, target: Target, options: Omit<LoadOptions, 'rounds'>): Promise<LoadResult> {
  const { url, headers, pid, setupClient } = target
  const clients = setupClient ? { setupClient } : {}
  await autocannon({ url, headers, connections: options.connections, duration: 1, ...clients })
  const cpuBefore = pid === undefined ? 0 : await cpuTimeUs(pid)
  const result = await autocannon({ url, headers, connections: options.connections, duration: options.durationSeconds, ...clients })
  const cpuAfter = pid === undefined ? 0 : await cpuTimeUs(pid)
  const latency = result.latency as unknown as Record<string, number>
  return {
    name,
    rps: result.requests.average,
    p50: latency.p50 ?? 0,
    p99: latency.p99 ?? 0,
    errors: result.errors + result.timeouts + result.non2xx,
    ...(pid === undefined || !result.requests.total ? {} : { cpuUs: (cpuAfter - cpuBefore) / result.requests.total }),
  }
}

/** Load that is not measured: a service's code paths are compiled and its caches filled before its first round. */
export async function warmUp(target: Target, options: Pick<LoadOptions, 'connections'>, seconds: number): Promise<void> {
  await autocannon({ url: target.url, headers: target.headers, connections: options.connections, duration: seconds, ...(target.setupClient ? { setupClient: target.setupClient } : {}) })
}

/**
 * The scenario and the bare baseline in alternation, `rounds` times. Two processes share this machine's
 * cores with the load generator, whose speed drifts by tens of percent over minutes; a ratio taken
 * within one round, and the median of those, is steady where a baseline measured once is not.
 */
export async function paired(name: string, bare: Target, target: Target, options: LoadOptions): Promise<PairedResult> {
  return (await alternated(bare, [{ name, target }], options))[0]!
}

/**
 * Several targets of one scenario (the same read on two versions of the service) measured as `paired`
 * measures one: each round is a round of the baseline and then one of each target, taken in turn in
 * reverse order every other round, so that neither always runs right after the baseline.
 */
export async function alternated(bare: Target, targets: readonly { name: string; target: Target }[], options: LoadOptions): Promise<PairedResult[]> {
  const rounds = targets.map(() => [] as { result: LoadResult; bare: LoadResult; ratio: number }[])
  for (let i = 0; i < options.rounds; i++) {
    const baseline = await load('bare Fastify: GET /', bare, options)
    const order = targets.map((_, t) => t)
    for (const t of i % 2 ? order.reverse() : order) {
      const result = await load(targets[t]!.name, targets[t]!.target, options)
      rounds[t]!.push({ result, bare: baseline, ratio: result.rps / baseline.rps })
    }
  }
  return rounds.map((measured) => {
    const median = [...measured].sort((a, b) => a.ratio - b.ratio)[Math.floor(measured.length / 2)]!
    const errors = measured.reduce((sum, round) => sum + round.result.errors, 0)
    return {
      ...median.result, errors, ratio: median.ratio, bare: median.bare,
      rounds: measured.map((round) => ({ rps: round.result.rps, bareRps: round.bare.rps })),
    }
  })
}
