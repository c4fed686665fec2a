/**
 * The degree-progress endpoint's scenario: builds, through the API as an admin, the degree audit
 * engine benchmark's case inside a running service: its course pool (under subjects prefixed with B, so
 * they stand apart from the sample catalog), a degree with its 30 rules in 6 groups, and an undergraduate
 * with 40 completed courses (plus three retakes and a few advisor overrides). The scenario then asks for
 * that student's progress against that degree; each request is an audited read of a protected record.
 */
import { benchDegree, benchStudent } from './degree-audit.js'
import type { Scenario } from './scenarios.js'

type Headers = Record<string, string>

async function post(base: string, path: string, headers: Headers, body: unknown): Promise<{ _id?: string; id?: string }> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`)
  return response.json() as Promise<{ _id?: string; id?: string }>
}

/** "CS 101" becomes "BCS 101". */
const benchCode = (code: string) => `B${code}`
const courseId = (id: string) => id.replace('Course/', 'Course/B')

export const degreeProgressName = 'GET /api/students/:id/degree-progress (40 courses, 30 rules)'

export async function degreeProgressScenario(base: string, auth: Headers): Promise<Scenario> {
  const groups = benchDegree()
  const student = benchStudent(1000, 40, groups)
  const codes = new Set<string>()
  for (const rule of groups.flatMap((g) => g.rules)) for (const course of rule.courses ?? []) codes.add(course.replace('Course/', '').replace('-', ' '))
  for (const enrollment of student) codes.add(enrollment.course_code)
  for (const code of [...codes].sort()) {
    const credits = student.find((e) => e.course_code === code)?.credits ?? 3
    await post(base, '/api/courses', auth, { course_code: benchCode(code), title: `Benchmark course ${code}`, credits })
  }

  const degree = (await post(base, '/api/degrees', auth, { name: `Benchmark Science ${Date.now()}`, degree_type: 'BS' }))._id!
  const ruleIds = new Map<string, string>()
  for (const [order, group] of groups.entries()) {
    const rules: string[] = []
    for (const rule of group.rules) {
      const { _id, courses, course_pattern, ...fields } = rule
      const created = await post(base, '/api/requirement-rules', auth, {
        ...fields,
        ...(courses?.length ? { courses: courses.map(courseId) } : {}),
        ...(course_pattern ? { course_pattern: { ...course_pattern, subject: `B${course_pattern.subject}` } } : {}),
      })
      ruleIds.set(_id, created._id!)
      rules.push(created._id!)
    }
    await post(base, '/api/requirement-groups', auth, { name: group.name, degree, order, rules })
  }

  const person = await post(base, '/api/people', auth, { type: 'UndergraduateStudent', first_name: 'Bench', last_name: `Student ${Date.now()}` })
  const studentId = person.id ?? person._id!
  for (const e of student) {
    const overrides = (e.allocation_overrides ?? []).map((o) => ({ ...o, rule: ruleIds.get(o.rule)! }))
    await post(base, '/api/enrollments', auth, {
      student: studentId, course: courseId(e.course), term: e.term, status: 'completed', credits: e.credits, grade: e.grade,
      ...(overrides.length ? { allocation_overrides: overrides } : {}),
    })
  }
  return {
    name: degreeProgressName,
    url: `${base}/api/students/${encodeURIComponent(studentId)}/degree-progress?degree=${encodeURIComponent(degree)}`,
    headers: auth,
  }
}
