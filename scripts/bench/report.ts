import type { LoadOptions, LoadResult } from './load.js'

export interface BenchReport {
  readonly machine: string
  readonly options: LoadOptions
  readonly baseline: LoadResult
  readonly results: readonly (LoadResult & { target?: number })[]
  readonly readyMs: number
  readonly rssMb: number
  readonly peakRssMb: number
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

/** A Markdown table: requests per second, latency percentiles and the ratio to the bare baseline. */
export function report(r: BenchReport): string {
  const rows = [r.baseline as BenchReport['results'][number], ...r.results].map((x) => {
    const ratio = x.rps / r.baseline.rps
    const target = x.target === undefined ? '' : `≥ ${x.target * 100}%: ${ratio >= x.target ? 'met' : 'missed'}`
    return `| ${x.name} | ${fmt(x.rps)} | ${fmt(x.p50, 1)} | ${fmt(x.p99, 1)} | ${(ratio * 100).toFixed(0)}% | ${target} | ${x.errors} |`
  })
  return [
    `Machine: ${r.machine}. Load: autocannon, ${r.options.connections} connections, ${r.options.durationSeconds} s per scenario after a 1 s warm-up.`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | of bare | target | errors |',
    '|---|---:|---:|---:|---:|---|---:|',
    ...rows,
    '',
    `Ready after ${fmt(r.readyMs)} ms; RSS ${fmt(r.rssMb)} MB after the runs (peak ${fmt(r.peakRssMb)} MB).`,
    '',
  ].join('\n')
}
