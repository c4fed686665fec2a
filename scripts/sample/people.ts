import type { Area } from './curriculum.js'
import { randomName, type NetIds, type PersonName } from './names.js'
import { keyed, type SampleRecord, type Unit } from './records.js'

export const emailDomain = 'cs.example.edu'

export type FacultyArea = Exclude<Area, 'intro' | 'research'>

export interface FacultyMember {
  readonly record: SampleRecord
  readonly name: PersonName
  readonly area: FacultyArea
  /** May advise doctoral students and lead labs. */
  readonly researchActive: boolean
  readonly senior: boolean
  readonly teaching: boolean
}

export const areaNames: Record<FacultyArea, string> = {
  systems: 'Systems', theory: 'Theory of Computation', ai: 'Artificial Intelligence', hci: 'Human-Computer Interaction',
  security: 'Security and Privacy', data: 'Data Systems', pl: 'Programming Languages and Software Engineering',
  math: 'Applied Mathematics', stats: 'Statistics',
}

const areaInterests: Record<FacultyArea, readonly string[]> = {
  systems: ['operating systems', 'distributed systems', 'cloud computing', 'storage systems', 'computer architecture', 'energy-efficient computing'],
  theory: ['algorithms', 'computational complexity', 'graph algorithms', 'approximation algorithms', 'quantum computing', 'algorithmic game theory'],
  ai: ['machine learning', 'natural language processing', 'computer vision', 'reinforcement learning', 'robotics', 'fairness in machine learning'],
  hci: ['human-computer interaction', 'accessibility', 'visualization', 'computer-supported cooperative work', 'computing education', 'mixed reality'],
  security: ['applied cryptography', 'network security', 'privacy', 'software security', 'usable security'],
  data: ['database systems', 'data management', 'information retrieval', 'data integration', 'stream processing'],
  pl: ['programming languages', 'type systems', 'program verification', 'compilers', 'software engineering', 'program synthesis'],
  math: ['numerical analysis', 'optimization', 'combinatorics', 'graph theory'],
  stats: ['Bayesian statistics', 'statistical learning', 'causal inference', 'time series', 'high-dimensional statistics'],
}

// 40 faculty per unit: how many in each area, and the ranks they hold.
const areaCounts: readonly (readonly [FacultyArea, number])[] = [
  ['systems', 6], ['theory', 5], ['ai', 8], ['hci', 4], ['security', 3], ['data', 4], ['pl', 4], ['math', 3], ['stats', 3],
]
const ranks: readonly (readonly [title: string, appointment: string, count: number])[] = [
  ['Professor', 'tenure_track', 10], ['Associate Professor', 'tenure_track', 10], ['Assistant Professor', 'tenure_track', 10],
  ['Lecturer', 'adjunct', 4], ['Research Scientist', 'research', 3], ['Adjunct Professor', 'adjunct', 3],
]

const staffRoles: readonly (readonly [title: string, unit: string])[] = [
  ['Department Administrator', 'Main Office'], ['Graduate Program Coordinator', 'Graduate Office'],
  ['Undergraduate Program Coordinator', 'Undergraduate Office'], ['Academic Advisor', 'Undergraduate Office'],
  ['Systems Administrator', 'IT Services'], ['Research Computing Specialist', 'IT Services'],
  ['Grants and Contracts Manager', 'Research Administration'], ['Financial Analyst', 'Finance'],
  ['Communications Manager', 'Main Office'], ['Lab Manager', 'Research Administration'],
]

const universities = [
  'Massachusetts Institute of Technology', 'Stanford University', 'University of California, Berkeley', 'Carnegie Mellon University',
  'ETH Zürich', 'University of Toronto', 'Universidad de Buenos Aires', 'University of Lagos', 'Tsinghua University',
  'Indian Institute of Technology Bombay', 'Technische Universität München', 'Université de Montréal', 'University of Cambridge',
  'Seoul National University', 'University of Tokyo', 'Universidade de São Paulo', 'University of Washington', 'Cornell University',
  'École Polytechnique Fédérale de Lausanne', 'Københavns Universitet',
] as const

const buildings = ['Hopper Hall', 'Lovelace Building', 'Turing Center'] as const

/** The fields every person record has: name, NetID, department email, and nothing that would clash. */
function identity(unit: Unit, netIds: NetIds): { name: PersonName; netId: string; fields: Record<string, unknown> } {
  const name = randomName(unit.random)
  const netId = netIds.next(name)
  return { name, netId, fields: { first_name: name.first, last_name: name.last, email: `${netId}@${emailDomain}`, campus_id: netId } }
}

function office(unit: Unit): string {
  return `${unit.random.pick(buildings)} ${unit.random.int(1, 4)}${String(unit.random.int(1, 40)).padStart(2, '0')}`
}

function phone(unit: Unit): string {
  return `+1 555 ${unit.random.int(200, 999)} ${String(unit.random.int(0, 9999)).padStart(4, '0')}`
}

/** An ORCID iD with a valid ISO 7064 MOD 11-2 check character. */
function orcid(unit: Unit): string {
  const digits = `000000${unit.random.int(1, 3)}${String(unit.random.int(0, 99_999_999)).padStart(8, '0')}`
  let total = 0
  for (const d of digits) total = (total + Number(d)) * 2
  const check = (12 - (total % 11)) % 11
  const all = `${digits}${check === 10 ? 'X' : check}`
  return all.match(/.{4}/g)!.join('-')
}

export function makeFaculty(unit: Unit, netIds: NetIds): FacultyMember[] {
  const { random } = unit
  const areas = random.shuffle(areaCounts.flatMap(([area, n]) => Array<FacultyArea>(n).fill(area)))
  const titles = ranks.flatMap(([title, appointment, n]) => Array.from({ length: n }, () => [title, appointment] as const))
  return titles.map(([title, appointment], i) => {
    const area = areas[i]!
    const { name, netId, fields } = identity(unit, netIds)
    const interests = random.sample(areaInterests[area], random.int(2, 4))
    const phdYear = title === 'Professor' ? random.int(1988, 2004) : title === 'Associate Professor' ? random.int(2003, 2013) : random.int(2011, 2022)
    const joined = Math.min(2025, phdYear + random.int(1, 6))
    const field = area === 'math' ? 'Mathematics' : area === 'stats' ? 'Statistics' : 'Computer Science'
    const body: Record<string, unknown> = {
      ...fields,
      title: unit.random.chance(0.15) && appointment === 'tenure_track' ? `${title} of Computer Science` : title,
      rank: title,
      appointment_type: appointment,
      area: areaNames[area],
      research_interests: interests,
      office: office(unit),
      phone: phone(unit),
      website: `https://${emailDomain}/~${netId}`,
      education: [
        `PhD, ${field}, ${random.pick(universities)}, ${phdYear}`,
        `BS, ${random.pick([field, 'Mathematics', 'Electrical Engineering', 'Physics'])}, ${random.pick(universities)}, ${phdYear - random.int(5, 7)}`,
      ],
      bio: `${name.first} ${name.last} works on ${interests.slice(0, -1).join(', ')} and ${interests.at(-1)}, and joined the department in ${joined}.`,
    }
    if (random.chance(0.8)) body.researcher_registry_id = orcid(unit)
    if (random.chance(0.6)) body.bibliography_source_id = `A${random.int(5_000_000_000, 5_099_999_999)}`
    return {
      record: keyed('Faculty', netId, body), name, area,
      researchActive: appointment !== 'adjunct', senior: title === 'Professor', teaching: title !== 'Research Scientist',
    }
  })
}

export function makeStaff(unit: Unit, netIds: NetIds): SampleRecord[] {
  return staffRoles.map(([title, unitName]) => {
    const { netId, fields } = identity(unit, netIds)
    return keyed('Staff', netId, { ...fields, title, unit: unitName, office: office(unit), phone: phone(unit) })
  })
}

export interface StudentLinks {
  readonly faculty: readonly FacultyMember[]
  readonly bs: string
  readonly ba: string
  readonly minor: string
  readonly program: string
}

/** 300 undergraduates, 75 in each class year; the first declared major is the one audited. */
export function makeUndergraduates(unit: Unit, netIds: NetIds, links: StudentLinks): SampleRecord[] {
  const advisors = links.faculty.filter((f) => f.teaching && f.area !== 'math' && f.area !== 'stats')
  return Array.from({ length: 300 }, (_, i) => {
    const { fields, netId } = identity(unit, netIds)
    const body: Record<string, unknown> = {
      ...fields,
      class_year: 2026 + (i % 4),
      declared_majors: [unit.random.chance(0.65) ? links.bs : links.ba],
      declared_minors: unit.random.chance(0.15) ? [links.minor] : [],
      advisors: [unit.random.pick(advisors).record.id],
    }
    return keyed('UndergraduateStudent', netId, body)
  })
}

// 60 doctoral students per unit, by year in the program.
const graduateYears = [...Array<number>(12).fill(1), ...Array<number>(12).fill(2), ...Array<number>(10).fill(3),
  ...Array<number>(10).fill(4), ...Array<number>(10).fill(5), ...Array<number>(6).fill(6)]

export function makeGraduates(unit: Unit, netIds: NetIds, links: StudentLinks): SampleRecord[] {
  const { random } = unit
  const mentors = links.faculty.filter((f) => f.researchActive)
  return graduateYears.map((year) => {
    const { fields, netId } = identity(unit, netIds)
    const advisors = random.sample(mentors, random.chance(0.2) ? 2 : 1)
    const others = random.sample(mentors.filter((m) => !advisors.includes(m)), random.int(2, 3))
    const body: Record<string, unknown> = {
      ...fields,
      program: links.program,
      year_in_program: year,
      advisors: advisors.map((a) => a.record.id),
      committee: [...advisors, ...others].map((m) => m.record.id),
      education: [`BS, ${random.pick(['Computer Science', 'Mathematics', 'Electrical Engineering', 'Statistics'])}, ${random.pick(universities)}, ${2025 - year - random.int(0, 3)}`],
    }
    return keyed('GraduateStudent', netId, body)
  })
}
