import fc from 'fast-check'
import t, { type Test } from 'tap'
import { isPassing, meetsMinimum } from '../../../src/domain/grades.js'
import { auditDegree, compareAudits, firstFit, type AuditInput, type AuditRule, type RuleResult } from '../../../src/domain/degrees/index.js'
import { enrollmentArb, inputArb } from './audit-arbitraries.js'

const seed = 20240917
const numRuns = 400
const general = inputArb(3, 4, { maxLength: 12, retakes: true, overrides: true })

/** Runs a property with the fixed seed and reports how many cases it checked. */
function check<T>(t: Test, name: string, arb: fc.Arbitrary<T>, predicate: (value: T) => boolean): void {
  let runs = 0
  fc.assert(fc.property(arb, (value) => {
    const holds = predicate(value)
    runs++
    return holds
  }), { seed, numRuns })
  t.ok(runs >= numRuns, `${name}: ${runs} cases`)
}

function sharedRules(input: AuditInput): Set<string> {
  return new Set(input.groups.flatMap((g) => g.rules).filter((r) => r.allow_shared).map((r) => r._id))
}

t.test('a course never counts toward two rules that do not allow sharing', async (t) => {
  check(t, 'non-shared once', general, (input) => {
    const shared = sharedRules(input)
    const audit = auditDegree(input)
    const onRules = audit.groups.flatMap((g) => g.rules).filter((r) => !shared.has(r._id)).flatMap((r) => r.courses.map((c) => c.course))
    const explained = audit.explanation.courses.every((c) => c.counted_toward.filter((r) => !shared.has(r.rule)).length <= 1)
    return new Set(onRules).size === onRules.length && explained
  })
})

t.test('the engine is never worse than first-fit', async (t) => {
  check(t, 'versus first-fit', general, (input) => compareAudits(auditDegree(input), firstFit(input)) >= 0)
})

t.test('adding a completed course never lowers the result', async (t) => {
  const withExtra = fc.tuple(general, enrollmentArb(true, ['A', 'B', 'C', 'P']))
  check(t, 'monotone', withExtra, ([input, extra]) => {
    fc.pre(!input.enrollments.some((e) => e.course === extra.course))
    const before = auditDegree(input)
    const after = auditDegree({ ...input, enrollments: [...input.enrollments, { _id: 'Enrollment/extra', ...extra }] })
    return after.rules_satisfied >= before.rules_satisfied && compareAudits(after, before) >= 0
  })
})

t.test('a larger search budget never gives a worse answer, down to no budget at all', async (t) => {
  check(t, 'budget', general, (input) => {
    const audits = [0, 1, 2, 4, 8, 32].map((maxStates) => auditDegree(input, { maxStates }))
    return audits.every((audit, i) => i === 0 || compareAudits(audit, audits[i - 1]!) >= 0) && compareAudits(auditDegree(input), audits[audits.length - 1]!) >= 0
  })
})

t.test('the same input gives the same output', async (t) => {
  check(t, 'deterministic', general, (input) => {
    const once = JSON.stringify(auditDegree(input))
    return once === JSON.stringify(auditDegree(structuredClone(input))) && once === JSON.stringify(auditDegree(input))
  })
})

t.test('the answer is internally consistent: progress follows from the courses shown', async (t) => {
  check(t, 'consistent', general, (input) => {
    const audit = auditDegree(input)
    const rules = new Map(input.groups.flatMap((g) => g.rules).map((r) => [r._id, r]))
    const holds = (r: RuleResult): boolean => {
      const rule = rules.get(r._id)!
      const counted = r.courses.reduce((sum, c) => sum + (rule.rule_type === 'credits' ? c.credits : 1), 0)
      const expected = target(rule) > 0 ? Math.min(1, counted / target(rule)) : 0
      return Math.abs(r.progress - expected) < 1e-9 && r.satisfied === (expected === 1) && (r.remaining === null) === r.satisfied
    }
    const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length
    return audit.groups.every((g) => g.rules.every(holds) && Math.abs(g.progress - mean(g.rules.map((r) => r.progress))) < 1e-9)
  })
})

t.test('on small cases the engine matches an exhaustive search', async (t) => {
  const small = inputArb(2, 3, { maxLength: 5, retakes: false, overrides: false })
  check(t, 'exhaustive', small, (input) => {
    const audit = auditDegree(input)
    const best = exhaustive(input)
    return audit.rules_satisfied === best.satisfied && Math.abs(audit.overall_progress - best.progress) < 1e-9
  })
})

function target(rule: AuditRule): number {
  if (rule.rule_type === 'all_of') return new Set(rule.courses).size
  return rule.rule_type === 'n_of' ? rule.count! : rule.min_credits!
}

/** Every placement of every course, scored from scratch: the reference the engine must equal. */
function exhaustive(input: AuditInput): { satisfied: number; progress: number } {
  const rules = input.groups.flatMap((g, group) => g.rules.map((rule) => ({ rule, group })))
  const courses = input.enrollments.filter((e) => isPassing(e.grade))
  const fits = (e: (typeof courses)[number], rule: AuditRule): boolean => {
    const [, subject, level] = /^(\w+) (\d+)$/.exec(e.course_code)!
    const p = rule.course_pattern
    const byPattern = rule.rule_type !== 'all_of' && !!p && p.subject === subject && Number(level) >= (p.min_level ?? 0) && Number(level) <= (p.max_level ?? Infinity)
    return (!!rule.courses?.includes(e.course) || byPattern) && (!rule.min_grade || meetsMinimum(e.grade, rule.min_grade))
  }
  const options = courses.map((e) => [-1, ...rules.flatMap(({ rule }, i) => (!rule.allow_shared && fits(e, rule) ? [i] : []))])
  let best = { satisfied: -1, progress: -1 }
  const choice: number[] = []
  const visit = (k: number): void => {
    if (k === courses.length) {
      const totals = rules.map(({ rule }, i) => courses.reduce((sum, e, j) => sum + ((rule.allow_shared ? fits(e, rule) : choice[j] === i) ? (rule.rule_type === 'credits' ? e.credits : 1) : 0), 0))
      const progress = rules.map(({ rule }, i) => Math.min(1, totals[i]! / target(rule)))
      const satisfied = progress.filter((p) => p === 1).length
      const overall = input.groups.reduce((sum, g, gi) => sum + rules.reduce((s, r, i) => s + (r.group === gi ? progress[i]! : 0), 0) / g.rules.length, 0) / input.groups.length
      if (satisfied > best.satisfied || (satisfied === best.satisfied && overall > best.progress + 1e-9)) best = { satisfied, progress: overall }
      return
    }
    for (const o of options[k]!) {
      choice[k] = o
      visit(k + 1)
    }
  }
  visit(0)
  return best
}
