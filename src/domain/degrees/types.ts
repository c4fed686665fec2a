/** Plain data in and out of the audit: the route layer reads the records, the engine does the rest. */

export type RuleType = 'all_of' | 'n_of' | 'credits'

export interface CoursePattern {
  /** Subject letters of the course code, e.g. "CS". */
  readonly subject: string
  readonly min_level?: number | undefined
  readonly max_level?: number | undefined
}

export interface AuditRule {
  readonly _id: string
  readonly name: string
  readonly rule_type: RuleType
  /** Course ids listed by the rule. */
  readonly courses?: readonly string[] | undefined
  /** Courses that count by subject and level; ignored by all_of, which counts listed courses only. */
  readonly course_pattern?: CoursePattern | undefined
  readonly count?: number | undefined
  readonly min_credits?: number | undefined
  readonly min_grade?: string | undefined
  readonly allow_shared?: boolean | undefined
}

export interface AuditGroup {
  readonly _id: string
  readonly name: string
  /** Rules in the order the degree lists them. */
  readonly rules: readonly AuditRule[]
}

export interface AllocationOverride {
  /** Rule id. */
  readonly rule: string
  readonly mode: 'force' | 'exclude'
}

export interface AuditEnrollment {
  readonly _id: string
  /** Course id. */
  readonly course: string
  readonly course_code: string
  /** Credits the enrollment carries (the route layer falls back to the course's credits). */
  readonly credits: number
  readonly grade?: string | null | undefined
  readonly term: string
  /** Only completed enrollments count; missing means completed. */
  readonly status?: string | undefined
  readonly allocation_overrides?: readonly AllocationOverride[] | undefined
}

export interface AuditInput {
  /** Groups in the degree's order. */
  readonly groups: readonly AuditGroup[]
  readonly enrollments: readonly AuditEnrollment[]
  /** Course codes by course id, so that what a rule still needs reads "CS 201" rather than an id. */
  readonly course_codes?: Readonly<Record<string, string>> | undefined
}

export interface AuditOptions {
  /**
   * Most search states the exact allocation may visit before it settles for the best allocation found
   * by improving first-fit. The default is far above what a real degree needs.
   */
  readonly maxStates?: number | undefined
}

export interface CountedCourse {
  readonly enrollment: string
  readonly course: string
  readonly course_code: string
  readonly term: string
  readonly grade: string | null
  readonly credits: number
  /** Placed here by an advisor's override. */
  readonly forced: boolean
  /** The rule was already satisfied without this course. */
  readonly extra: boolean
}

export interface Remaining {
  /** Courses still needed (all_of, n_of); 0 for credits rules. */
  readonly count: number
  /** Credits still needed (credits rules); 0 for the others. */
  readonly credits: number
  /** Listed courses not yet counted: the ones still required (all_of) or still possible (n_of, credits). */
  readonly courses: readonly string[]
  readonly pattern: CoursePattern | null
  /** The same, as a sentence for the student. */
  readonly text: string
}

export interface RuleResult {
  readonly _id: string
  readonly name: string
  readonly rule_type: RuleType
  readonly progress: number
  readonly satisfied: boolean
  readonly courses: readonly CountedCourse[]
  /** Null once satisfied. */
  readonly remaining: Remaining | null
}

export interface GroupResult {
  readonly _id: string
  readonly name: string
  readonly progress: number
  readonly satisfied_rules: readonly { readonly _id: string; readonly name: string; readonly courses: readonly CountedCourse[] }[]
  readonly rules: readonly RuleResult[]
}

export interface CourseExplanation {
  readonly enrollment: string
  readonly course: string
  readonly course_code: string
  readonly term: string
  readonly grade: string | null
  /** Rules the course counts toward: at most one that does not allow sharing, plus any that do. */
  readonly counted_toward: readonly { readonly rule: string; readonly name: string }[]
  readonly note: string
}

/**
 * optimal: the best allocation there is; best_found: the search budget ran out and the answer is the
 * best of first-fit and its improvements; first_fit: the greedy baseline itself.
 */
export type AuditMethod = 'optimal' | 'best_found' | 'first_fit'

export interface AuditResult {
  readonly overall_progress: number
  readonly rules_satisfied: number
  readonly rules_total: number
  readonly groups: readonly GroupResult[]
  readonly explanation: {
    readonly method: AuditMethod
    /** One entry per enrollment given, in the order given. */
    readonly courses: readonly CourseExplanation[]
  }
}
