import { courseTemplates, highDemand, templateCode, type CourseTemplate } from './curriculum.js'
import type { FacultyMember } from './people.js'
import { lexical, type SampleRecord, type Unit } from './records.js'
import { sectionTerms, termSeason, termYear } from './terms.js'

export interface UnitCourse {
  readonly template: CourseTemplate
  readonly record: SampleRecord
  /** Longest chain of prerequisites below the course: courses are written level by level. */
  readonly depth: number
}

const sectionsPerTerm = 50
const extraSections = 6

export function makeCourses(unit: Unit): UnitCourse[] {
  const byCode = new Map(courseTemplates.map((t) => [templateCode(t), t]))
  const depths = new Map<string, number>()
  const depth = (code: string): number => {
    let d = depths.get(code)
    if (d === undefined) {
      d = Math.max(0, ...byCode.get(code)!.prerequisites.map((p) => depth(p) + 1))
      depths.set(code, d)
    }
    return d
  }
  return courseTemplates.map((template) => {
    const code = templateCode(template)
    const prerequisites = template.prerequisites.map((p) => unit.courseId(p))
    const prose = prerequisites.length ? ` Prerequisites: ${template.prerequisites.map((p) => unit.code(p)).join(', ')}.` : ''
    const record = lexical('Course', [unit.code(code)], {
      course_code: unit.code(code),
      title: template.title,
      description: `${template.title}: ${template.topics}.${template.passFail ? ' Graded pass/fail.' : ''}${prose}`,
      credits: template.credits,
      prerequisites,
    })
    return { template, record, depth: depth(code) }
  })
}

/**
 * The courses offered in a term: every course of its season, less some upper-level electives that skip
 * alternate years, then extra sections of the busiest courses until the term has sectionsPerTerm.
 */
function offerings(courses: readonly UnitCourse[], term: string): UnitCourse[] {
  const season = termSeason(term)
  const offered = courses.filter((c) => c.template.offered === 'E' || c.template.offered === season)
  const optional = offered.filter((c) => c.template.offered !== 'E' && c.template.number >= 300)
  const excess = Math.max(0, offered.length - (sectionsPerTerm - extraSections))
  // Spread the skipped courses over the list, and alternate them between even and odd years.
  const stride = Math.max(1, Math.floor(optional.length / Math.max(1, excess)))
  const skipped = new Set(Array.from({ length: Math.min(excess, optional.length) }, (_, k) => optional[(termYear(term) % 2 + k * stride) % optional.length]))
  const kept = offered.filter((c) => !skipped.has(c))
  const busy = highDemand.map((code) => courses.find((c) => templateCode(c.template) === code)!)
  for (let i = 0; kept.length < sectionsPerTerm; i++) kept.push(busy[i % busy.length]!)
  return kept
}

const lectureTimes = ['MWF 09:00-09:50', 'MWF 10:00-10:50', 'MWF 11:00-11:50', 'MWF 13:00-13:50', 'MWF 14:00-14:50',
  'TTh 09:30-10:45', 'TTh 11:00-12:15', 'TTh 13:30-14:45', 'TTh 15:00-16:15', 'MW 16:30-17:45']
const rooms = ['Hopper Hall', 'Lovelace Building', 'Turing Center', 'Noether Auditorium'] as const

function defaultCap(template: CourseTemplate): number {
  if (template.area === 'research') return 15
  if (template.number >= 500) return 20
  return template.number >= 300 ? 40 : 60
}

export function makeSections(unit: Unit, courses: readonly UnitCourse[], faculty: readonly FacultyMember[]): SampleRecord[] {
  const { random } = unit
  const teachers = faculty.filter((f) => f.teaching)
  const load = new Map<FacultyMember, number>(teachers.map((f) => [f, 0]))
  const choose = (pool: readonly FacultyMember[]): FacultyMember => {
    const least = Math.min(...pool.map((f) => load.get(f)!))
    const pick = random.pick(pool.filter((f) => load.get(f) === least))
    load.set(pick, load.get(pick)! + 1)
    return pick
  }
  const sections: SampleRecord[] = []
  for (const term of sectionTerms) {
    const numbers = new Map<UnitCourse, number>()
    for (const course of offerings(courses, term)) {
      const n = (numbers.get(course) ?? 0) + 1
      numbers.set(course, n)
      const { template } = course
      const inArea = teachers.filter((f) => f.area === template.area)
      const pool = template.area === 'intro' ? teachers.filter((f) => !f.researchActive || !f.senior) : inArea.length ? inArea : teachers
      const instructors = [choose(pool)]
      const others = pool.filter((f) => f !== instructors[0])
      if (others.length && random.chance(0.08)) instructors.push(choose(others))
      const research = template.area === 'research' && template.number >= 600
      const section_number = String(n).padStart(2, '0')
      sections.push(lexical('Section', [course.record.id, term, section_number], {
        course: course.record.id,
        term,
        section_number,
        instructors: instructors.map((f) => f.record.id),
        enrollment_cap: defaultCap(template),
        schedule: research ? 'By arrangement' : template.credits === 1 ? 'F 12:00-12:50' : random.pick(lectureTimes),
        ...(research ? {} : { location: `${random.pick(rooms)} ${random.int(1, 3)}${String(random.int(1, 30)).padStart(2, '0')}` }),
      }))
    }
  }
  return sections
}
