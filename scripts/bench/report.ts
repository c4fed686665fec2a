import type { DegreeAuditBench } from './degree-audit.js'
import type { LoadOptions, LoadResult, PairedResult } from './load.js'
import { personByKey, personByToken } from './scenarios.js'

export interface SearchFigures {
  readonly scale: number
  readonly documents: number
  readonly runs: readonly { readonly concurrency: number; readonly faculty: { readonly p95: number; readonly p99: number }; readonly admin: { readonly p95: number; readonly p99: number } }[]
}

export interface Measured extends PairedResult {
  readonly target?: number
  /** For a replay: the scenario whose recorded answers it sends. */
  readonly replays?: string
}

export interface BenchReport {
  readonly machine: string
  readonly options: LoadOptions
  readonly results: readonly Measured[]
  readonly readyMs: number
  readonly rssMb: number
  readonly peakRssMb: number
  readonly degreeAudit: DegreeAuditBench
  readonly search: SearchFigures | null
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
const verdict = (met: boolean) => (met ? 'met' : 'missed')
export const percent = (fraction: number) => `${(fraction * 100).toFixed(0)}%`

/** The baseline as the middle of all its rounds, by requests per second. */
function baseline(r: BenchReport): LoadResult {
  const all = r.results.map((x) => x.bare).sort((a, b) => a.rps - b.rps)
  return all[Math.floor(all.length / 2)]!
}

/** The replay of a scenario's recorded answers, if the run has one. */
function replayOf(r: BenchReport, x: Measured): Measured | undefined {
  return r.results.find((replay) => replay.replays === x.name)
}

/**
 * A target met or missed; where even a bare Fastify sending the scenario's answers falls short of it, the
 * row says so and gives that ceiling, since no service sending those bytes could meet it on this machine.
 */
function judgement(r: BenchReport, x: Measured, target: number): string {
  if (x.ratio >= target) return 'met'
  const ceiling = replayOf(r, x)?.ratio
  return ceiling !== undefined && ceiling < target ? `missed; its bytes alone reach ${percent(ceiling)}` : 'missed'
}

function throughput(r: BenchReport): string[] {
  const bare = baseline(r)
  const row = (x: LoadResult, ratio: string, target: string, bareRps: string) =>
    `| ${x.name} | ${fmt(x.rps)} | ${fmt(x.p50, 1)} | ${fmt(x.p99, 1)} | ${bareRps} | ${ratio} | ${x.cpuUs === undefined ? '' : fmt(x.cpuUs)} | ${target} | ${x.errors} |`
  return [
    '| scenario | req/s | p50 ms | p99 ms | bare req/s beside it | of bare | server CPU µs/req | target | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---|---:|',
    row(bare, '100%', '', ''),
    ...r.results.map((x) => row(x, percent(x.ratio), x.target === undefined ? '' : `≥ ${percent(x.target)}: ${judgement(r, x, x.target)}`, fmt(x.bare.rps))),
  ]
}

/**
 * What verifying an API key adds to the same read by bearer token: by throughput, each scenario taken as
 * its share of the baseline beside it (the steadier figure), and by server CPU per request.
 */
function keyCost(r: BenchReport): string[] {
  const bearer = r.results.find((x) => x.name === personByToken)
  const key = r.results.find((x) => x.name === personByKey)
  if (!bearer || !key) return []
  const byThroughput = bearer.ratio / key.ratio - 1
  const byCpu = bearer.cpuUs && key.cpuUs ? key.cpuUs / bearer.cpuUs - 1 : undefined
  return [
    '',
    `API key against bearer token on GET /api/people/:id: ${percent(byThroughput)} more time per request by throughput` +
    `${byCpu === undefined ? '' : `, ${percent(byCpu)} more server CPU per request`} (target ≤ 15%: ${verdict(byThroughput <= 0.15)}).`,
  ]
}

/**
 * Each replayed scenario beside its replay: a bare Fastify sending the same answers to the same requests
 * is as fast as any service sending them could be on this machine, so it bounds what a target can ask.
 */
function ceilings(r: BenchReport): string[] {
  const lines = r.results.flatMap((served) => {
    const replay = replayOf(r, served)
    if (!replay) return []
    return [`- ${served.name}: ${percent(served.ratio)} of bare; its answers sent by a bare Fastify: ${percent(replay.ratio)}, ` +
      `so the service reaches ${percent(served.ratio / replay.ratio)} of what its answers' bytes allow`]
  })
  return lines.length ? ['', 'The answers\' bytes alone, as a bare Fastify sends them to the same requests:', ...lines] : []
}

function degreeAudit(d: DegreeAuditBench): string[] {
  const ms = (n: number) => n.toFixed(3)
  return [
    '',
    `Degree audit engine, ${d.courses_per_student} completed courses against ${d.rules} rules, ${d.iterations} audits of ${d.students} students: ` +
    `p50 ${ms(d.p50)} ms, p95 ${ms(d.p95)} ms, p99 ${ms(d.p99)} ms (CPU p95 ${ms(d.cpu_p95)} ms; target p95 ≤ ${d.target_p95} ms: ${verdict(d.p95 <= d.target_p95)}); ` +
    `${d.optimal}/${d.students} exact, ${d.better_than_first_fit}/${d.students} better than first-fit.`,
  ]
}

function search(s: SearchFigures | null): string[] {
  if (!s) return []
  return [
    '',
    `Search, GET /api/search/all?q=<prefix> on the sample department at scale ${s.scale} (${fmt(s.documents)} documents; details in bench-results/search.md):`,
    ...s.runs.map((run) => `- ${run.concurrency} in flight: p95 ${run.faculty.p95} ms as faculty, ${run.admin.p95} ms as admin (target p95 ≤ 10 ms: ${verdict(Math.max(run.faculty.p95, run.admin.p95) <= 10)})`),
  ]
}

/** A Markdown report: throughput beside the bare baseline, then each issue's own figures against its target. */
export function report(r: BenchReport): string {
  return [
    `Machine: ${r.machine}. Load: autocannon, ${r.options.connections} connections; each scenario in ${r.options.rounds} rounds of ${r.options.durationSeconds} s ` +
    '(after a 1 s warm-up), each right after a round of the bare baseline; the median round by ratio is shown.',
    '',
    ...throughput(r),
    ...keyCost(r),
    ...ceilings(r),
    '',
    `Ready after ${fmt(r.readyMs)} ms (target ≤ 2000 ms: ${verdict(r.readyMs <= 2000)}); RSS ${fmt(r.rssMb)} MB after the uncached catalog reads, peak ${fmt(r.peakRssMb)} MB (target ≤ 200 MB: ${verdict(r.peakRssMb <= 200)}).`,
    ...degreeAudit(r.degreeAudit),
    ...search(r.search),
    '',
  ].join('\n')
}
