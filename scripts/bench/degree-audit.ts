/**
 * The degree audit engine alone, no I/O: students with 40 completed courses each against a degree with
 * 30 rules in 6 groups, built to be contested (pattern electives and credit rules that want the same
 * upper-level courses as the core). Target: p95 at most 2 ms per audit.
 *
 *   npx tsx scripts/bench/degree-audit.ts
 *
 * DEGREE_AUDIT_ITERATIONS (default 5000) tunes the run; the main bench runner calls benchDegreeAudit().
 */
import { pathToFileURL } from 'node:url'
import { auditDegree, compareAudits, firstFit, type AuditEnrollment, type AuditGroup, type AuditInput, type AuditRule } from '../../src/domain/degrees/index.js'

export interface DegreeAuditBench {
  readonly name: string
  readonly students: number
  readonly courses_per_student: number
  readonly rules: number
  readonly iterations: number
  /** Wall-clock milliseconds per audit. */
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly max: number
  /** CPU milliseconds per audit: the same work without the time spent waiting for a busy machine. */
  readonly cpu_p50: number
  readonly cpu_p95: number
  readonly cpu_p99: number
  readonly target_p95: number
  /** Audits whose answer beat first-fit, out of the students generated. */
  readonly better_than_first_fit: number
  /** Audits settled by the exact search rather than its fallback. */
  readonly optimal: number
}

/** Small, fast, seeded generator, so every run audits the same students. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let x = Math.imul(state ^ (state >>> 15), 1 | state)
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x)
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32
  }
}

const id = (code: string): string => `Course/${code.replace(' ', '-')}`
const pattern = (subject: string, min_level?: number, max_level?: number) => ({ course_pattern: { subject, min_level, max_level } })

export function benchDegree(): AuditGroup[] {
  let rules = 0
  const rule = (name: string, rule_type: AuditRule['rule_type'], codes: string[], more: Partial<AuditRule> = {}): AuditRule =>
    ({ _id: `RequirementRule/${++rules}`, name, rule_type, courses: codes.map(id), ...more })
  const group = (name: string, rules: AuditRule[]): AuditGroup => ({ _id: `RequirementGroup/${name}`, name, rules })
  return [
    group('Introductory core', [
      rule('Programming I and II', 'all_of', ['CS 101', 'CS 102']),
      rule('Data structures', 'all_of', ['CS 201', 'CS 202'], { min_grade: 'C' }),
      rule('Discrete structures', 'all_of', ['CS 210']),
      rule('Systems foundation', 'n_of', ['CS 220', 'CS 230'], { count: 1 }),
      rule('Software practice', 'all_of', ['CS 250'], { min_grade: 'C' }),
    ]),
    group('Mathematics', [
      rule('Calculus', 'all_of', ['MATH 140', 'MATH 150']),
      rule('Linear algebra', 'all_of', ['MATH 240']),
      rule('Probability', 'n_of', ['MATH 310', 'MATH 320', 'STAT 300'], { count: 1 }),
      rule('Upper mathematics', 'credits', [], { min_credits: 6, ...pattern('MATH', 300, 499) }),
      rule('Statistics', 'n_of', ['STAT 200', 'MATH 250', 'STAT 300'], { count: 1 }),
    ]),
    group('Upper core', [
      rule('Algorithms and architecture', 'all_of', ['CS 301', 'CS 310']),
      rule('Theory', 'n_of', ['CS 320', 'CS 330', 'CS 420'], { count: 1 }),
      rule('Systems', 'n_of', ['CS 340', 'CS 350', 'CS 360', 'CS 440'], { count: 1 }),
      rule('Intelligent systems', 'n_of', ['CS 370', 'CS 380', 'CS 470'], { count: 1 }),
      rule('Capstone', 'all_of', ['CS 490'], { min_grade: 'C' }),
    ]),
    group('Electives', [
      rule('Upper-division electives', 'n_of', [], { count: 4, ...pattern('CS', 300, 499) }),
      rule('Advanced electives', 'n_of', ['MATH 420'], { count: 2, ...pattern('CS', 400, 499) }),
      rule('Elective credits', 'credits', ['MATH 340'], { min_credits: 9, ...pattern('CS', 200, 499) }),
      rule('Project', 'n_of', ['CS 392', 'CS 393', 'CS 490'], { count: 1 }),
      rule('Seminar credits', 'credits', ['CS 295', 'CS 395'], { min_credits: 2 }),
    ]),
    group('Science', [
      rule('Physics sequence', 'all_of', ['PHYS 101', 'PHYS 102']),
      rule('Lab science', 'n_of', ['PHYS 101', 'CHEM 101', 'BIO 101'], { count: 2 }),
      rule('Science credits', 'credits', ['CHEM 102', 'BIO 102'], { min_credits: 8, ...pattern('PHYS', 100, 299) }),
      rule('Second science', 'n_of', ['CHEM 101', 'CHEM 102', 'BIO 101', 'BIO 102'], { count: 1 }),
      rule('Science writing', 'n_of', ['PHYS 250', 'BIO 250', 'ENG 230'], { count: 1, allow_shared: true }),
    ]),
    group('General education', [
      rule('Composition', 'all_of', ['ENG 101']),
      rule('Literature', 'n_of', [], { count: 2, ...pattern('ENG', 200, 399) }),
      rule('History', 'credits', [], { min_credits: 6, ...pattern('HIST') }),
      rule('Writing intensive', 'n_of', ['ENG 230', 'HIST 310', 'CS 395', 'PHIL 210'], { count: 3, allow_shared: true }),
      rule('Ethics', 'n_of', ['PHIL 210', 'CS 295'], { count: 1 }),
    ]),
  ]
}

const pool = [
  'CS 101', 'CS 102', 'CS 201', 'CS 202', 'CS 210', 'CS 220', 'CS 230', 'CS 250', 'CS 295', 'CS 301', 'CS 310', 'CS 320',
  'CS 330', 'CS 340', 'CS 350', 'CS 360', 'CS 370', 'CS 380', 'CS 392', 'CS 393', 'CS 395', 'CS 420', 'CS 440', 'CS 450',
  'CS 470', 'CS 480', 'CS 490', 'MATH 140', 'MATH 150', 'MATH 240', 'MATH 250', 'MATH 310', 'MATH 320', 'MATH 340',
  'MATH 420', 'STAT 200', 'STAT 300', 'PHYS 101', 'PHYS 102', 'PHYS 250', 'CHEM 101', 'CHEM 102', 'BIO 101', 'BIO 102',
  'ENG 101', 'ENG 230', 'ENG 240', 'ENG 310', 'HIST 110', 'HIST 210', 'HIST 310', 'PHIL 210', 'ART 100', 'MUS 120',
]
const grades = ['A', 'A', 'A-', 'B+', 'B', 'B', 'B-', 'C+', 'C', 'C-', 'D', 'P', 'F']
const terms = ['21F', '22S', '22F', '23S', '23F', '24S', '24F', '25S']

/** A student with `count` distinct completed courses, three of them retaken, and a few advisor overrides. */
export function benchStudent(seed: number, count: number, groups: readonly AuditGroup[]): AuditEnrollment[] {
  const next = random(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!
  const codes = [...pool]
  for (let i = codes.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[codes[i], codes[j]] = [codes[j]!, codes[i]!]
  }
  codes.length = count
  const rules = groups.flatMap((g) => g.rules)
  const enrollments = codes.map((code, i): AuditEnrollment => ({
    _id: `Enrollment/${seed}-${i}`,
    course: id(code),
    course_code: code,
    credits: code.startsWith('PHYS') || code.startsWith('CHEM') ? 4 : code.endsWith('95') ? 1 : 3,
    grade: pick(grades),
    term: pick(terms),
    status: 'completed',
    allocation_overrides: next() < 0.08 ? [{ rule: pick(rules)._id, mode: next() < 0.5 ? 'force' : 'exclude' }] : [],
  }))
  for (let i = 0; i < 3; i++) {
    const again = enrollments[i]!
    enrollments.push({ ...again, _id: `${again._id}-retake`, grade: pick(grades), term: '25F', allocation_overrides: [] })
  }
  return enrollments
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

export function benchDegreeAudit(options: { iterations?: number; warmup?: number; students?: number } = {}): DegreeAuditBench {
  const iterations = options.iterations ?? 5000
  const groups = benchDegree()
  const inputs: AuditInput[] = Array.from({ length: options.students ?? 50 }, (_, s) => ({ groups, enrollments: benchStudent(1000 + s, 40, groups) }))
  for (let i = 0; i < (options.warmup ?? 500); i++) auditDegree(inputs[i % inputs.length]!)
  const times: number[] = []
  const cpu: number[] = []
  for (let i = 0; i < iterations; i++) {
    const input = inputs[i % inputs.length]!
    const startCpu = process.cpuUsage()
    const start = performance.now()
    auditDegree(input)
    times.push(performance.now() - start)
    const used = process.cpuUsage(startCpu)
    cpu.push((used.user + used.system) / 1000)
  }
  times.sort((a, b) => a - b)
  cpu.sort((a, b) => a - b)
  const results = inputs.map((input) => ({ audit: auditDegree(input), greedy: firstFit(input) }))
  return {
    name: 'degree audit engine, 40 courses x 30 rules',
    students: inputs.length,
    courses_per_student: 40,
    rules: groups.reduce((n, g) => n + g.rules.length, 0),
    iterations,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: times[times.length - 1]!,
    cpu_p50: percentile(cpu, 50),
    cpu_p95: percentile(cpu, 95),
    cpu_p99: percentile(cpu, 99),
    target_p95: 2,
    better_than_first_fit: results.filter(({ audit, greedy }) => compareAudits(audit, greedy) > 0).length,
    optimal: results.filter(({ audit }) => audit.explanation.method === 'optimal').length,
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = benchDegreeAudit({ iterations: Number(process.env.DEGREE_AUDIT_ITERATIONS ?? 5000) })
  const ms = (n: number): string => n.toFixed(3)
  console.log(`${result.name}: ${result.students} students, ${result.courses_per_student} courses each (plus 3 retakes), ${result.iterations} audits`)
  console.log(`p50 ${ms(result.p50)} ms, p95 ${ms(result.p95)} ms, p99 ${ms(result.p99)} ms, max ${ms(result.max)} ms (target p95 <= ${result.target_p95} ms: ${result.p95 <= result.target_p95 ? 'met' : 'missed'})`)
  console.log(`CPU time: p50 ${ms(result.cpu_p50)} ms, p95 ${ms(result.cpu_p95)} ms, p99 ${ms(result.cpu_p99)} ms`)
  console.log(`${result.optimal}/${result.students} audits exact; ${result.better_than_first_fit}/${result.students} better than first-fit`)
}
