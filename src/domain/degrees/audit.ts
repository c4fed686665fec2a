import { firstFitAllocation } from './first-fit.js'
import { optimise } from './optimise.js'
import { prepare } from './prepare.js'
import { buildResult } from './result.js'
import { compareScores, scoreOf } from './score.js'
import type { AuditInput, AuditOptions, AuditResult } from './types.js'

/** Far more search states than a real degree needs; it bounds the time a pathological rule set can take. */
export const DEFAULT_MAX_STATES = 20_000

/**
 * Audits a student's completed courses against a degree: places each course so that as many rules as
 * possible are satisfied, then overall progress is as high as possible, and explains the placement.
 * Pure and deterministic: the same input always gives the same answer.
 */
export function auditDegree(input: AuditInput, options: AuditOptions = {}): AuditResult {
  const prepared = prepare(input)
  const { allocation, exact } = optimise(prepared, options.maxStates ?? DEFAULT_MAX_STATES)
  const baseline = firstFitAllocation(prepared)
  // The exact search cannot lose to first-fit; when the budget ran out this keeps the promise anyway.
  if (compareScores(scoreOf(prepared, baseline), scoreOf(prepared, allocation)) > 0) {
    return buildResult(prepared, baseline, 'best_found')
  }
  return buildResult(prepared, allocation, exact ? 'optimal' : 'best_found')
}

/** Positive when audit a is better than audit b: more rules satisfied, then more overall progress. */
export function compareAudits(a: AuditResult, b: AuditResult): number {
  return compareScores(
    { satisfied: a.rules_satisfied, progress: a.overall_progress },
    { satisfied: b.rules_satisfied, progress: b.overall_progress },
  )
}
