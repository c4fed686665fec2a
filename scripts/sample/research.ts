import { slug } from '../../src/schema/keys.js'
import { emailDomain, type FacultyArea, type FacultyMember } from './people.js'
import { keyed, lexical, type SampleRecord, type Unit } from './records.js'

const centerTemplates: readonly { name: string; areas: readonly FacultyArea[]; established: number; description: string }[] = [
  { name: 'Center for Intelligent Systems', areas: ['ai', 'stats'], established: 2009,
    description: 'Brings together research on learning, language, perception and robots that act in the world.' },
  { name: 'Center for Secure and Reliable Computing', areas: ['systems', 'security', 'pl'], established: 2014,
    description: 'Builds computer systems and software that keep working, and keep secrets, when things go wrong.' },
  { name: 'Center for Data and Society', areas: ['data', 'hci', 'math'], established: 2018,
    description: 'Studies how data is managed, understood and used, and what that means for the people it describes.' },
]

const labTemplates: readonly { name: string; area: FacultyArea; center?: number; description: string; room: string }[] = [
  { name: 'Systems Research Lab', area: 'systems', center: 1, description: 'Operating systems, storage and cloud infrastructure that scale.', room: 'Turing Center 210' },
  { name: 'Theory Group', area: 'theory', description: 'Algorithms, complexity and the mathematical limits of computation.', room: 'Hopper Hall 305' },
  { name: 'Machine Learning Lab', area: 'ai', center: 0, description: 'Learning algorithms that are reliable, efficient and fair.', room: 'Lovelace Building 401' },
  { name: 'Language Technologies Group', area: 'ai', center: 0, description: 'Models of human language, from parsing to dialogue and translation.', room: 'Lovelace Building 415' },
  { name: 'Interactive Systems Lab', area: 'hci', center: 2, description: 'Interfaces that people with all abilities can use, studied with the people themselves.', room: 'Hopper Hall 120' },
  { name: 'Security and Privacy Lab', area: 'security', center: 1, description: 'Attacks, defenses and cryptographic tools for systems people depend on.', room: 'Turing Center 230' },
  { name: 'Data Systems Lab', area: 'data', center: 2, description: 'Databases, query processing and data integration at every scale.', room: 'Turing Center 250' },
  { name: 'Programming Languages Lab', area: 'pl', center: 1, description: 'Languages, types and tools that help programmers write correct code.', room: 'Hopper Hall 330' },
  { name: 'Robotics and Autonomy Lab', area: 'ai', center: 0, description: 'Robots that perceive, plan and work safely alongside people.', room: 'Noether Annex 010' },
  { name: 'Computational Statistics Lab', area: 'stats', center: 0, description: 'Statistical methods and software for large and complex data.', room: 'Lovelace Building 330' },
]

const resourceTemplates: readonly { name: string; type: string; lab?: number; location: string; description: string; access: string }[] = [
  { name: 'GPU Cluster', type: 'computing', lab: 2, location: 'Data Center, Row 4', description: '64 data-center GPUs for training and evaluating models.', access: 'Members of the department; request an account from the lab.' },
  { name: 'High-Performance Computing Cluster', type: 'computing', location: 'Data Center, Row 2', description: 'Batch cluster with 2,000 cores and a parallel file system.', access: 'All department researchers; jobs run through the scheduler.' },
  { name: 'Storage Testbed', type: 'equipment', lab: 0, location: 'Turing Center 212', description: 'Servers with persistent memory, NVMe and disaggregated storage.', access: 'Book through the lab calendar.' },
  { name: 'Network Testbed', type: 'equipment', lab: 0, location: 'Turing Center 214', description: 'Programmable switches and 100 Gb/s links for network experiments.', access: 'Book through the lab calendar.' },
  { name: 'Eye Tracker', type: 'equipment', lab: 4, location: 'Hopper Hall 122', description: 'Screen-based eye tracker for usability and perception studies.', access: 'Training required; studies need ethics approval.' },
  { name: 'Usability Studio', type: 'facility', lab: 4, location: 'Hopper Hall 124', description: 'Observation room with one-way glass and recording.', access: 'Reserve at least a week ahead.' },
  { name: 'Motion Capture Studio', type: 'facility', lab: 8, location: 'Noether Annex 012', description: 'Twelve-camera optical motion capture over a 6 m by 6 m floor.', access: 'Training required.' },
  { name: 'Robot Arms', type: 'equipment', lab: 8, location: 'Noether Annex 014', description: 'Two 7-DOF arms with grippers and force sensing.', access: 'Lab members, and others by arrangement with the lab.' },
  { name: 'Drone Flight Cage', type: 'facility', lab: 8, location: 'Noether Annex 020', description: 'Netted indoor space for flying small drones safely.', access: 'Certified pilots only.' },
  { name: 'Annotated Speech Corpus', type: 'dataset', lab: 3, location: 'Research storage', description: '2,000 hours of transcribed conversational speech in twelve languages.', access: 'Department researchers under the data use agreement.' },
  { name: 'Multilingual News Dataset', type: 'dataset', lab: 3, location: 'Research storage', description: 'Parallel news articles for translation research.', access: 'Department researchers under the data use agreement.' },
  { name: 'Campus Mobility Dataset', type: 'dataset', lab: 6, location: 'Research storage', description: 'De-identified, aggregated movement data for urban computing research.', access: 'Approved projects only.' },
  { name: 'Statistical Software License Server', type: 'software', lab: 9, location: 'Online', description: 'Licenses for commercial statistics and mathematics packages.', access: 'Everyone in the department.' },
  { name: 'Proof Assistant Workstations', type: 'computing', lab: 7, location: 'Hopper Hall 332', description: 'Workstations set up for interactive theorem proving.', access: 'Drop in during building hours.' },
  { name: 'Hardware Security Kit', type: 'equipment', lab: 5, location: 'Turing Center 232', description: 'Oscilloscopes and boards for side-channel and fault-injection work.', access: 'Lab members; others by request.' },
  { name: 'Secure Enclave Servers', type: 'computing', lab: 5, location: 'Data Center, Row 5', description: 'Servers with trusted execution for confidential computing research.', access: 'Request access from the lab.' },
  { name: 'Visualization Wall', type: 'facility', lab: 6, location: 'Turing Center 100', description: 'A 24-panel display wall for exploring large data sets together.', access: 'Reserve through the front office.' },
  { name: 'Maker Space', type: 'facility', location: 'Lovelace Building 010', description: '3D printers, laser cutter and electronics benches.', access: 'Open to everyone after safety training.' },
  { name: 'Cloud Research Credits', type: 'other', location: 'Online', description: 'Credits with public cloud providers for research projects.', access: 'Apply to the research computing specialist.' },
  { name: 'Reading Room', type: 'facility', location: 'Hopper Hall 200', description: 'Quiet study space with the department library.', access: 'Everyone in the department.' },
]

export interface UnitResearch {
  readonly centers: SampleRecord[]
  readonly labs: SampleRecord[]
  readonly resources: SampleRecord[]
}

export function makeResearch(unit: Unit, faculty: readonly FacultyMember[], staff: readonly SampleRecord[], graduates: readonly SampleRecord[], undergraduates: readonly SampleRecord[]): UnitResearch {
  const { random } = unit
  const researchers = faculty.filter((f) => f.researchActive)
  const centers = centerTemplates.map((t) => {
    const affiliated = researchers.filter((f) => t.areas.includes(f.area))
    const director = affiliated.find((f) => f.senior) ?? affiliated[0]!
    return lexical('ResearchCenter', [unit.name(t.name)], {
      name: unit.name(t.name), description: t.description, director: director.record.id,
      faculty: affiliated.map((f) => f.record.id), established_year: t.established,
      website: `https://${emailDomain}/centers/${slug(unit.name(t.name)).toLowerCase()}`,
    })
  })
  const pis: FacultyMember[] = []
  const labs = labTemplates.map((t) => {
    const free = researchers.filter((f) => !pis.includes(f))
    const pi = free.find((f) => f.area === t.area && f.senior) ?? free.find((f) => f.area === t.area) ?? free[0]!
    pis.push(pi)
    const colleagues = random.sample(researchers.filter((f) => f.area === t.area && f !== pi), random.int(0, 2))
    const advisees = graduates.filter((g) => (g.body.advisors as string[]).includes(pi.record.id))
    const undergrads = random.sample(undergraduates, random.int(0, 3))
    const members = [pi, ...colleagues].map((f) => f.record.id).concat([...advisees, ...undergrads].map((s) => s.id))
    return lexical('Lab', [unit.name(t.name)], {
      name: unit.name(t.name), description: t.description, pi: pi.record.id, members,
      website: `https://${emailDomain}/labs/${slug(unit.name(t.name)).toLowerCase()}`,
      ...(t.center !== undefined ? { research_center: centers[t.center]!.id } : {}),
      location: t.room,
    })
  })
  const computing = staff.filter((s) => s.body.unit === 'IT Services')
  const resources = resourceTemplates.map((t, i) => {
    const lab = t.lab === undefined ? undefined : labs[t.lab]!
    const contact = lab ? lab.body.pi as string : random.pick(computing.length ? computing : staff).id
    return keyed('Resource', `res-${unit.index}-${String(i + 1).padStart(2, '0')}`, {
      name: unit.name(t.name), resource_type: t.type, description: t.description,
      ...(lab ? { lab: lab.id } : {}), contact, location: t.location,
      url: `https://${emailDomain}/resources/${slug(unit.name(t.name)).toLowerCase()}`, access_policy: t.access,
    })
  })
  return { centers, labs, resources }
}
