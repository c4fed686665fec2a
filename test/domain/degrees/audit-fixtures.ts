import type { AuditEnrollment, AuditGroup, AuditInput, AuditResult, AuditRule, RuleResult } from '../../../src/domain/degrees/index.js'

/** A completed enrollment in the course with that code: course id "Course/<code>". */
export function taken(code: string, grade = 'A', more: Partial<AuditEnrollment> = {}): AuditEnrollment {
  const term = more.term ?? '24F'
  return { _id: `Enrollment/${code}/${term}`, course: `Course/${code}`, course_code: code, credits: 3, grade, term, ...more }
}

export function courseIds(...codes: string[]): string[] {
  return codes.map((code) => `Course/${code}`)
}

export function allOf(name: string, codes: string[], more: Partial<AuditRule> = {}): AuditRule {
  return { _id: `Rule/${name}`, name, rule_type: 'all_of', courses: courseIds(...codes), ...more }
}

export function nOf(name: string, count: number, codes: string[], more: Partial<AuditRule> = {}): AuditRule {
  return { _id: `Rule/${name}`, name, rule_type: 'n_of', courses: courseIds(...codes), count, ...more }
}

export function credits(name: string, min: number, codes: string[], more: Partial<AuditRule> = {}): AuditRule {
  return { _id: `Rule/${name}`, name, rule_type: 'credits', courses: courseIds(...codes), min_credits: min, ...more }
}

export function group(name: string, ...rules: AuditRule[]): AuditGroup {
  return { _id: `Group/${name}`, name, rules }
}

export function degree(groups: AuditGroup[], enrollments: AuditEnrollment[]): AuditInput {
  return { groups, enrollments }
}

export function ruleNamed(result: AuditResult, name: string): RuleResult {
  const rule = result.groups.flatMap((g) => g.rules).find((r) => r.name === name)
  if (!rule) throw new Error(`no rule ${name} in the result`)
  return rule
}

/** Course codes counted on a rule, in the order shown. */
export function codesOn(result: AuditResult, name: string): string[] {
  return ruleNamed(result, name).courses.map((c) => c.course_code)
}

export function noteFor(result: AuditResult, enrollment: string): string {
  return result.explanation.courses.find((c) => c.enrollment === enrollment)!.note
}
