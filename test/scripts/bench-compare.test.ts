import t from 'tap'
import { comparisonReport, slower, throughputRatio, type ComparedScenario, type Comparison, type Side } from '../../scripts/bench/comparison.js'
import type { DegreeAuditBench } from '../../scripts/bench/degree-audit.js'
import type { PairedResult } from '../../scripts/bench/load.js'

const bare = { name: 'bare Fastify: GET /', rps: 10_000, p50: 1, p99: 2, errors: 0 }

/** A scenario's result over rounds of the given requests per second, the baseline at 10,000 in each. */
function paired(name: string, rps: number[], p99: number): PairedResult {
  const ratios = rps.map((r) => r / bare.rps)
  const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!
  return { name, rps: median * bare.rps, p50: 1, p99, errors: 0, ratio: median, bare, rounds: rps.map((r) => ({ rps: r, bareRps: bare.rps })) }
}

const scenario = (name: string, current: number[], ref: number[], p99s = [5, 5]): ComparedScenario =>
  ({ name, current: paired(name, current, p99s[0]!), ref: paired(name, ref, p99s[1]!) })

const audit = (p95: number): DegreeAuditBench => ({
  name: 'audit', students: 50, courses_per_student: 40, rules: 30, iterations: 5000, p50: p95 / 2, p95, p99: p95 * 1.5, max: p95 * 3,
  cpu_p50: p95 / 2, cpu_p95: p95, cpu_p99: p95, target_p95: 2, better_than_first_fit: 50, optimal: 50,
})

const side = (auditP95: number, searchP95: number, readyMs: number, rssMb: number): Side => ({
  readyMs, rssMb, peakRssMb: rssMb + 20, degreeAudit: audit(auditP95),
  search: { scale: 10, documents: 8800, runs: [{ concurrency: 4, faculty: { p95: searchP95, p99: searchP95 * 2 }, admin: { p95: 3, p99: 6 } }] },
})

function comparison(scenarios: ComparedScenario[], current: Side, reference: Side): Comparison {
  return { machine: 'test machine', options: { durationSeconds: 5, connections: 10, rounds: 3 }, ref: '2815412 (2815412aaaa)', scenarios, current, reference }
}

const rowOf = (text: string, name: string) => text.split('\n').find((line) => line.startsWith(`| ${name} |`)) ?? ''

t.test('the throughput ratio is the median of the ratios measured within each round', async (t) => {
  // Rounds: 1.0, 0.8 and 1.2; the median rounds of each alone (9,000 and 10,000) would say 90%.
  const s = scenario('read', [9_000, 8_000, 12_000], [9_000, 10_000, 10_000])
  t.equal(throughputRatio(s), 1)
  t.equal(throughputRatio(scenario('read', [8_000, 8_500, 9_500], [10_000, 10_000, 10_000])), 0.85)
})

t.test('a row gives both services\' figures and their ratios; the last line names what is more than 10% slower', async (t) => {
  const text = comparisonReport(comparison([
    scenario('GET /api/people/:id', [9_400, 9_300, 9_500], [10_000, 10_000, 10_000], [4, 5]),
    scenario('cached GET /api/people?limit=50', [8_000, 8_500, 8_900], [10_000, 10_000, 10_000]),
  ], side(0.5, 2, 800, 150), side(0.5, 2, 1000, 140)))
  const row = rowOf(text, 'GET /api/people/:id')
  t.match(row, /^\| GET \/api\/people\/:id \| 9,400 \| 10,000 \| 94% \| 100% \| \*\*94%\*\* \| 4\.0 \| 5\.0 \| 80% \| 0, 0 \|$/)
  t.match(rowOf(text, 'cached GET /api/people?limit=50'), /\| \*\*85%\*\* \|/)
  t.match(text, /Ready after 800 ms, ref 1,000 ms\. RSS after the uncached catalog reads 150 MB, ref 140 MB; peak 170 MB, ref 160 MB\./)
  t.match(text, /Degree audit engine \(5000 audits\): p95 0\.500 ms, ref 0\.500 ms \(100% of ref's\)/)
  t.match(text, /- 4 in flight: as faculty p95 2 ms, ref 2 ms \(100%\)/)
  t.match(text.trimEnd().split('\n').at(-1)!, /^More than 10% slower than 2815412 \(2815412aaaa\) \(throughput, or p95 latency\): cached GET \/api\/people\?limit=50\.$/)
})

t.test('latency more than 10% above the ref\'s counts as slower; within 10% everywhere says so', async (t) => {
  const reads = [scenario('read', [9_100, 9_200, 9_300], [10_000, 10_000, 10_000])]
  t.same(slower(comparison(reads, side(0.56, 2.3, 800, 150), side(0.5, 2, 800, 150))), ['degree audit engine p95', 'search p95 as faculty, 4 in flight'])
  const within = comparison(reads, side(0.54, 2.1, 800, 150), side(0.5, 2, 800, 150))
  t.same(slower(within), [])
  t.match(comparisonReport(within), /No scenario more than 10% slower than 2815412 \(2815412aaaa\)/)
})
