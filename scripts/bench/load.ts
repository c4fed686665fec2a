import autocannon from 'autocannon'

export interface LoadResult {
  readonly name: string
  readonly rps: number
  readonly p50: number
  readonly p95?: number
  readonly p99: number
  readonly errors: number
}

export interface LoadOptions {
  readonly durationSeconds: number
  readonly connections: number
}

/** Drives one URL with autocannon after a short warm-up; any non-2xx answer counts as an error. */
export async function load(name: string, url: string, headers: Record<string, string>, options: LoadOptions): Promise<LoadResult> {
  await autocannon({ url, headers, connections: options.connections, duration: 1 })
  const result = await autocannon({ url, headers, connections: options.connections, duration: options.durationSeconds })
  const latency = result.latency as unknown as Record<string, number>
  return {
    name,
    rps: result.requests.average,
    p50: latency.p50 ?? 0,
    p99: latency.p99 ?? 0,
    errors: result.errors + result.timeouts + result.non2xx,
  }
}
