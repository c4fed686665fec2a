import type { DegreeAuditBench } from './degree-audit.js'
import type { LoadOptions, PairedResult } from './load.js'
import { fmt, percent, type SearchFigures } from './report.js'
import type { PairedTimed } from './scale-load.js'

/** One scenario measured on both checkouts in the same rounds. */
export interface ComparedScenario {
  readonly name: string
  readonly current: PairedResult
  readonly ref: PairedResult
}

/** A write measured on both checkouts in the same rounds, every response timed. */
export interface ComparedWrite {
  readonly name: string
  /** Requests in flight, the bare baseline's included. */
  readonly connections: number
  readonly current: PairedTimed
  readonly ref: PairedTimed
}

/** What is measured once per checkout. */
export interface Side {
  readonly readyMs: number
  /** After the uncached catalog reads, as the single run reports it. */
  readonly rssMb: number
  readonly peakRssMb: number
  readonly degreeAudit: DegreeAuditBench
  readonly search: SearchFigures | null
}

export interface Comparison {
  readonly machine: string
  readonly options: LoadOptions
  /** The ref as given, with the commit it named. */
  readonly ref: string
  readonly scenarios: readonly ComparedScenario[]
  /** Absent in results written before writes were compared. */
  readonly writes?: readonly ComparedWrite[]
  readonly current: Side
  readonly reference: Side
}

/** How much slower than the ref a figure may be before the comparison calls it slower. */
export const tolerance = 0.1

/** How much more a write may cost than the ref's (its p50): what keeping a revision of each write may add. */
export const writeTolerance = 0.15

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/**
 * This checkout's throughput over the ref's: the median over rounds of the two measured in the same
 * round, which the machine's drift over minutes affects less than the ratio of two medians.
 */
export function throughputRatio(s: ComparedScenario): number {
  return median(s.current.rounds.map((round, i) => round.rps / s.ref.rounds[i]!.rps))
}

/** A write's p50 over the ref's: the median over rounds of the two measured in the same round. */
export function writeRatio(w: ComparedWrite): number {
  return median(w.current.rounds.map((round, i) => round.p50 / w.ref.rounds[i]!.p50))
}

/** The figures more than `tolerance` slower than the ref's: throughput, and the p95 of what reports latency. */
export function slower(c: Comparison): string[] {
  const latency = (name: string, current: number, ref: number) => (current > ref * (1 + tolerance) ? [name] : [])
  const audit = latency('degree audit engine p95', c.current.degreeAudit.p95, c.reference.degreeAudit.p95)
  const search = (c.current.search?.runs ?? []).flatMap((run) => {
    const theirs = c.reference.search?.runs.find((r) => r.concurrency === run.concurrency)
    if (!theirs) return []
    return [
      ...latency(`search p95 as faculty, ${run.concurrency} in flight`, run.faculty.p95, theirs.faculty.p95),
      ...latency(`search p95 as admin, ${run.concurrency} in flight`, run.admin.p95, theirs.admin.p95),
    ]
  })
  return [...c.scenarios.filter((s) => throughputRatio(s) < 1 - tolerance).map((s) => s.name), ...audit, ...search]
}

function throughput(c: Comparison): string[] {
  if (!c.scenarios.length) return []
  // autocannon's percentiles are whole milliseconds: a fast read's p99 can be 0, and a ratio to it means nothing.
  const row = (s: ComparedScenario) => `| ${s.name} | ${fmt(s.current.rps)} | ${fmt(s.ref.rps)} | ${percent(s.current.ratio)} | ${percent(s.ref.ratio)} | ` +
    `**${percent(throughputRatio(s))}** | ${fmt(s.current.p99, 1)} | ${fmt(s.ref.p99, 1)} | ${s.ref.p99 > 0 ? percent(s.current.p99 / s.ref.p99) : ''} | ${s.current.errors}, ${s.ref.errors} |`
  return [
    '| scenario | req/s | ref req/s | of bare | ref of bare | req/s of ref\'s | p99 ms | ref p99 ms | p99 of ref\'s | errors, ref errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...c.scenarios.map(row),
  ]
}

function writes(c: Comparison): string[] {
  if (!c.writes?.length) return []
  const cpu = (x: PairedTimed) => (x.cpuUs === undefined ? '' : fmt(x.cpuUs))
  const row = (w: ComparedWrite) => `| ${w.name} | ${w.connections} | ${w.current.latency.p50} | ${w.ref.latency.p50} | **${percent(writeRatio(w))}** | ${w.current.latency.p95} | ${w.ref.latency.p95} | ` +
    `${fmt(w.current.rps)} | ${fmt(w.ref.rps)} | ${cpu(w.current)} | ${cpu(w.ref)} | ${w.current.errors}, ${w.ref.errors} |`
  const verdicts = c.writes.map((w) => {
    const rounds = w.current.rounds.map((round, i) => percent(round.p50 / w.ref.rounds[i]!.p50)).join(' ')
    const cpu = w.current.rounds.flatMap((round, i) => (round.cpuUs && w.ref.rounds[i]!.cpuUs ? [round.cpuUs / w.ref.rounds[i]!.cpuUs!] : []))
    const byCpu = cpu.length ? `; server CPU per write ${percent(median(cpu))} of the ref's (the median over rounds)` : ''
    return `- ${w.name}: p50 ${percent(writeRatio(w))} of the ref's (rounds ${rounds})${byCpu}; ` +
      `target ≤ ${percent(1 + writeTolerance)}: ${writeRatio(w) <= 1 + writeTolerance ? 'met' : 'missed'}.`
  })
  return [
    '',
    'Writes, each response timed, the bare baseline driven with as many connections (the median round by throughput shown; p50 of ref\'s is the median over rounds of the two measured in the same round):',
    '',
    '| write | connections | p50 ms | ref p50 ms | p50 of ref\'s | p95 ms | ref p95 ms | req/s | ref req/s | server CPU µs/req | ref CPU µs/req | errors, ref errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...c.writes.map(row),
    '',
    ...verdicts,
  ]
}

const ms = (n: number) => n.toFixed(3)

function degreeAudit(c: Comparison): string[] {
  const [ours, theirs] = [c.current.degreeAudit, c.reference.degreeAudit]
  return [
    '',
    `Degree audit engine (${ours.iterations} audits): p95 ${ms(ours.p95)} ms, ref ${ms(theirs.p95)} ms (${percent(ours.p95 / theirs.p95)} of ref's); ` +
    `p99 ${ms(ours.p99)} ms, ref ${ms(theirs.p99)} ms (${percent(ours.p99 / theirs.p99)}).`,
  ]
}

function search(c: Comparison): string[] {
  const [ours, theirs] = [c.current.search, c.reference.search]
  if (!ours || !theirs) return []
  const pair = (a: { p95: number; p99: number }, b: { p95: number; p99: number }) =>
    `p95 ${a.p95} ms, ref ${b.p95} ms (${percent(a.p95 / b.p95)}); p99 ${a.p99} ms, ref ${b.p99} ms (${percent(a.p99 / b.p99)})`
  return [
    '',
    `Search at scale ${ours.scale} (${fmt(ours.documents)} documents; ref ${fmt(theirs.documents)}):`,
    ...ours.runs.flatMap((run) => {
      const other = theirs.runs.find((r) => r.concurrency === run.concurrency)
      return other ? [`- ${run.concurrency} in flight: as faculty ${pair(run.faculty, other.faculty)}; as admin ${pair(run.admin, other.admin)}`] : []
    }),
  ]
}

/** A Markdown report of this checkout against a ref, every figure beside the ref's. */
export function comparisonReport(c: Comparison): string {
  const late = slower(c)
  return [
    `This checkout against ${c.ref}. Machine: ${c.machine}. Load: autocannon, ${c.options.connections} connections; each scenario in ` +
    `${c.options.rounds} rounds of ${c.options.durationSeconds} s per service, each round a round of the bare baseline and then one of each ` +
    'service, in turn (the other first every other round); the median round of each is shown, and req/s of ref\'s is the median over ' +
    'rounds of the two measured in the same round.',
    '',
    ...throughput(c),
    ...writes(c),
    ...degreeAudit(c),
    ...search(c),
    '',
    `Ready after ${fmt(c.current.readyMs)} ms, ref ${fmt(c.reference.readyMs)} ms. RSS after the uncached catalog reads ${fmt(c.current.rssMb)} MB, ` +
    `ref ${fmt(c.reference.rssMb)} MB; peak ${fmt(c.current.peakRssMb)} MB, ref ${fmt(c.reference.peakRssMb)} MB.`,
    '',
    late.length
      ? `More than ${percent(tolerance)} slower than ${c.ref} (throughput, or p95 latency): ${late.join('; ')}.`
      : `No scenario more than ${percent(tolerance)} slower than ${c.ref} (throughput, or p95 latency).`,
    '',
  ].join('\n')
}
