import { assertScale, generateCatalog, type SampleCatalog } from './catalog.js'
import { generateEnrollments } from './enrollments.js'
import type { SampleRecord } from './records.js'

export type { SampleCatalog } from './catalog.js'
export type { SampleRecord } from './records.js'
export { generateCatalog } from './catalog.js'
export { generateEnrollments, gradePoints, ruleMatches } from './enrollments.js'
export { emailDomain } from './people.js'
export { currentTerm, sectionTerms } from './terms.js'

/** Records per class at scale 1; every count grows linearly with the scale. */
export const baseCounts: Readonly<Record<string, number>> = {
  Faculty: 40, Staff: 10, UndergraduateStudent: 300, GraduateStudent: 60, Course: 80, Section: 200, Degree: 4,
  AcademicProgram: 1, RequirementGroup: 16, RequirementRule: 22, ResearchCenter: 3, Lab: 10, Resource: 20, Publication: 400,
}

export interface SampleDepartment {
  readonly scale: number
  /** Catalog records; sections' enrollment caps fit their generated rosters. */
  readonly catalog: SampleCatalog
  /** Enrollment records (a protected collection). */
  readonly enrollments: readonly SampleRecord[]
  /**
   * Every record in writing order, split into stages: a record refers only to records of earlier stages,
   * so each stage's records may be written concurrently.
   */
  readonly stages: readonly (readonly SampleRecord[])[]
  /** Records per class. */
  readonly counts: Readonly<Record<string, number>>
}

/** Raises each section's cap to hold its roster with a few seats to spare. */
function fitCaps(sections: readonly SampleRecord[], enrollments: readonly SampleRecord[]): SampleRecord[] {
  const rosters = new Map<string, number>()
  for (const { body } of enrollments) {
    if (typeof body.section === 'string') rosters.set(body.section, (rosters.get(body.section) ?? 0) + 1)
  }
  return sections.map((section) => {
    const needed = Math.ceil(((rosters.get(section.id) ?? 0) + 3) / 5) * 5
    const cap = section.body.enrollment_cap as number
    return needed > cap ? { ...section, body: { ...section.body, enrollment_cap: needed } } : section
  })
}

function allCatalogRecords(catalog: SampleCatalog): SampleRecord[] {
  return [
    catalog.faculty, catalog.staff, catalog.degrees, catalog.programs, catalog.courses, catalog.sections,
    catalog.requirementRules, catalog.requirementGroups, catalog.undergraduates, catalog.graduates,
    catalog.researchCenters, catalog.labs, catalog.resources, catalog.publications,
  ].flat()
}

/** Ids a body mentions, at any depth: references are the only strings shaped like a generated id. */
function mentions(value: unknown, known: ReadonlyMap<string, number>, found: string[] = []): string[] {
  if (typeof value === 'string') { if (known.has(value)) found.push(value) }
  else if (Array.isArray(value)) value.forEach((v) => mentions(v, known, found))
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => mentions(v, known, found))
  return found
}

/** Stage of a record = one more than the latest stage among the records it refers to. */
function stagesOf(records: readonly SampleRecord[]): SampleRecord[][] {
  const stageOf = new Map<string, number>(records.map((r) => [r.id, -1]))
  const stages: SampleRecord[][] = []
  for (const record of records) {
    const referred = mentions(record.body, stageOf).map((id) => stageOf.get(id)!)
    if (referred.includes(-1)) throw new Error(`${record.id} refers to a record generated after it`)
    const stage = Math.max(-1, ...referred) + 1
    stageOf.set(record.id, stage)
    ;(stages[stage] ??= []).push(record)
  }
  return stages
}

export function countByClass(records: Iterable<SampleRecord>): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const { className } of records) counts[className] = (counts[className] ?? 0) + 1
  return counts
}

/** The whole sample department at a scale: the same records, ids and order on every run. */
export function generateSampleDepartment(scale = 1): SampleDepartment {
  assertScale(scale)
  const generated = generateCatalog(scale)
  const enrollments = generateEnrollments(generated)
  const catalog = { ...generated, sections: fitCaps(generated.sections, enrollments) }
  const records = [...allCatalogRecords(catalog), ...enrollments]
  return { scale, catalog, enrollments, stages: stagesOf(records), counts: countByClass(records) }
}
