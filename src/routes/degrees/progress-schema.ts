import { Type, type TSchema } from '@sinclair/typebox'
import type { ProgressAnswer } from '../../degrees/progress.js'

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()])
const Fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description })

const CountedCourse = Type.Object({
  enrollment: Type.String({ description: 'The Enrollment record; in a projection, `<plan id>#<index>` for a planned course' }),
  course: Type.String(),
  course_code: Type.String(),
  term: Type.String(),
  grade: Nullable(Type.String()),
  credits: Type.Number(),
  forced: Type.Boolean({ description: 'Placed here by an advisor override' }),
  extra: Type.Boolean({ description: 'The rule was already satisfied without it' }),
}, { title: 'CountedCourse' })

const Pattern = Type.Object({ subject: Type.String(), min_level: Type.Optional(Type.Integer()), max_level: Type.Optional(Type.Integer()) })

const Remaining = Type.Object({
  count: Type.Number({ description: 'Courses still needed (all_of, n_of)' }),
  credits: Type.Number({ description: 'Credits still needed (credits rules)' }),
  courses: Type.Array(Type.String(), { description: 'Listed courses that could still count' }),
  pattern: Nullable(Pattern),
  text: Type.String({ description: 'What is left, as a sentence' }),
})

const RuleProgress = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  rule_type: Type.String({ enum: ['all_of', 'n_of', 'credits'] }),
  progress: Fraction('all_of: done/listed; n_of: min(1, done/count); credits: min(1, credits/min_credits)'),
  satisfied: Type.Boolean(),
  courses: Type.Array(CountedCourse),
  remaining: Nullable(Remaining),
}, { title: 'RuleProgress' })

const GroupProgress = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  progress: Fraction('Mean of the group\'s rules'),
  satisfied_rules: Type.Array(Type.Object({ _id: Type.String(), name: Type.String(), courses: Type.Array(CountedCourse) })),
  rules: Type.Array(RuleProgress),
}, { title: 'GroupProgress' })

const Explanation = Type.Object({
  method: Type.String({ enum: ['optimal', 'best_found', 'first_fit'] }),
  courses: Type.Array(Type.Object({
    enrollment: Type.String(),
    course: Type.String(),
    course_code: Type.String(),
    term: Type.String(),
    grade: Nullable(Type.String()),
    counted_toward: Type.Array(Type.Object({ rule: Type.String(), name: Type.String() })),
    note: Type.String(),
  }), { description: 'One entry per enrollment, saying where it counts or why it does not' }),
})

const audit = {
  overall_progress: Fraction('Mean of the groups'),
  rules_satisfied: Type.Integer(),
  rules_total: Type.Integer(),
  groups: Type.Array(GroupProgress),
  explanation: Explanation,
}

/** The answer as DegreeProgress.of builds it (read-only lists), serialized by this schema. */
export const DegreeProgress = Type.Unsafe<ProgressAnswer>(Type.Object({
  student: Type.Object({ _id: Type.String(), type: Type.String(), first_name: Type.String(), last_name: Type.String() }),
  degree: Type.Object({ _id: Type.String(), name: Type.String(), degree_type: Type.String() }),
  degree_source: Type.String({ enum: ['declared_major', 'program', 'requested'], description: 'requested: a what-if audit (degree=)' }),
  ...audit,
  projected_progress: Type.Optional(Fraction('With plan=: overall progress once the plan\'s courses are completed')),
  projection: Type.Optional(Type.Object({
    plan: Type.Object({ _id: Type.String(), plan_name: Type.String() }),
    ...audit,
  }, { description: 'With plan=: the whole audit with the plan\'s courses counted as passed' })),
}, { title: 'DegreeProgress' }))
