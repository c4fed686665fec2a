import { templateCode } from './curriculum.js'
import { makeCourses, makeSections } from './courses.js'
import { NetIds } from './names.js'
import { makeFaculty, makeGraduates, makeStaff, makeUndergraduates } from './people.js'
import { makePublications } from './publications.js'
import { lexical, maxScale, Unit, type SampleRecord } from './records.js'
import { makeDegrees } from './requirements.js'
import { makeResearch } from './research.js'

/** Every catalog record of the sample department, by class, each list in writing order. */
export interface SampleCatalog {
  readonly scale: number
  readonly faculty: readonly SampleRecord[]
  readonly staff: readonly SampleRecord[]
  readonly degrees: readonly SampleRecord[]
  readonly programs: readonly SampleRecord[]
  readonly courses: readonly SampleRecord[]
  readonly sections: readonly SampleRecord[]
  readonly requirementRules: readonly SampleRecord[]
  readonly requirementGroups: readonly SampleRecord[]
  readonly undergraduates: readonly SampleRecord[]
  readonly graduates: readonly SampleRecord[]
  readonly researchCenters: readonly SampleRecord[]
  readonly labs: readonly SampleRecord[]
  readonly resources: readonly SampleRecord[]
  readonly publications: readonly SampleRecord[]
  /** Course ids graded pass/fail. */
  readonly passFailCourses: ReadonlySet<string>
  /** Course ids a student may take in more than one term (research credit). */
  readonly repeatableCourses: ReadonlySet<string>
}

export function assertScale(scale: number): void {
  if (!Number.isInteger(scale) || scale < 1 || scale > maxScale) throw new RangeError(`scale must be an integer from 1 to ${maxScale}, not ${scale}`)
}

/** The catalog at the given scale: `scale` copies of the department, each with every kind of record. */
export function generateCatalog(scale = 1): SampleCatalog {
  assertScale(scale)
  const netIds = new NetIds()
  const lists = {
    faculty: [] as SampleRecord[], staff: [] as SampleRecord[], degrees: [] as SampleRecord[], programs: [] as SampleRecord[],
    courses: [] as SampleRecord[], sections: [] as SampleRecord[], requirementRules: [] as SampleRecord[],
    requirementGroups: [] as SampleRecord[], undergraduates: [] as SampleRecord[], graduates: [] as SampleRecord[],
    researchCenters: [] as SampleRecord[], labs: [] as SampleRecord[], resources: [] as SampleRecord[], publications: [] as SampleRecord[],
  }
  const passFail = new Set<string>()
  const repeatable = new Set<string>()
  for (let index = 0; index < scale; index++) {
    const unit = new Unit(index)
    const faculty = makeFaculty(unit, netIds)
    const staff = makeStaff(unit, netIds)
    const courses = makeCourses(unit)
    const degrees = makeDegrees(unit)
    const director = faculty.find((f) => f.senior && f.researchActive) ?? faculty[0]!
    const programName = unit.name('Doctoral Program in Computer Science')
    const program = lexical('AcademicProgram', [programName], {
      name: programName, degree: degrees.bySlot.phd, expected_years: 5, director: director.record.id,
      description: 'Five to six years of coursework, research and a dissertation, fully funded.',
    })
    const links = { faculty, bs: degrees.bySlot.bs, ba: degrees.bySlot.ba, minor: degrees.bySlot.minor, program: program.id }
    const undergraduates = makeUndergraduates(unit, netIds, links)
    const graduates = makeGraduates(unit, netIds, links)
    const research = makeResearch(unit, faculty, staff, graduates, undergraduates)
    lists.faculty.push(...faculty.map((f) => f.record))
    lists.staff.push(...staff)
    lists.degrees.push(...degrees.degrees)
    lists.programs.push(program)
    lists.courses.push(...[...courses].sort((a, b) => a.depth - b.depth).map((c) => c.record))
    lists.sections.push(...makeSections(unit, courses, faculty))
    lists.requirementRules.push(...degrees.rules)
    lists.requirementGroups.push(...degrees.groups)
    lists.undergraduates.push(...undergraduates)
    lists.graduates.push(...graduates)
    lists.researchCenters.push(...research.centers)
    lists.labs.push(...research.labs)
    lists.resources.push(...research.resources)
    lists.publications.push(...makePublications(unit, faculty, graduates))
    for (const { template } of courses) {
      if (template.passFail) passFail.add(unit.courseId(templateCode(template)))
      if (template.repeatable) repeatable.add(unit.courseId(templateCode(template)))
    }
  }
  return { scale, ...lists, passFailCourses: passFail, repeatableCourses: repeatable }
}
