/**
 * The sample department's approval workflows in mid-term (docs/workflows.md): who takes part (the department
 * admins, the fellowship and awards committees) and, for each domain, the requests and where each one
 * stands. Pure and seeded: the same department gives the same cases; workflow-seed.ts plays them
 * through the workflow service.
 */
import type { WorkflowDomainKey } from '../../src/workflows/registry.js'
import type { SampleCatalog } from './catalog.js'
import { Random } from './random.js'
import { keyed, type SampleRecord } from './records.js'
import { currentTerm } from './terms.js'

/** Where a case ends up. `open` stops in review with `approvedStages` stages behind it. */
export type CaseEnd = 'draft' | 'open' | 'delegated' | 'approved' | 'rejected' | 'revision_requested' | 'withdrawn' | 'resubmitted'

export interface WorkflowCase {
  readonly domain: WorkflowDomainKey
  /**
   * The draft entity, written with its stable id; for major plans, the StudentPlan whose submission
   * creates the entity (that domain has no drafts).
   */
  readonly record: SampleRecord
  /** Person id of whoever creates and submits it. */
  readonly submitter: string
  readonly end: CaseEnd
  /** Stages approved (in the last round) before the case's last action. */
  readonly approvedStages: number
  /** Days before the seed's `now` that it was submitted. */
  readonly ageDays: number
}

export interface WorkflowCast {
  /** Staff who hold the admin role: the department admins every workflow ends with. */
  readonly admins: readonly SampleRecord[]
  readonly fellowshipCommittee: readonly SampleRecord[]
  readonly awardsCommittee: readonly SampleRecord[]
}

export interface SampleWorkflows {
  readonly cast: WorkflowCast
  readonly cases: readonly WorkflowCase[]
  /** StudentPlans of the major-plan cases; the draft case's plan is left for a reader to submit (docs/workflows.md). */
  readonly plans: readonly SampleRecord[]
}

/** The department itself: unit 0's people come first in every list of the catalog. */
const unit0 = { faculty: 40, staff: 10, undergraduates: 300, graduates: 60 }

const thesisTitles = [
  'Verified garbage collection for a teaching language', 'Learning cache replacement policies from traces',
  'Accessible data visualisation for screen-reader users', 'Fair ranking under uncertain relevance',
  'Side channels in shared GPU memory', 'Incremental view maintenance for streaming joins',
  'Type inference for gradual notebooks', 'Energy-aware scheduling of serverless functions',
  'Approximate counting in sliding windows', 'Robust speech recognition for regional accents',
  'Program synthesis from spreadsheet examples', 'Privacy budgets in federated analytics',
]
const researchTopics = [
  'Benchmarking vector databases', 'A compiler pass for loop tiling', 'Eye tracking in code review',
  'Fuzzing smart-card firmware', 'Crowd-sourced labels for medical images', 'Graph partitioning on GPUs',
  'Formalising a consensus protocol', 'Mobile apps for field ecology', 'Auditing a hiring classifier',
  'Caching in content delivery networks', 'Teaching recursion with puzzles', 'Static analysis of build scripts',
]
const fellowships = [
  'Dean\'s Graduate Fellowship', 'Summer Research Fellowship', 'Teaching Innovation Fellowship',
  'Conference Travel Fellowship', 'Dissertation Completion Fellowship',
]
const awards = [
  'Outstanding Teaching Assistant Award', 'Best Undergraduate Thesis Award', 'Departmental Service Award',
  'Outstanding Graduate Research Award', 'Community Outreach Award',
]
type MilestoneType = 'mentoring_form' | 'annual_review' | 'masters_thesis' | 'dissertation_proposal' | 'dissertation_defense'
/** The milestone a doctoral student meets in each year of the program. */
const milestoneByYear: readonly MilestoneType[] = ['mentoring_form', 'masters_thesis', 'dissertation_proposal', 'annual_review', 'dissertation_defense']
const milestoneTitles: Record<MilestoneType, string> = {
  mentoring_form: 'Mentoring plan', annual_review: 'Annual progress review', masters_thesis: 'Master\'s thesis',
  dissertation_proposal: 'Dissertation proposal', dissertation_defense: 'Dissertation defense',
}

/**
 * The ends every domain shows, with the stages behind each: every stage open, one delegated, approved
 * twice, rejected at the last stage, a revision requested, withdrawn after the first stage, a second
 * round under way, and a draft.
 */
function endsFor(stages: number): { end: CaseEnd; approvedStages: number }[] {
  return [
    { end: 'draft', approvedStages: 0 },
    ...Array.from({ length: stages }, (_, i) => ({ end: 'open' as const, approvedStages: i })),
    { end: 'open', approvedStages: 0 },
    { end: 'delegated', approvedStages: 0 },
    { end: 'approved', approvedStages: stages },
    { end: 'approved', approvedStages: stages },
    { end: 'rejected', approvedStages: stages - 1 },
    { end: 'revision_requested', approvedStages: 0 },
    { end: 'withdrawn', approvedStages: Math.min(1, stages - 1) },
    { end: 'resubmitted', approvedStages: 0 },
  ]
}

/** Draws people without repeats, so no student has two requests of one domain. */
class Pool {
  private readonly left: SampleRecord[]
  constructor(random: Random, people: readonly SampleRecord[]) {
    this.left = random.shuffle(people)
  }

  next(): SampleRecord {
    const person = this.left.pop()
    if (!person) throw new RangeError('the sample department has too few people for its workflow cases')
    return person
  }
}

const pad = (n: number) => String(n + 1).padStart(2, '0')

/**
 * The cases, given how many stages each domain's workflow has (read from the seeded definitions, so
 * the cases follow them). Student requests are about unit 0's people; the names of things are drawn
 * from short lists.
 */
export function sampleWorkflows(catalog: SampleCatalog, stageCounts: Readonly<Record<WorkflowDomainKey, number>>): SampleWorkflows {
  const random = new Random('workflows:0')
  const faculty = catalog.faculty.slice(0, unit0.faculty)
  const staff = catalog.staff.slice(0, unit0.staff)
  const undergraduates = catalog.undergraduates.slice(0, unit0.undergraduates)
  const graduates = catalog.graduates.slice(0, unit0.graduates)
  const professors = random.shuffle(faculty.filter((f) => /Professor$/.test(f.body.rank as string) && f.body.rank !== 'Adjunct Professor'))
  const cast: WorkflowCast = { admins: staff.slice(0, 2), fellowshipCommittee: professors.slice(0, 4), awardsCommittee: professors.slice(4, 8) }
  const researchers = faculty.filter((f) => f.body.appointment_type !== 'adjunct')
  const cases: WorkflowCase[] = []
  const plans: SampleRecord[] = []
  const add = (domain: WorkflowDomainKey, make: (i: number) => { record: SampleRecord; submitter: string }) => {
    endsFor(stageCounts[domain]).forEach(({ end, approvedStages }, i) => {
      cases.push({ domain, end, approvedStages, ageDays: random.int(2, 40), ...make(i) })
    })
  }
  const advisorOf = (student: SampleRecord) => (student.body.advisors as string[])[0]!

  const seniors = new Pool(random, undergraduates.filter((s) => s.body.class_year === 2026))
  add('honors_thesis', (i) => {
    const student = seniors.next()
    const advisor = advisorOf(student)
    const reader = random.pick(researchers.filter((f) => f.id !== advisor))
    return {
      submitter: student.id,
      record: keyed('ThesisRequest', `sample-thesis-${pad(i)}`, {
        student: student.id, advisor, second_reader: reader.id, title: thesisTitles[i % thesisTitles.length]!, term: currentTerm,
        abstract: 'A senior honors thesis: the question, the method, and the evaluation planned for the spring term.', status: 'draft',
      }),
    }
  })

  const juniors = new Pool(random, undergraduates.filter((s) => s.body.class_year === 2027))
  add('independent_research', (i) => {
    const student = juniors.next()
    return {
      submitter: student.id,
      record: keyed('IndependentResearchRequest', `sample-research-${pad(i)}`, {
        student: student.id, supervisor: random.pick(researchers).id, term: currentTerm, credits: random.pick([1, 2, 3]),
        title: researchTopics[i % researchTopics.length]!, description: 'Weekly meetings with the supervisor and a written report at the end of term.',
        status: 'draft',
      }),
    }
  })

  const applicants = new Pool(random, graduates.filter((g) => (g.body.year_in_program as number) <= 4))
  add('fellowships', (i) => {
    const applicant = applicants.next()
    return {
      submitter: applicant.id,
      record: keyed('FellowshipApplication', `sample-fellowship-${pad(i)}`, {
        applicant: applicant.id, fellowship: fellowships[i % fellowships.length]!, amount_requested: random.int(10, 60) * 500,
        statement: 'My research, what the fellowship would let me do next year, and my advisor\'s support.', status: 'draft',
      }),
    }
  })

  const nominees = new Pool(random, [...graduates, ...undergraduates.filter((s) => s.body.class_year === 2026)])
  const nominators = faculty.filter((f) => !cast.awardsCommittee.includes(f))
  add('award_nominations', (i) => {
    const nominator = random.pick(nominators)
    return {
      submitter: nominator.id,
      record: keyed('AwardNomination', `sample-nomination-${pad(i)}`, {
        nominee: nominees.next().id, nominator: nominator.id, award: awards[i % awards.length]!,
        statement: 'What the nominee did this year, and why it stands out.', status: 'draft',
      }),
    }
  })

  const planners = new Pool(random, undergraduates.filter((s) => s.body.class_year === 2028))
  const courses = catalog.courses.slice(0, 40)
  const planOf = (i: number) => {
    const student = planners.next()
    const chosen = random.sample(courses, 4)
    return keyed('StudentPlan', `sample-plan-${pad(i)}`, {
      student: student.id, plan_name: 'Major plan', target_degree: (student.body.declared_majors as string[])[0]!,
      planned_courses: chosen.map((course, n) => ({ course: course.id, term: n < 2 ? '26F' : '27S', status: 'planned' })),
    })
  }
  add('major_plans', (i) => {
    const plan = planOf(i)
    plans.push(plan)
    return { submitter: plan.body.student as string, record: plan }
  })

  const candidates = new Pool(random, graduates)
  add('graduate_milestones', (i) => {
    const student = candidates.next()
    const year = student.body.year_in_program as number
    const type = milestoneByYear[Math.min(year, milestoneByYear.length) - 1]!
    return {
      submitter: student.id,
      record: keyed('GraduateMilestone', `sample-milestone-${pad(i)}`, {
        student: student.id, milestone_type: type, milestone_status: 'not_started', title: milestoneTitles[type],
        due_date: `2026-0${random.int(4, 6)}-${String(random.int(1, 28)).padStart(2, '0')}`, documents: [], status: 'draft',
      }),
    }
  })
  // A major plan has no draft (submitting creates it) and no resubmission (a revised plan is submitted anew).
  return { cast, cases: cases.filter((c) => !(c.domain === 'major_plans' && (c.end === 'draft' || c.end === 'resubmitted'))), plans }
}
