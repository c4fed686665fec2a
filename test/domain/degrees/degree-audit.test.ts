import t from 'tap'
import { auditDegree } from '../../../src/domain/degrees/index.js'
import { allOf, codesOn, credits, degree, group, nOf, noteFor, ruleNamed, taken } from './audit-fixtures.js'

t.test('progress: all_of done/listed, n_of and credits capped at 1; groups and overall are means', async (t) => {
  const audit = auditDegree(degree(
    [
      group('Core', allOf('Intro', ['CS 101', 'CS 102', 'CS 103', 'CS 104']), nOf('Pick three', 3, ['MATH 101', 'MATH 102', 'MATH 103'])),
      group('Credits', credits('Nine credits', 9, ['PHYS 101', 'PHYS 102'])),
    ],
    [taken('CS 101'), taken('CS 103'), taken('MATH 101'), taken('PHYS 101', 'A', { credits: 4 })],
  ))
  t.equal(ruleNamed(audit, 'Intro').progress, 0.5)
  t.equal(ruleNamed(audit, 'Pick three').progress, 1 / 3)
  t.equal(ruleNamed(audit, 'Nine credits').progress, 4 / 9)
  t.equal(audit.groups[0]!.progress, (0.5 + 1 / 3) / 2)
  t.equal(audit.overall_progress, ((0.5 + 1 / 3) / 2 + 4 / 9) / 2)
  t.equal(audit.rules_satisfied, 0)
  t.equal(audit.rules_total, 3)
  t.same(ruleNamed(audit, 'Intro').remaining, { count: 2, credits: 0, courses: ['Course/CS 102', 'Course/CS 104'], pattern: null, text: 'Still to complete: Course/CS 102 and Course/CS 104.' })
  t.equal(ruleNamed(audit, 'Nine credits').remaining!.text, '5 more credits from Course/PHYS 102.')
})

t.test('a satisfied rule is listed under satisfied_rules with its courses', async (t) => {
  const audit = auditDegree(degree([group('Core', allOf('Intro', ['CS 101']), allOf('Data', ['CS 201']))], [taken('CS 101')]))
  t.same(audit.groups[0]!.satisfied_rules.map((r) => [r._id, r.name, r.courses.map((c) => c.course_code)]), [['Rule/Intro', 'Intro', ['CS 101']]])
  t.equal(ruleNamed(audit, 'Intro').remaining, null)
})

t.test('credits rules count by pattern, with codes shown in what remains', async (t) => {
  const pattern = { subject: 'cs', min_level: 300, max_level: 499 }
  const input = {
    ...degree([group('Upper', credits('Upper CS', 9, ['MATH 310'], { course_pattern: pattern }))], [taken('CS 310'), taken('CS 250'), taken('CS 510'), taken('ECE 320')]),
    course_codes: { 'Course/MATH 310': 'MATH 310' },
  }
  const audit = auditDegree(input)
  t.same(codesOn(audit, 'Upper CS'), ['CS 310'])
  t.same(ruleNamed(audit, 'Upper CS').remaining, { count: 0, credits: 6, courses: ['Course/MATH 310'], pattern, text: '6 more credits from MATH 310 or any CS course numbered 300 to 499.' })
  t.equal(noteFor(audit, 'Enrollment/CS 250/24F'), 'Matches no rule of this degree.')
})

t.test('an n_of rule counts listed and pattern courses alike', async (t) => {
  const audit = auditDegree(degree([group('E', nOf('Electives', 3, ['MATH 220'], { course_pattern: { subject: 'CS', min_level: 300 } }))], [taken('MATH 220'), taken('CS 301'), taken('CS 299')]))
  t.same(codesOn(audit, 'Electives'), ['MATH 220', 'CS 301'])
  t.equal(ruleNamed(audit, 'Electives').remaining!.text, '1 more course from any CS course numbered 300 or above.')
})

t.test('what an n_of rule still needs leaves out courses already counted elsewhere', async (t) => {
  const audit = auditDegree(degree([group('Core', allOf('Intro', ['CS 101']), nOf('Two of', 2, ['CS 101', 'CS 102', 'CS 103']))], [taken('CS 101')]))
  t.same(codesOn(audit, 'Intro'), ['CS 101'])
  t.same(ruleNamed(audit, 'Two of').remaining!.courses, ['Course/CS 102', 'Course/CS 103'])
})

t.test('when every listed course counts elsewhere, what remains says so', async (t) => {
  const input = {
    ...degree([group('Core', nOf('Two electives', 2, ['CS 310', 'CS 320']), nOf('Theory', 1, ['CS 310', 'CS 320']))], [taken('CS 310'), taken('CS 320')]),
    course_codes: { 'Course/CS 310': 'CS 310', 'Course/CS 320': 'CS 320' },
  }
  const audit = auditDegree(input)
  t.same(codesOn(audit, 'Theory'), ['CS 320'], 'one each satisfies Theory and half of the electives')
  t.equal(ruleNamed(audit, 'Two electives').remaining!.text, '1 more course; CS 320 already counts toward other rules.')
  const short = auditDegree(degree([group('Odd', credits('Too few', 9, ['CS 310']))], [taken('CS 310')]))
  t.equal(ruleNamed(short, 'Too few').remaining!.text, '6 more credits, but every course the rule lists already counts here; the department needs to correct the rule.')
})

t.test('credit targets too large for the compact search key are still searched exactly', async (t) => {
  const input = degree(
    [group('Odd', nOf('One of', 1, ['CS 301', 'CS 302']), credits('Huge', 700, [], { course_pattern: { subject: 'CS' } }))],
    [taken('CS 301', 'A', { credits: 300 }), taken('CS 302', 'A', { credits: 300 }), taken('CS 303', 'A', { credits: 200 })],
  )
  const audit = auditDegree(input)
  t.ok(ruleNamed(audit, 'One of').satisfied)
  t.equal(ruleNamed(audit, 'Huge').progress, 500 / 700)
  t.equal(audit.explanation.method, 'optimal')
})

t.test('min_grade: only grades at or above the minimum count; P counts unless a minimum is set', async (t) => {
  const audit = auditDegree(degree(
    [group('Core', allOf('Programming', ['CS 101'], { min_grade: 'C' }), nOf('Any pass', 1, ['CS 102'], { min_grade: 'P' }), nOf('Plain', 1, ['CS 103']), nOf('Letter', 1, ['CS 104'], { min_grade: 'D' }))],
    [taken('CS 101', 'C-'), taken('CS 102', 'P'), taken('CS 103', 'P'), taken('CS 104', 'P')],
  ))
  t.notOk(ruleNamed(audit, 'Programming').satisfied)
  t.equal(noteFor(audit, 'Enrollment/CS 101/24F'), 'Not toward "Programming": grade C- is below its minimum C.')
  t.ok(ruleNamed(audit, 'Any pass').satisfied)
  t.ok(ruleNamed(audit, 'Plain').satisfied)
  t.notOk(ruleNamed(audit, 'Letter').satisfied, 'P meets no letter minimum')
})

t.test('only completed, passed enrollments count, and each says why not', async (t) => {
  const audit = auditDegree(degree([group('Core', nOf('Any', 5, ['CS 101', 'CS 102', 'CS 103', 'CS 104', 'CS 105', 'CS 106']))], [
    taken('CS 101', 'F'), taken('CS 102', 'NP'), taken('CS 103', 'W'), taken('CS 104', 'I'),
    taken('CS 105', 'A', { status: 'enrolled' }), { ...taken('CS 106'), grade: null },
  ]))
  t.same(codesOn(audit, 'Any'), [])
  t.same(audit.explanation.courses.map((c) => c.note), [
    'Grade F does not count toward any rule.', 'Grade NP does not count toward any rule.', 'Grade W does not count toward any rule.',
    'Grade I does not count toward any rule.', 'Not completed (enrolled).', 'Completed without a grade yet.',
  ])
})

t.test('a retaken course counts once, with its best grade', async (t) => {
  const input = degree([group('Core', nOf('Two of', 2, ['CS 101', 'CS 102']), allOf('Needs B', ['CS 101'], { min_grade: 'B' }))], [
    taken('CS 101', 'F', { term: '24S' }), taken('CS 101', 'C', { term: '24F' }), taken('CS 101', 'B+', { term: '25S' }), taken('CS 101', 'C+', { term: '25F' }),
  ])
  const audit = auditDegree(input)
  const counted = audit.groups[0]!.rules.flatMap((r) => r.courses)
  t.same(counted.map((c) => [c.course_code, c.term, c.grade]), [['CS 101', '25S', 'B+']], 'on one rule only, the B+ attempt')
  t.ok(ruleNamed(audit, 'Needs B').satisfied, 'the best grade meets the minimum')
  t.equal(noteFor(audit, 'Enrollment/CS 101/24F'), 'CS 101 was taken again; the 25S attempt (B+) counts.')
  t.equal(noteFor(audit, 'Enrollment/CS 101/24S'), 'Grade F does not count toward any rule.')
})

t.test('force puts a course on a rule it does not match, as a substitute, even below min_grade', async (t) => {
  const input = degree([group('Core', allOf('Intro pair', ['CS 101', 'CS 102'], { min_grade: 'B' }), nOf('Elective', 1, ['CS 150']))], [
    taken('CS 101'), taken('CS 150', 'C', { allocation_overrides: [{ rule: 'Rule/Intro pair', mode: 'force' }] }),
  ])
  const audit = auditDegree(input)
  t.ok(ruleNamed(audit, 'Intro pair').satisfied)
  t.same(ruleNamed(audit, 'Intro pair').courses.map((c) => [c.course_code, c.forced]), [['CS 150', true], ['CS 101', false]])
  t.notOk(ruleNamed(audit, 'Elective').satisfied, 'a forced course counts once')
  t.equal(noteFor(audit, 'Enrollment/CS 150/24F'), 'Counts toward "Intro pair" (placed there by an override).')
})

t.test('force does not make a failed course count', async (t) => {
  const audit = auditDegree(degree([group('Core', allOf('Intro', ['CS 101']))], [taken('CS 190', 'F', { allocation_overrides: [{ rule: 'Rule/Intro', mode: 'force' }] })]))
  t.notOk(ruleNamed(audit, 'Intro').satisfied)
})

t.test('forces onto two rules that do not share: the first in degree order wins', async (t) => {
  const force = (rule: string) => ({ rule, mode: 'force' as const })
  const audit = auditDegree(degree([group('Core', allOf('A', ['CS 201']), allOf('B', ['CS 202']))], [
    taken('CS 299', 'A', { allocation_overrides: [force('Rule/B'), force('Rule/A'), force('Rule/Gone')] }),
  ]))
  t.same(codesOn(audit, 'A'), ['CS 299'])
  t.same(codesOn(audit, 'B'), [])
  t.equal(noteFor(audit, 'Enrollment/CS 299/24F'), 'Counts toward "A" (placed there by an override); not toward "B": an override also forces it there, but a course counts toward only one rule that does not allow sharing; an override names rule Rule/Gone, which is not part of this degree.')
})

t.test('exclude keeps a course off a rule it matches, and the engine places it elsewhere', async (t) => {
  const input = degree([group('Core', nOf('First', 1, ['CS 301', 'CS 302']), nOf('Second', 1, ['CS 301']))], [
    taken('CS 301', 'A', { allocation_overrides: [{ rule: 'Rule/Second', mode: 'exclude' }] }), taken('CS 302'),
  ])
  const audit = auditDegree(input)
  t.same(codesOn(audit, 'Second'), [])
  t.same(codesOn(audit, 'First'), ['CS 301', 'CS 302'])
  t.equal(noteFor(audit, 'Enrollment/CS 301/24F'), 'Counts toward "First"; kept off "Second" by an override.')
  t.equal(noteFor(audit, 'Enrollment/CS 302/24F'), 'Counts toward "First", which was already met without it.')
})

t.test('a rule that allows sharing counts a course that also counts elsewhere', async (t) => {
  const audit = auditDegree(degree(
    [group('Major', allOf('Core', ['CS 301'])), group('General', nOf('Writing intensive', 2, ['CS 301', 'ENG 210', 'HIST 220'], { allow_shared: true }))],
    [taken('CS 301'), taken('ENG 210')],
  ))
  t.same(codesOn(audit, 'Core'), ['CS 301'])
  t.same(codesOn(audit, 'Writing intensive'), ['CS 301', 'ENG 210'])
  t.equal(audit.rules_satisfied, 2)
  t.same(audit.explanation.courses[0]!.counted_toward, [{ rule: 'Rule/Core', name: 'Core' }, { rule: 'Rule/Writing intensive', name: 'Writing intensive' }])
  t.equal(audit.explanation.courses[0]!.note, 'Counts toward "Core"; also counts toward "Writing intensive" (shared).')
  t.equal(audit.explanation.courses[1]!.note, 'Counts toward "Writing intensive" (shared).')
})

t.test('a rule that cannot be met as written is never satisfied and says so', async (t) => {
  const audit = auditDegree(degree([group('Odd', { _id: 'Rule/x', name: 'No count', rule_type: 'n_of', courses: ['Course/CS 101'] })], [taken('CS 101')]))
  const rule = ruleNamed(audit, 'No count')
  t.equal(rule.progress, 0)
  t.notOk(rule.satisfied)
  t.match(rule.remaining!.text, /cannot be met as written/)
})

t.test('empty degrees and groups without rules give 0 progress rather than failing', async (t) => {
  t.equal(auditDegree(degree([], [taken('CS 101')])).overall_progress, 0)
  const audit = auditDegree(degree([group('Empty'), group('Core', allOf('Intro', ['CS 101']))], [taken('CS 101')]))
  t.same(audit.groups.map((g) => g.progress), [0, 1])
  t.equal(audit.overall_progress, 0.5)
})

t.test('the same input gives the same answer', async (t) => {
  const input = degree([group('Core', nOf('Two of', 2, ['CS 310', 'CS 320', 'CS 330']), nOf('One of', 1, ['CS 310', 'CS 320']))], [taken('CS 310'), taken('CS 320'), taken('CS 330')])
  t.same(auditDegree(input), auditDegree(structuredClone(input)))
  t.equal(JSON.stringify(auditDegree(input)), JSON.stringify(auditDegree(input)))
})
