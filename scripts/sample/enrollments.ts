import { parseCourseCode } from '../../src/domain/course-code.js'
import type { SampleCatalog } from './catalog.js'
import { Random } from './random.js'
import { lexical, type SampleRecord } from './records.js'
import { compareTerms, currentTerm, fallOf, sectionTerms, termsBetween, termYear } from './terms.js'

interface CourseFacts {
  readonly id: string
  readonly subject: string
  readonly level: number
  readonly credits: number
  readonly prerequisites: readonly string[]
  readonly passFail: boolean
  readonly repeatable: boolean
}

interface Rule {
  readonly rule_type: string
  readonly courses: readonly string[]
  readonly course_pattern?: { subject: string; min_level?: number; max_level?: number }
  readonly count?: number
  readonly min_credits?: number
  readonly allow_shared?: boolean
}

export const gradePoints: Readonly<Record<string, number>> = {
  'A+': 4.0, A: 4.0, 'A-': 3.7, 'B+': 3.3, B: 3.0, 'B-': 2.7, 'C+': 2.3, C: 2.0, 'C-': 1.7, 'D+': 1.3, D: 1.0, 'D-': 0.7, F: 0,
}

// Lowest score that earns each grade; scores are the student's ability plus the term's luck.
const gradeCutoffs: readonly (readonly [string, number])[] = [
  ['A+', 2.0], ['A', 0.9], ['A-', 0.5], ['B+', 0.15], ['B', -0.2], ['B-', -0.5], ['C+', -0.8], ['C', -1.1], ['C-', -1.35], ['D+', -1.55], ['D', -1.75], ['D-', -1.9],
]

function letterGrade(score: number): string {
  return gradeCutoffs.find(([, cutoff]) => score >= cutoff)?.[0] ?? 'F'
}

export function ruleMatches(rule: Rule, course: CourseFacts): boolean {
  if (rule.courses.includes(course.id)) return true
  const p = rule.course_pattern
  return !!p && p.subject === course.subject && course.level >= (p.min_level ?? 0) && course.level <= (p.max_level ?? Infinity)
}

class Catalog {
  readonly courses = new Map<string, CourseFacts>()
  readonly sections = new Map<string, string[]>()
  readonly rulesOf = new Map<string, Rule[]>()
  readonly sectionLoad = new Map<string, number>()
  readonly programDegree = new Map<string, string>()
  private readonly pools = new Map<string, CourseFacts[]>()

  constructor(catalog: SampleCatalog) {
    for (const { id, body } of catalog.courses) {
      const code = parseCourseCode(body.course_code as string)!
      this.courses.set(id, {
        id, subject: code.subject, level: code.level, credits: body.credits as number, prerequisites: body.prerequisites as string[],
        passFail: catalog.passFailCourses.has(id), repeatable: catalog.repeatableCourses.has(id),
      })
    }
    for (const { id, body } of catalog.sections) {
      const key = `${body.course as string}|${body.term as string}`
      this.sections.set(key, [...(this.sections.get(key) ?? []), id])
      this.sectionLoad.set(id, 0)
    }
    const rules = new Map(catalog.requirementRules.map((r) => [r.id, r.body as unknown as Rule]))
    const groups = [...catalog.requirementGroups].sort((a, b) => (a.body.order as number) - (b.body.order as number))
    for (const { body } of groups) {
      const degree = body.degree as string
      this.rulesOf.set(degree, [...(this.rulesOf.get(degree) ?? []), ...(body.rules as string[]).map((id) => rules.get(id)!)])
    }
    for (const { id, body } of catalog.programs) this.programDegree.set(id, body.degree as string)
  }

  /** The courses of the subjects the degrees draw on: a student's own unit, never another's. */
  poolFor(degrees: readonly string[]): CourseFacts[] {
    const key = degrees.join('|')
    let pool = this.pools.get(key)
    if (!pool) {
      const subjects = new Set<string>()
      for (const rule of degrees.flatMap((d) => this.rulesOf.get(d) ?? [])) {
        rule.courses.forEach((id) => subjects.add(this.courses.get(id)!.subject))
        if (rule.course_pattern) subjects.add(rule.course_pattern.subject)
      }
      pool = [...this.courses.values()].filter((c) => subjects.has(c.subject))
      this.pools.set(key, pool)
    }
    return pool
  }

  /** The least-filled section of the course in the term, or undefined for terms before sections were kept. */
  takeSeat(course: string, term: string): string | undefined {
    const options = this.sections.get(`${course}|${term}`)
    if (!options) return undefined
    const section = options.reduce((best, s) => (this.sectionLoad.get(s)! < this.sectionLoad.get(best)! ? s : best))
    this.sectionLoad.set(section, this.sectionLoad.get(section)! + 1)
    return section
  }

  offered(course: string, term: string): boolean {
    return !(sectionTerms as readonly string[]).includes(term) || this.sections.has(`${course}|${term}`)
  }
}

/**
 * The courses a student means to take: everything the degrees' rules ask for (random picks where a rule
 * offers a choice), plus the prerequisites those need.
 */
function plan(catalog: Catalog, random: Random, degrees: readonly string[], graduate: boolean): Set<string> {
  const wanted = new Set<string>()
  const pool = catalog.poolFor(degrees).filter((c) => (graduate ? c.level >= 500 : c.level < 500))
  for (const degree of degrees) {
    const used = new Set<string>()
    for (const rule of catalog.rulesOf.get(degree) ?? []) {
      const candidates = pool.filter((c) => ruleMatches(rule, c) && (rule.allow_shared || !used.has(c.id)))
      let chosen: CourseFacts[]
      if (rule.rule_type === 'all_of') chosen = candidates
      else if (rule.rule_type === 'n_of') chosen = random.sample(candidates, rule.count ?? 1)
      else {
        chosen = []
        let credits = 0
        for (const course of random.shuffle(candidates)) {
          if (credits >= (rule.min_credits ?? 0)) break
          chosen.push(course)
          credits += course.credits
        }
      }
      for (const course of chosen) {
        wanted.add(course.id)
        if (!rule.allow_shared) used.add(course.id)
      }
    }
  }
  const addPrerequisites = (id: string) => {
    for (const p of catalog.courses.get(id)!.prerequisites) {
      if (graduate && catalog.courses.get(p)!.level < 500) continue
      if (!wanted.has(p)) { wanted.add(p); addPrerequisites(p) }
    }
  }
  for (const id of [...wanted]) addPrerequisites(id)
  return wanted
}

function studentEnrollments(catalog: Catalog, student: SampleRecord, position: number): SampleRecord[] {
  const random = new Random(`enrollments:${student.id}`)
  const graduate = student.className === 'GraduateStudent'
  const body = student.body
  const degrees = graduate ? [catalog.programDegree.get(body.program as string)!] : [...body.declared_majors as string[], ...body.declared_minors as string[]]
  const start = graduate ? fallOf(termYear(currentTerm) - (body.year_in_program as number)) : fallOf((body.class_year as number) - 4)
  const wanted = plan(catalog, random, degrees, graduate)
  const pool = catalog.poolFor(degrees)
  const ability = graduate ? 0.9 + random.normal() * 0.4 : 0.3 + random.normal() * 0.7
  const passed = new Set<string>()
  const enrollments: SampleRecord[] = []
  termsBetween(start, currentTerm).forEach((term, k) => {
    const load = graduate ? (k < 2 ? 3 : k < 4 ? 2 : 1) : (k + position) % 3 === 0 ? 2 : 3
    const ready = (c: CourseFacts) => (graduate ? c.level >= 500 : c.level < 500)
      && (c.repeatable || !passed.has(c.id))
      && c.prerequisites.every((p) => passed.has(p) || (graduate && catalog.courses.get(p)!.level < 500))
      && catalog.offered(c.id, term)
    const eligible = random.shuffle(pool.filter(ready))
    // Planned courses first, lowest level first; then research credit, dissertation before the rest.
    const rank = (c: CourseFacts) => (wanted.has(c.id) && !passed.has(c.id) ? c.level : c.repeatable ? 2000 - c.level : 3000 + c.level)
    const chosen = eligible.sort((a, b) => rank(a) - rank(b)).slice(0, load)
    for (const course of chosen) {
      const section = catalog.takeSeat(course.id, term)
      const fields: Record<string, unknown> = { student: student.id, course: course.id, ...(section ? { section } : {}), term, credits: course.credits }
      if (compareTerms(term, currentTerm) >= 0) {
        fields.status = 'enrolled'
      } else {
        const grade = course.passFail ? 'P' : letterGrade(ability + random.normal() * 0.8)
        Object.assign(fields, { status: 'completed', grade }, grade in gradePoints ? { grade_points: gradePoints[grade] } : {})
        if (grade !== 'F') passed.add(course.id)
      }
      enrollments.push(lexical('Enrollment', [student.id, course.id, term], fields))
    }
  })
  return enrollments
}

/**
 * Every student's course history: completed courses with grades in past terms (undergraduates from
 * their first fall, graduate students from the fall they entered), and enrolled courses in the current
 * term. Students follow their degree's requirements and take prerequisites first; a failed course is
 * not passed and may be retaken.
 */
export function generateEnrollments(sample: SampleCatalog): SampleRecord[] {
  const catalog = new Catalog(sample)
  return [...sample.undergraduates, ...sample.graduates].flatMap((student, i) => studentEnrollments(catalog, student, i))
}
