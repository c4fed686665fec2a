import t from 'tap'
import type { DegreeAuditBench } from '../../scripts/bench/degree-audit.js'
import { report, type Measured } from '../../scripts/bench/report.js'

const bare = { name: 'bare Fastify: GET /', rps: 70_000, p50: 0, p99: 0, errors: 0, cpuUs: 14 }
const measured = (name: string, ratio: number, extra: Partial<Measured> = {}): Measured =>
  ({ name, rps: 70_000 * ratio, p50: 0, p99: 1, errors: 0, cpuUs: 20, ratio, bare, rounds: [], ...extra })

const degreeAudit: DegreeAuditBench = {
  name: 'audit', students: 50, courses_per_student: 40, rules: 30, iterations: 100, p50: 0.3, p95: 0.6, p99: 1, max: 2,
  cpu_p50: 0.3, cpu_p95: 0.6, cpu_p99: 1, target_p95: 2, better_than_first_fit: 50, optimal: 50,
}

function rendered(results: Measured[]): string {
  return report({
    machine: 'test machine', options: { durationSeconds: 5, connections: 10, rounds: 1 }, results,
    readyMs: 700, rssMb: 120, peakRssMb: 150, degreeAudit, search: null,
  })
}

const rowOf = (text: string, name: string) => text.split('\n').find((line) => line.startsWith(`| ${name} |`)) ?? ''

t.test('a target row says met or missed, and names the ceiling when even the answer\'s bytes fall short', async (t) => {
  const text = rendered([
    measured('cached person', 0.76, { target: 0.7 }),
    measured('uncached list', 0.3, { target: 0.4 }),
    measured('cached list', 0.31, { target: 0.4 }),
    measured('cached gzip list', 0.38, { target: 0.4 }),
    measured('bare Fastify sending the cached list', 0.37, { replays: 'cached list' }),
    measured('bare Fastify sending the gzip list', 0.74, { replays: 'cached gzip list' }),
  ])
  t.match(rowOf(text, 'cached person'), /\| ≥ 70%: met \|/)
  t.match(rowOf(text, 'uncached list'), /\| ≥ 40%: missed \|/, 'no replay: a plain miss')
  t.match(rowOf(text, 'cached list'), /\| ≥ 40%: missed; its bytes alone reach 37% \|/)
  t.match(rowOf(text, 'cached gzip list'), /\| ≥ 40%: missed \|/, 'a ceiling above the target leaves a plain miss')
  t.match(text, /- cached list: 31% of bare; its answers sent by a bare Fastify: 37%, so the service reaches 84% of what/)
})
