import fc from 'fast-check'
import type { AllocationOverride, AuditEnrollment, AuditGroup, AuditInput, AuditRule } from '../../../src/domain/degrees/index.js'

/** A small catalog, so that generated rules and transcripts overlap a lot. */
export const codes = ['CS 101', 'CS 201', 'CS 250', 'CS 301', 'CS 350', 'CS 420', 'MATH 101', 'MATH 240', 'MATH 310', 'MATH 420']
const grades = ['A', 'B+', 'C', 'C-', 'D', 'F', 'P', 'W']

const ruleShape = fc.record({
  rule_type: fc.constantFrom('all_of', 'n_of', 'credits') as fc.Arbitrary<AuditRule['rule_type']>,
  courses: fc.subarray(codes, { minLength: 1, maxLength: 4 }),
  pattern: fc.option(fc.record({
    subject: fc.constantFrom('CS', 'MATH'),
    min_level: fc.constantFrom(undefined, 200, 300),
    max_level: fc.constantFrom(undefined, 399),
  }), { nil: undefined, freq: 2 }),
  count: fc.integer({ min: 1, max: 3 }),
  min_credits: fc.constantFrom(3, 4, 6, 7, 9),
  min_grade: fc.constantFrom(undefined, undefined, 'C', 'B', 'P'),
  shared: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
})

type RuleShape = typeof ruleShape extends fc.Arbitrary<infer T> ? T : never

function toRule(shape: RuleShape, id: number): AuditRule {
  return {
    _id: `Rule/${id}`,
    name: `Rule ${id}`,
    rule_type: shape.rule_type,
    courses: shape.courses.map((c) => `Course/${c}`),
    course_pattern: shape.rule_type === 'all_of' ? undefined : shape.pattern,
    count: shape.rule_type === 'n_of' ? shape.count : undefined,
    min_credits: shape.rule_type === 'credits' ? shape.min_credits : undefined,
    min_grade: shape.min_grade,
    allow_shared: shape.shared,
  }
}

export function groupsArb(maxGroups: number, maxRules: number): fc.Arbitrary<AuditGroup[]> {
  return fc.array(fc.array(ruleShape, { minLength: 1, maxLength: maxRules }), { minLength: 1, maxLength: maxGroups }).map((groups) => {
    let id = 0
    return groups.map((rules, g) => ({ _id: `Group/${g}`, name: `Group ${g}`, rules: rules.map((shape) => toRule(shape, id++)) }))
  })
}

const overrideArb: fc.Arbitrary<AllocationOverride> = fc.record({
  rule: fc.integer({ min: 0, max: 9 }).map((k) => `Rule/${k}`),
  mode: fc.constantFrom('force', 'exclude') as fc.Arbitrary<'force' | 'exclude'>,
})

export interface EnrollmentOptions {
  readonly maxLength: number
  readonly retakes: boolean
  readonly overrides: boolean
}

export function enrollmentArb(overrides: boolean, gradePool = grades): fc.Arbitrary<Omit<AuditEnrollment, '_id'>> {
  return fc.record({
    code: fc.constantFrom(...codes),
    grade: fc.constantFrom(...gradePool),
    credits: fc.constantFrom(1, 3, 4),
    term: fc.constantFrom('23F', '24S', '24F'),
    overrides: overrides ? fc.option(fc.array(overrideArb, { maxLength: 2 }), { nil: undefined, freq: 3 }) : fc.constant(undefined),
  }).map(({ code, grade, credits, term, overrides }) => ({
    course: `Course/${code}`, course_code: code, grade, credits, term, allocation_overrides: overrides,
  }))
}

export function enrollmentsArb(options: EnrollmentOptions): fc.Arbitrary<AuditEnrollment[]> {
  const list = options.retakes
    ? fc.array(enrollmentArb(options.overrides), { maxLength: options.maxLength })
    : fc.uniqueArray(enrollmentArb(options.overrides), { maxLength: options.maxLength, selector: (e) => e.course })
  return list.map((items) => items.map((e, i) => ({ _id: `Enrollment/${i}`, ...e })))
}

export function inputArb(maxGroups: number, maxRules: number, enrollments: EnrollmentOptions): fc.Arbitrary<AuditInput> {
  return fc.record({ groups: groupsArb(maxGroups, maxRules), enrollments: enrollmentsArb(enrollments) })
}
