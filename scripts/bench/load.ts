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

export interface LoadOptions {
  readonly durationSeconds: number
  readonly connections: number
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
export async function load(name: string, url: string, headers: Record<string, string>, options: LoadOptions, pid?: number): Promise<LoadResult> {
  await autocannon({ url, headers, connections: options.connections, duration: 1 })
  const cpuBefore = pid === undefined ? 0 : await cpuTimeUs(pid)
  const result = await autocannon({ url, headers, connections: options.connections, duration: options.durationSeconds })
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
