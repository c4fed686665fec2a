import t from 'tap'
import { gpa, gradePoints, gradeRank, isGrade, isMinimumGrade, isPassing, LETTER_GRADES, meetsMinimum } from '../../src/domain/grades.js'
import { compareTerms } from '../../src/domain/terms.js'

t.test('grade points follow the 4.0 scale, with nothing for ungraded marks', async (t) => {
  t.same(LETTER_GRADES.map((grade) => gradePoints(grade)), [4, 4, 3.7, 3.3, 3, 2.7, 2.3, 2, 1.7, 1.3, 1, 0.7, 0])
  for (const mark of ['P', 'NP', 'I', 'W', 'E', '', null, undefined]) t.equal(gradePoints(mark), undefined, String(mark))
})

t.test('passing grades are the letters above F and P', async (t) => {
  t.same(['A+', 'B', 'D-', 'P', 'F', 'NP', 'I', 'W', 'Z', null].map(isPassing), [true, true, true, true, false, false, false, false, false, false])
})

t.test('grades rank A+ above A although both earn 4.0, and P below every letter but F', async (t) => {
  t.ok(gradeRank('A+') > gradeRank('A'))
  t.ok(gradeRank('D-') > gradeRank('P'))
  t.ok(gradeRank('P') > gradeRank('F'))
  t.ok(gradeRank('F') > gradeRank('W'))
})

t.test('a minimum accepts grades at or above it; P meets only a P minimum', async (t) => {
  t.ok(meetsMinimum('B', 'C'))
  t.ok(meetsMinimum('C', 'C'))
  t.notOk(meetsMinimum('C-', 'C'))
  t.ok(meetsMinimum('A+', 'A'))
  t.notOk(meetsMinimum('A', 'A+'))
  t.notOk(meetsMinimum('P', 'D-'))
  t.ok(meetsMinimum('P', 'P'))
  t.ok(meetsMinimum('D-', 'P'))
  t.notOk(meetsMinimum('F', 'P'))
  t.notOk(meetsMinimum('NP', 'P'))
  t.notOk(meetsMinimum('A', 'excellent'), 'an unknown minimum is met by nothing')
})

t.test('grade and minimum recognisers take the schema sets', async (t) => {
  t.ok(isGrade('NP'))
  t.notOk(isGrade('E'))
  t.ok(isMinimumGrade('P'))
  t.notOk(isMinimumGrade('F'))
  t.notOk(isMinimumGrade('NP'))
})

t.test('GPA weighs points by credits over letter-graded credits only', async (t) => {
  t.equal(gpa([{ grade: 'A', credits: 3 }, { grade: 'C', credits: 1 }]), (4 * 3 + 2 * 1) / 4)
  t.equal(gpa([{ grade: 'B', credits: 3 }, { grade: 'F', credits: 3 }, { grade: 'P', credits: 4 }, { grade: 'W', credits: 3 }]), 1.5)
  t.equal(gpa([{ grade: 'A', credits: 0 }, { grade: 'P', credits: 3 }]), null, 'nothing graded gives no GPA rather than 0')
  t.equal(gpa([]), null)
})

t.test('terms sort by year, then winter, spring, summer, fall; unknown codes last', async (t) => {
  t.same(['25F', '24F', '25S', 'later', '25W', '25U', 'x'].sort(compareTerms), ['24F', '25W', '25S', '25U', '25F', 'later', 'x'])
})
