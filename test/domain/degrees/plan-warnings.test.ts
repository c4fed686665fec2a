import t from 'tap'
import { planWarnings, type PlanCourse } from '../../../src/domain/degrees/plan-warnings.js'

const courses = new Map<string, PlanCourse>([
  ['c101', { course_code: 'CS 101', credits: 4 }],
  ['m150', { course_code: 'MATH 150', credits: 3 }],
  ['c201', { course_code: 'CS 201', credits: 3, prerequisites: ['c101'] }],
  ['c310', { course_code: 'CS 310', credits: 4.5, prerequisites: ['c201', 'm150'] }],
  ['lab', { course_code: 'CS 199', credits: 1.5 }],
])

t.test('a sound plan has no warnings', async (t) => {
  t.same(planWarnings([{ course: 'c101', term: '25F' }, { course: 'm150', term: '25F' }, { course: 'c201', term: '26S' }, { course: 'c310', term: '26F' }], courses, [], 18), [])
})

t.test('prerequisites: passed any time, in progress or planned in an earlier term', async (t) => {
  const plan = [{ course: 'c201', term: '26S' }]
  t.same(planWarnings(plan, courses, [{ course: 'c101', term: '27F', passed: true, inProgress: false }], 18), [], 'passed')
  t.same(planWarnings(plan, courses, [{ course: 'c101', term: '25F', passed: false, inProgress: true }], 18), [], 'in progress the term before')
  const sameTerm = planWarnings(plan, courses, [{ course: 'c101', term: '26S', passed: false, inProgress: true }], 18)
  t.same(sameTerm, [{
    kind: 'prerequisite', course: 'c201', term: '26S',
    message: 'CS 201 is planned for 26S before its prerequisite CS 101: it is neither passed nor planned for an earlier term.',
  }], 'in progress the same term is not enough')
  t.equal(planWarnings(plan, courses, [{ course: 'c101', term: '25F', passed: false, inProgress: false }], 18).length, 1, 'a failed attempt does not count')
  t.equal(planWarnings([{ course: 'c101', term: '26S' }, ...plan], courses, [], 18).length, 1, 'planned for the same term does not count')
  t.same(planWarnings([{ course: 'c101', term: '25F' }, ...plan], courses, [], 18), [], 'planned earlier counts, whatever the list order')
  t.same(planWarnings([...plan, { course: 'c101', term: '25F' }], courses, [], 18), [], 'listed later but for an earlier term')
  t.match(planWarnings([{ course: 'c310', term: '26F' }], courses, [], 18), [{ message: /before its prerequisites CS 201 and MATH 150: they are/ }])
})

t.test('a course planned twice is named with its terms', async (t) => {
  t.same(planWarnings([{ course: 'm150', term: '25F' }, { course: 'c101', term: '25F' }, { course: 'm150', term: '26S' }], courses, [], 18), [
    { kind: 'duplicate', course: 'm150', term: '26S', message: 'MATH 150 is planned more than once (25F, 26S).' },
  ])
})

t.test('a term above the credit load, in hundredths', async (t) => {
  const lab = (term: string) => ({ course: 'lab', term })
  const loads = (plan: { course: string; term: string }[], max: number) => planWarnings(plan, courses, [], max).filter((w) => w.kind === 'credit_load')
  t.same(loads([lab('25F'), lab('25F'), { course: 'm150', term: '25F' }], 6), [], '1.5 + 1.5 + 3 is exactly 6')
  t.equal(loads([lab('25F'), lab('25F'), { course: 'm150', term: '25F' }], 5.99).length, 1, 'and is above 5.99')
  t.same(planWarnings([{ course: 'c101', term: '26S' }, { course: 'm150', term: '26S' }, { course: 'c101', term: '25F' }, lab('25F'), { course: 'm150', term: '25F' }], courses, [], 7).filter((w) => w.kind === 'credit_load'), [
    { kind: 'credit_load', term: '25F', credits: 8.5, message: '25F plans 8.5 credits, above the load of 7 credits a term.' },
  ])
})
