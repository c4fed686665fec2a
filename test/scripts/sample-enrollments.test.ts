import t from 'tap'
import { parseCourseCode } from '../../src/domain/course-code.js'
import { currentTerm, generateSampleDepartment, gradePoints, sectionTerms } from '../../scripts/sample/index.js'
import { compareTerms } from '../../scripts/sample/terms.js'
import { degreeRules, satisfiesAll } from './requirements-check.js'

const department = generateSampleDepartment(1)
const { catalog, enrollments } = department
const courses = new Map(catalog.courses.map((c) => [c.id, c.body]))
const sections = new Map(catalog.sections.map((s) => [s.id, s.body]))
const level = (course: string) => parseCourseCode(courses.get(course)!.course_code as string)!.level
const byStudent = new Map<string, Record<string, unknown>[]>()
for (const { body } of enrollments) byStudent.set(body.student as string, [...(byStudent.get(body.student as string) ?? []), body])
const students = [...catalog.undergraduates, ...catalog.graduates]

t.test('every student has enrollments, each once per course and term', async (t) => {
  t.ok(students.every((s) => (byStudent.get(s.id)?.length ?? 0) >= 2), 'at least two each')
  t.equal(byStudent.size, students.length, 'only students of the catalog')
  const keys = enrollments.map(({ body }) => `${body.student as string}|${body.course as string}|${body.term as string}`)
  t.equal(new Set(keys).size, keys.length)
  const key = (id: string) => id.slice(id.indexOf('/') + 1)
  t.ok(enrollments.every(({ id, key: given, body }) => given === undefined
    && id === `Enrollment/${key(body.student as string)}_${key(body.course as string)}_${body.term as string}`), 'ids as the Lexical key makes them')
})

t.test('past terms are completed with grades and grade points; the current term is in progress', async (t) => {
  const bad: string[] = []
  const seen = new Set<string>()
  for (const { id, body } of enrollments) {
    const credits = courses.get(body.course as string)!.credits
    if (body.credits !== credits) bad.push(`${id} credits`)
    if (body.term === currentTerm) {
      if (body.status !== 'enrolled' || 'grade' in body || 'grade_points' in body) bad.push(`${id} should be in progress`)
      continue
    }
    const grade = body.grade as string
    seen.add(grade)
    if (body.status !== 'completed' || compareTerms(body.term as string, currentTerm) >= 0) bad.push(`${id} status`)
    if (grade === 'P' ? 'grade_points' in body : body.grade_points !== gradePoints[grade]) bad.push(`${id} grade points`)
  }
  t.same(bad, [])
  t.same([...seen].sort(), [...Object.keys(gradePoints), 'P'].sort(), 'every letter grade and P occur')
  t.same([gradePoints.A, gradePoints['A-'], gradePoints['B+'], gradePoints.B, gradePoints.F], [4, 3.7, 3.3, 3, 0])
  const graded = enrollments.filter((e) => typeof e.body.grade_points === 'number')
  const mean = graded.reduce((sum, e) => sum + (e.body.grade_points as number), 0) / graded.length
  t.ok(mean > 2.8 && mean < 3.7, `mean grade points ${mean.toFixed(2)}`)
})

t.test('sections match the enrollment, and exist only for the terms that keep them', async (t) => {
  const bad = enrollments.filter(({ body }) => {
    const kept = (sectionTerms as readonly string[]).includes(body.term as string)
    if (!kept) return 'section' in body
    const section = sections.get(body.section as string)
    return !section || section.course !== body.course || section.term !== body.term
  })
  t.same(bad.map((e) => e.id), [])
})

t.test('students take courses at their level, after passing the prerequisites', async (t) => {
  const bad: string[] = []
  for (const student of students) {
    const graduate = student.className === 'GraduateStudent'
    const history = byStudent.get(student.id)!
    const passedBefore = (course: string, term: string) =>
      history.some((e) => e.course === course && e.grade !== undefined && e.grade !== 'F' && compareTerms(e.term as string, term) < 0)
    for (const e of history) {
      const course = e.course as string
      if (graduate !== level(course) >= 500) bad.push(`${student.id} takes ${course}`)
      for (const p of courses.get(course)!.prerequisites as string[]) {
        if ((!graduate || level(p) >= 500) && !passedBefore(p, e.term as string)) bad.push(`${student.id} takes ${course} before ${p}`)
      }
      if (!catalog.repeatableCourses.has(course) && passedBefore(course, e.term as string)) bad.push(`${student.id} repeats ${course}`)
    }
    const first = history.map((e) => e.term as string).sort(compareTerms)[0]!
    const expected = graduate ? 2026 - (student.body.year_in_program as number) : (student.body.class_year as number) - 4
    if (first !== `${expected % 100}F`) bad.push(`${student.id} starts in ${first}`)
  }
  t.same(bad, [])
})

t.test('seniors are close to their degree, first-years far from it', async (t) => {
  const codeOf = (id: string) => courses.get(id)!.course_code as string
  const done = (year: number) => catalog.undergraduates
    .filter((s) => s.body.class_year === year)
    .filter((s) => satisfiesAll(degreeRules(catalog, (s.body.declared_majors as string[])[0]!), byStudent.get(s.id)!.map((e) => ({
      course: e.course as string, credits: e.credits as number, ...(e.grade ? { grade: e.grade as string } : {}),
    })), codeOf)).length
  t.ok(done(2026) >= 25, `${done(2026)} of 75 seniors meet every rule with this term's courses`)
  t.ok(done(2026) > done(2027), 'more seniors than juniors')
  t.equal(done(2029), 0, 'no first-year is done')
})
