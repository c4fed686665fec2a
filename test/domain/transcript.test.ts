import t from 'tap'
import { transcript, type CourseInfo, type TranscriptEnrollment } from '../../src/domain/transcript.js'

const courses = new Map<string, CourseInfo>([
  ['Course/CS-101', { course_code: 'CS 101', title: 'Programming', credits: 4 }],
  ['Course/CS-201', { course_code: 'CS 201', title: 'Data Structures', credits: 3 }],
  ['Course/MATH-150', { course_code: 'MATH 150', title: 'Calculus', credits: 3 }],
  ['Course/ART-100', { course_code: 'ART 100', title: 'Drawing', credits: 2 }],
  ['Course/HIST-110', { course_code: 'HIST 110', title: 'History', credits: 3 }],
])

let n = 0
function taken(course: string, term: string, grade: string | undefined, extra: Partial<TranscriptEnrollment> = {}): TranscriptEnrollment {
  return { _id: `Enrollment/e${++n}`, course: `Course/${course}`, term, status: 'completed', ...(grade ? { grade } : {}), ...extra }
}

t.test('letter grades: points times credits over graded credits, per term and overall', async (t) => {
  const result = transcript([taken('CS-101', '25F', 'A'), taken('MATH-150', '25F', 'B+')], courses)
  t.equal(result.terms.length, 1)
  t.match(result.terms[0], { term: '25F', credits: 7, credits_earned: 7, gpa: 3.7 }, '(4.0×4 + 3.3×3) / 7 = 3.7')
  t.same(result.cumulative, { credits_attempted: 7, credits_earned: 7, gpa: 3.7 })
  t.match(result.terms[0]!.courses[0], {
    course: 'Course/CS-101', course_code: 'CS 101', title: 'Programming', credits: 4, grade: 'A', grade_points: 4, repeated: false, status: 'completed',
  })
})

t.test('terms come in chronological order, courses by code within a term', async (t) => {
  const result = transcript([
    taken('MATH-150', '26S', 'B'), taken('CS-201', '25F', 'A'), taken('CS-101', '25F', 'A'), taken('ART-100', '26W', 'A'), taken('HIST-110', '25U', 'C'),
  ], courses)
  t.same(result.terms.map((term) => term.term), ['25U', '25F', '26W', '26S'])
  t.same(result.terms[1]!.courses.map((c) => c.course_code), ['CS 101', 'CS 201'])
})

t.test('F, P, NP, W, I and ungraded work each count as the rules say', async (t) => {
  const result = transcript([
    taken('CS-101', '25F', 'B'), // 4 credits, 3.0
    taken('MATH-150', '25F', 'F'), // attempted, not earned, 0 points in the GPA
    taken('ART-100', '25F', 'P'), // attempted and earned, no GPA
    taken('HIST-110', '25F', 'NP'), // attempted, not earned, no GPA
    taken('CS-201', '25F', 'A', { status: 'withdrawn' }), // a withdrawal is a W whatever was recorded
  ], courses)
  const [term] = result.terms
  t.equal(term!.credits, 4 + 3 + 2 + 3, 'attempted: B, F, P and NP')
  t.equal(term!.credits_earned, 4 + 2, 'earned: B and P')
  t.equal(term!.gpa, 1.71, '(3.0×4 + 0×3) / 7 = 1.714…')
  t.same(term!.courses.find((c) => c.course === 'Course/CS-201'), {
    enrollment: term!.courses.find((c) => c.course === 'Course/CS-201')!.enrollment, course: 'Course/CS-201', course_code: 'CS 201',
    title: 'Data Structures', section: null, status: 'withdrawn', credits: 3, grade: 'W', grade_points: null, repeated: false,
  })

  const pending = transcript([
    taken('CS-101', '26S', 'I'),
    taken('MATH-150', '26S', undefined, { status: 'enrolled' }),
    taken('CS-201', '26S', 'B', { status: 'enrolled' }),
    taken('ART-100', '26S', 'A', { status: 'dropped' }),
  ], courses)
  t.same(pending.terms[0]!.courses.map((c) => [c.course_code, c.grade]), [['CS 101', 'I'], ['CS 201', 'B'], ['MATH 150', null]], 'dropped is left out')
  t.match(pending.terms[0], { credits: 0, credits_earned: 0, gpa: null }, 'incomplete and in-progress work counts for nothing yet')
  t.same(pending.cumulative, { credits_attempted: 0, credits_earned: 0, gpa: null }, 'no GPA rather than 0')
})

t.test('a retaken course counts once: the best attempt, the others listed as repeated', async (t) => {
  const failedThenPassed = transcript([taken('CS-101', '25F', 'F'), taken('MATH-150', '25F', 'A'), taken('CS-101', '26S', 'B')], courses)
  const [fall, spring] = failedThenPassed.terms
  t.equal(fall!.courses.find((c) => c.course_code === 'CS 101')!.repeated, true)
  t.match(fall, { credits: 3, credits_earned: 3, gpa: 4 }, 'the replaced F leaves the fall figures')
  t.match(spring, { credits: 4, credits_earned: 4, gpa: 3 })
  t.same(failedThenPassed.cumulative, { credits_attempted: 7, credits_earned: 7, gpa: 3.43 }, '(4.0×3 + 3.0×4) / 7 = 3.428…')

  const worseLater = transcript([taken('CS-101', '25F', 'A-'), taken('CS-101', '26S', 'C')], courses)
  t.same(worseLater.terms.map((term) => term.courses[0]!.repeated), [false, true], 'a worse second attempt does not replace a better first')
  t.equal(worseLater.cumulative.gpa, 3.7)

  const sameGrade = transcript([taken('CS-101', '25F', 'B'), taken('CS-101', '26S', 'B')], courses)
  t.same(sameGrade.terms.map((term) => term.courses[0]!.repeated), [true, false], 'on equal grades the later attempt counts')
  t.equal(sameGrade.cumulative.credits_attempted, 4)

  const withdrawnThenTaken = transcript([taken('CS-101', '25F', 'W', { status: 'withdrawn' }), taken('CS-101', '26S', 'C')], courses)
  t.same(withdrawnThenTaken.terms.map((term) => term.courses[0]!.repeated), [false, false], 'a withdrawal is no attempt to replace')
  t.same(withdrawnThenTaken.cumulative, { credits_attempted: 4, credits_earned: 4, gpa: 2 })
})

t.test('credits come from the enrollment, else the course; sums and GPAs are rounded to two decimals', async (t) => {
  const result = transcript([
    taken('CS-101', '25F', 'A', { credits: 1 }),
    taken('CS-201', '25F', 'B'),
    taken('ART-100', '25F', 'C', { credits: 0.1 }),
    taken('HIST-110', '25F', 'A', { credits: 0.2 }),
    taken('MATH-150', '25F', 'A', { course: 'Course/UNKNOWN' }),
  ], courses)
  t.equal(result.terms[0]!.courses.find((c) => c.course === 'Course/UNKNOWN')!.credits, 0, 'an unknown course with no credits gives 0')
  t.equal(result.terms[0]!.credits, 4.3, '1 + 3 + 0.1 + 0.2, not 4.300000000000001')
  t.equal(result.cumulative.gpa, 3.26, '(4×1 + 3×3 + 2×0.1 + 4×0.2) / 4.3 = 3.2558…')
})
