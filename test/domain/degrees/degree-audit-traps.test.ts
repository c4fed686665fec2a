import t from 'tap'
import { auditDegree, compareAudits, firstFit } from '../../../src/domain/degrees/index.js'
import { allOf, codesOn, credits, degree, group, nOf, taken } from './audit-fixtures.js'

t.test('trap 1: an early "one of" rule takes the course a later all_of needs', async (t) => {
  const input = degree(
    [group('Core', nOf('Intro choice', 1, ['CS 101', 'CS 102']), allOf('Programming', ['CS 101']))],
    [taken('CS 101'), taken('CS 102')],
  )
  const greedy = firstFit(input)
  t.equal(greedy.rules_satisfied, 1, 'first-fit puts CS 101 on the first rule and leaves Programming short')
  t.same(codesOn(greedy, 'Programming'), [])
  const audit = auditDegree(input)
  t.equal(audit.rules_satisfied, 2)
  t.equal(audit.overall_progress, 1)
  t.same(codesOn(audit, 'Intro choice'), ['CS 102'])
  t.same(codesOn(audit, 'Programming'), ['CS 101'])
  t.equal(audit.explanation.method, 'optimal')
})

t.test('trap 2: a credits rule swallows the course an all_of rule needs', async (t) => {
  const input = degree(
    [group('Upper', credits('Upper credits', 7, [], { course_pattern: { subject: 'CS', min_level: 300, max_level: 499 } }), allOf('Systems', ['CS 350']))],
    [taken('CS 350', 'A', { credits: 4 }), taken('CS 310'), taken('CS 320', 'B', { credits: 4 })],
  )
  const greedy = firstFit(input)
  t.equal(greedy.rules_satisfied, 1)
  t.same(codesOn(greedy, 'Upper credits'), ['CS 350', 'CS 310', 'CS 320'])
  const audit = auditDegree(input)
  t.equal(audit.rules_satisfied, 2)
  t.same(codesOn(audit, 'Systems'), ['CS 350'])
  t.same(codesOn(audit, 'Upper credits'), ['CS 310', 'CS 320'])
})

t.test('trap 3: an electives rule fills up with courses a narrower rule could use', async (t) => {
  const input = degree(
    [
      group('Electives', nOf('Two electives', 2, ['CS 330', 'CS 340', 'CS 360'])),
      group('Depth', nOf('Theory or systems', 1, ['CS 330', 'CS 340'])),
    ],
    [taken('CS 330'), taken('CS 340'), taken('CS 360')],
  )
  const greedy = firstFit(input)
  t.equal(greedy.rules_satisfied, 1)
  t.same(codesOn(greedy, 'Two electives'), ['CS 330', 'CS 340', 'CS 360'], 'CS 360 shows as extra on the full rule')
  t.same(codesOn(greedy, 'Theory or systems'), [])
  const audit = auditDegree(input)
  t.equal(audit.rules_satisfied, 2)
  t.equal(codesOn(audit, 'Two electives').length, 2)
  t.ok(codesOn(audit, 'Two electives').includes('CS 360'))
  t.equal(codesOn(audit, 'Theory or systems').length, 1)
})

t.test('trap 4: every course is wanted by two rules, so no course has an obvious home', async (t) => {
  const input = degree(
    [group('Core', nOf('Two electives', 2, ['CS 310', 'CS 320', 'CS 330', 'CS 340']), nOf('Theory', 1, ['CS 310', 'CS 320']), nOf('Systems', 1, ['CS 330', 'CS 340']))],
    [taken('CS 310'), taken('CS 320'), taken('CS 330'), taken('CS 340')],
  )
  const greedy = firstFit(input)
  t.equal(greedy.rules_satisfied, 2)
  t.same(codesOn(greedy, 'Theory'), [])
  const audit = auditDegree(input)
  t.equal(audit.rules_satisfied, 3)
  t.same(codesOn(audit, 'Theory').length, 1)
  t.same(codesOn(audit, 'Systems').length, 1)
  const all = ['Two electives', 'Theory', 'Systems'].flatMap((name) => codesOn(audit, name))
  t.same([...all].sort(), ['CS 310', 'CS 320', 'CS 330', 'CS 340'], 'each course once')
})

t.test('when no further rule can be satisfied, the engine maximises overall progress', async (t) => {
  // One course, two rules it could start: half of a small group beats a third of a large one.
  const input = degree(
    [group('Big', nOf('Three of', 3, ['CS 101', 'CS 102', 'CS 103']), allOf('Other', ['MATH 101'])), group('Small', nOf('Two of', 2, ['CS 101', 'CS 104']))],
    [taken('CS 101')],
  )
  const greedy = firstFit(input)
  const audit = auditDegree(input)
  t.same(codesOn(greedy, 'Three of'), ['CS 101'])
  t.same(codesOn(audit, 'Two of'), ['CS 101'])
  t.equal(audit.overall_progress, 0.25)
  t.ok(compareAudits(audit, greedy) > 0)
})

t.test('with no search budget, local search from first-fit still finds the better allocation', async (t) => {
  const input = degree(
    [group('Core', nOf('Two electives', 2, ['CS 310', 'CS 320', 'CS 330', 'CS 340']), nOf('Theory', 1, ['CS 310', 'CS 320']), nOf('Systems', 1, ['CS 330', 'CS 340']))],
    [taken('CS 310'), taken('CS 320'), taken('CS 330'), taken('CS 340'), taken('CS 370')],
  )
  const audit = auditDegree(input, { maxStates: 0 })
  t.equal(audit.explanation.method, 'best_found')
  t.equal(firstFit(input).rules_satisfied, 2)
  t.equal(audit.rules_satisfied, 3)
  const placed = audit.groups.flatMap((g) => g.rules).flatMap((r) => r.courses.map((c) => c.enrollment))
  t.equal(new Set(placed).size, placed.length, 'no course is on two rules')
})

t.test('satisfied rules come first: one more course may satisfy a rule at the cost of overall progress', async (t) => {
  const rules = [
    group('Lab', credits('Lab credits', 4, ['PHYS 101'])),
    group('Core', nOf('Two of', 2, ['PHYS 101', 'CS 101']), allOf('Capstone', ['CS 490'])),
  ]
  const before = auditDegree(degree(rules, [taken('PHYS 101')]))
  t.same(codesOn(before, 'Lab credits'), ['PHYS 101'])
  t.equal(before.overall_progress, 0.375)
  const after = auditDegree(degree(rules, [taken('PHYS 101'), taken('CS 101')]))
  t.equal(after.rules_satisfied, 1)
  t.same(codesOn(after, 'Two of'), ['PHYS 101', 'CS 101'])
  t.equal(after.overall_progress, 0.25, 'lower than before, by design: the spec ranks satisfied rules first')
  t.ok(compareAudits(after, before) > 0)
})
