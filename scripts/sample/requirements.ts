import { keyed, lexical, type SampleRecord, type Unit } from './records.js'

interface Pattern { readonly subject: string; readonly min_level: number; readonly max_level: number }

interface RuleTemplate {
  readonly name: string
  readonly rule_type: 'all_of' | 'n_of' | 'credits'
  readonly courses?: readonly string[]
  readonly pattern?: Pattern
  readonly count?: number
  readonly min_credits?: number
  readonly min_grade?: string
  readonly allow_shared?: boolean
  readonly description: string
}

interface GroupTemplate {
  readonly name: string
  readonly description: string
  readonly rules: readonly RuleTemplate[]
}

interface DegreeTemplate {
  readonly slot: 'bs' | 'ba' | 'minor' | 'phd'
  readonly degree_type: 'BS' | 'BA' | 'Minor' | 'PhD'
  readonly name: string
  readonly description: string
  readonly total_credits: number
  readonly groups: readonly GroupTemplate[]
}

const allOf = (name: string, courses: string[], description: string, extra: Partial<RuleTemplate> = {}): RuleTemplate =>
  ({ name, rule_type: 'all_of', courses, description, ...extra })
const nOf = (name: string, count: number, courses: string[], description: string, extra: Partial<RuleTemplate> = {}): RuleTemplate =>
  ({ name, rule_type: 'n_of', count, courses, description, ...extra })
const credits = (name: string, min_credits: number, description: string, extra: Partial<RuleTemplate>): RuleTemplate =>
  ({ name, rule_type: 'credits', min_credits, description, ...extra })

/** The four degrees of one unit. Every rule can be met from the unit's own courses. */
const degreeTemplates: readonly DegreeTemplate[] = [
  {
    slot: 'bs', degree_type: 'BS', name: 'Computer Science', total_credits: 120,
    description: 'A rigorous program in the science of computing, with depth in systems, theory and applications.',
    groups: [
      { name: 'Introductory Core', description: 'Programming, data structures and the mathematics of computing.', rules: [
        allOf('Introductory courses', ['CS 101', 'CS 102', 'CS 201', 'CS 215', 'CS 220'], 'Complete every introductory course with C- or better.', { min_grade: 'C-' }),
      ] },
      { name: 'Advanced Core', description: 'The systems and algorithms every graduate knows, and breadth beyond them.', rules: [
        allOf('Systems and algorithms', ['CS 240', 'CS 301', 'CS 310'], 'Complete each with C- or better.', { min_grade: 'C-' }),
        nOf('Breadth', 2, ['CS 320', 'CS 330', 'CS 340', 'CS 350', 'CS 380'], 'Two courses from different parts of the field.'),
      ] },
      { name: 'Mathematics and Statistics', description: 'Calculus, linear algebra and probability.', rules: [
        allOf('Calculus and linear algebra', ['MATH 131', 'MATH 132', 'MATH 221'], 'Complete each with C- or better.', { min_grade: 'C-' }),
        nOf('Probability', 1, ['STAT 211', 'MATH 361'], 'One course in probability.'),
      ] },
      { name: 'Upper-Level Electives', description: 'Depth in the areas the student chooses.', rules: [
        credits('Computer science electives', 12, 'Twelve credits of CS courses numbered 300 to 499.', { pattern: { subject: 'CS', min_level: 300, max_level: 499 } }),
      ] },
      { name: 'Capstone', description: 'A substantial project or thesis in the final year.', rules: [
        nOf('Capstone experience', 1, ['CS 490', 'CS 495'], 'A capstone project or a senior thesis; it also counts as an elective.', { min_grade: 'C', allow_shared: true }),
      ] },
    ],
  },
  {
    slot: 'ba', degree_type: 'BA', name: 'Computer Science', total_credits: 120,
    description: 'A flexible liberal-arts program in computing that pairs well with a second field.',
    groups: [
      { name: 'Core', description: 'The foundations of programming and discrete mathematics.', rules: [
        allOf('Core courses', ['CS 101', 'CS 102', 'CS 215', 'CS 220'], 'Complete each with C- or better.', { min_grade: 'C-' }),
      ] },
      { name: 'Quantitative Reasoning', description: 'Mathematics that supports computing.', rules: [
        nOf('Mathematics', 2, ['MATH 131', 'MATH 132', 'MATH 221', 'STAT 211'], 'Two courses in mathematics or statistics.'),
      ] },
      { name: 'Upper-Level Study', description: 'Advanced courses in computing and its mathematics.', rules: [
        credits('Upper-level credits', 9, 'Nine credits of CS courses numbered 300 to 499, or the listed mathematics courses.',
          { courses: ['MATH 321', 'MATH 331', 'STAT 321'], pattern: { subject: 'CS', min_level: 300, max_level: 499 } }),
        nOf('Computing and society', 1, ['CS 110', 'CS 250', 'CS 375', 'CS 470'], 'One course on people and computing; it may also count elsewhere.', { allow_shared: true }),
      ] },
      { name: 'Senior Project', description: 'A team project in the final year.', rules: [
        allOf('Capstone project', ['CS 490'], 'Complete the capstone with C or better.', { min_grade: 'C' }),
      ] },
    ],
  },
  {
    slot: 'minor', degree_type: 'Minor', name: 'Data Science', total_credits: 18,
    description: 'Programming, statistics and machine learning for students of any major.',
    groups: [
      { name: 'Foundations', description: 'Programming and probability.', rules: [
        allOf('Foundation courses', ['CS 101', 'STAT 211'], 'Complete both with C or better.', { min_grade: 'C' }),
      ] },
      { name: 'Methods', description: 'Data management, learning and inference.', rules: [
        nOf('Methods courses', 2, ['CS 120', 'CS 330', 'CS 365', 'STAT 221', 'STAT 321', 'CS 470'], 'Two methods courses.'),
      ] },
      { name: 'Applications', description: 'Putting the methods to work.', rules: [
        credits('Application credits', 3, 'Three credits from the listed courses or STAT courses numbered 300 to 499; they may also count toward a major.',
          { courses: ['CS 415', 'CS 420', 'CS 425'], pattern: { subject: 'STAT', min_level: 300, max_level: 499 }, allow_shared: true }),
      ] },
    ],
  },
  {
    slot: 'phd', degree_type: 'PhD', name: 'Computer Science', total_credits: 72,
    description: 'Doctoral training in computer science research, ending in a dissertation.',
    groups: [
      { name: 'Breadth', description: 'Graduate coursework across the field, each with B- or better.', rules: [
        nOf('Systems breadth', 1, ['CS 501', 'CS 530', 'CS 540', 'CS 580'], 'One graduate systems course.', { min_grade: 'B-' }),
        nOf('Theory breadth', 1, ['CS 510', 'CS 520', 'CS 550', 'CS 585'], 'One graduate theory course.', { min_grade: 'B-' }),
        nOf('Intelligent and interactive systems breadth', 1, ['CS 560', 'CS 565', 'CS 570', 'CS 575'], 'One graduate AI or HCI course.', { min_grade: 'B-' }),
      ] },
      { name: 'Research Preparation', description: 'Research methods and the seminar.', rules: [
        allOf('Research preparation', ['CS 590', 'CS 600'], 'Research methods and a term of the graduate seminar.'),
      ] },
      { name: 'Advanced Coursework', description: 'Further graduate courses.', rules: [
        credits('Graduate electives', 12, 'Twelve credits of CS courses numbered 500 to 699, with B- or better.',
          { pattern: { subject: 'CS', min_level: 500, max_level: 699 }, min_grade: 'B-' }),
        nOf('Mathematical foundations', 1, ['MATH 510', 'STAT 511', 'STAT 520', 'CS 565'], 'One mathematically advanced course; it may also count as breadth.',
          { min_grade: 'B-', allow_shared: true }),
      ] },
      { name: 'Research', description: 'Supervised research toward the dissertation.', rules: [
        credits('Research credits', 6, 'Six credits of doctoral and dissertation research.', { courses: ['CS 790', 'CS 799'] }),
      ] },
    ],
  },
]

export interface UnitDegrees {
  readonly degrees: SampleRecord[]
  readonly bySlot: Record<DegreeTemplate['slot'], string>
  readonly rules: SampleRecord[]
  readonly groups: SampleRecord[]
}

export function makeDegrees(unit: Unit): UnitDegrees {
  const degrees: SampleRecord[] = []
  const rules: SampleRecord[] = []
  const groups: SampleRecord[] = []
  const bySlot = {} as Record<DegreeTemplate['slot'], string>
  for (const template of degreeTemplates) {
    const degree = lexical('Degree', [template.degree_type, unit.name(template.name)], {
      name: unit.name(template.name), degree_type: template.degree_type, description: template.description, total_credits: template.total_credits,
    })
    degrees.push(degree)
    bySlot[template.slot] = degree.id
    const degreeKey = degree.id.slice(degree.id.indexOf('/') + 1)
    template.groups.forEach((group, g) => {
      const groupKey = `${degreeKey}.g${g + 1}`
      const ruleIds = group.rules.map((rule, r) => {
        const { courses, pattern, description, ...fields } = rule
        const record = keyed('RequirementRule', `${groupKey}.r${r + 1}`, {
          ...fields,
          description,
          courses: (courses ?? []).map((code) => unit.courseId(code)),
          ...(pattern ? { course_pattern: { ...pattern, subject: unit.subject(pattern.subject) } } : {}),
        })
        rules.push(record)
        return record.id
      })
      groups.push(keyed('RequirementGroup', groupKey, {
        name: group.name, degree: degree.id, order: g + 1, description: group.description, rules: ruleIds,
      }))
    })
  }
  return { degrees, bySlot, rules, groups }
}
