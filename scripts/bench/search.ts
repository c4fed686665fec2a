/**
 * Latency of GET /api/search/all?q=<prefix> against a running service: each query is sent a few times to
 * warm up, then every query `rounds` times, `concurrency` requests in flight at once, each timed from
 * send to the end of the body. Reports percentiles in milliseconds.
 */

/** What people type: two-letter starts, name and title prefixes, whole words, two words, and typos. */
export const searchPrefixes = [
  'jo', 'ma', 'li', 'ch', 'sa', 'da', 'an', 'ro',
  'mar', 'gar', 'che', 'smi', 'lee', 'pat', 'mul', 'nun', 'ngu', 'sor', 'ode',
  'intro', 'algo', 'mach', 'data', 'netw', 'quant', 'crypt', 'stat', 'cs1', 'math2',
  'garcia', 'muller', 'algorithms', 'distributed', 'robotics',
  'ma ch', 'machine learn', 'data struct', 'cs 3', 'intro prog',
  'algoritms', 'machne', 'statisical', 'gracia', 'robtoics',
] as const

export interface LatencyOptions {
  /** Times each URL is requested in the measured phase. */
  readonly rounds?: number
  readonly concurrency?: number
  /** Times each URL is requested before measuring. */
  readonly warmup?: number
}

export interface Latency {
  readonly requests: number
  readonly errors: number
  readonly mean: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly max: number
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length ? sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]! : 0
}

const round = (ms: number) => Math.round(ms * 100) / 100

export function summarize(latencies: number[], errors = 0): Latency {
  const sorted = [...latencies].sort((a, b) => a - b)
  return {
    requests: sorted.length,
    errors,
    mean: round(sorted.reduce((sum, ms) => sum + ms, 0) / (sorted.length || 1)),
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
  }
}

/** Requests every URL `rounds` times after a warm-up; `onBody` sees each successful answer. */
export async function measureLatency(urls: readonly string[], headers: Record<string, string>, options: LatencyOptions = {}, onBody?: (url: string, body: string) => void): Promise<Latency> {
  const concurrency = options.concurrency ?? 4
  let errors = 0
  async function drive(queue: readonly string[]): Promise<number[]> {
    const latencies: number[] = []
    let next = 0
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < queue.length) {
        const url = queue[next++]!
        const started = performance.now()
        const response = await fetch(url, { headers })
        const body = await response.text()
        latencies.push(performance.now() - started)
        if (!response.ok) errors++
        else onBody?.(url, body)
      }
    }))
    return latencies
  }
  const repeat = (times: number) => Array.from({ length: times }, () => urls).flat()
  await drive(repeat(options.warmup ?? 20))
  errors = 0
  return summarize(await drive(repeat(options.rounds ?? 40)), errors)
}

export interface SearchBenchResult extends Latency {
  /** Matches per query, to show the queries find things. */
  readonly totals: Readonly<Record<string, number>>
}

export async function benchSearch(base: string, headers: Record<string, string>, options: LatencyOptions & { prefixes?: readonly string[]; limit?: number } = {}): Promise<SearchBenchResult> {
  const prefixes = options.prefixes ?? searchPrefixes
  const urls = prefixes.map((q) => `${base}/api/search/all?q=${encodeURIComponent(q)}&limit=${options.limit ?? 10}`)
  const totals: Record<string, number> = {}
  const latency = await measureLatency(urls, headers, options, (url, body) => {
    totals[prefixes[urls.indexOf(url)]!] ??= (JSON.parse(body) as { total: number }).total
  })
  return { ...latency, totals }
}
