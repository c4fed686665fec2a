import type { components } from '../api/schema'
import type { DomainKey } from '../lib/domains'

type Schemas = components['schemas']

/** A field of a request's form: the entity's field, its label, and how it is entered. */
export interface Field {
  readonly name: string
  readonly label: string
  readonly kind: 'text' | 'textarea' | 'number' | 'date' | 'faculty' | 'student' | 'advisee' | 'milestone'
  readonly optional?: boolean
}

/** How the requests page treats one workflow domain (docs/workflows.md, "The domains"). */
export interface RequestKind {
  readonly domain: DomainKey
  /** The list filter, and the entity field, naming whose request it is. */
  readonly owner: 'student' | 'applicant' | 'nominator'
  /** The field that names the request in lists. */
  readonly titleField: string
  readonly fields: readonly Field[]
  /** Created in review at once (major plans, from the plans page), so never a draft and never edited here. */
  readonly submitsOnCreate?: boolean
  /**
   * Offered in the "New request" form to these roles only (the server decides in any case). A
   * student-owned kind goes to students, whose request it is, and to advisors and admins, who pick the
   * student (forCreator).
   */
  readonly offeredTo?: readonly string[]
}

export const milestoneTypes: readonly Schemas['MilestoneType'][] = ['mentoring_form', 'annual_review', 'masters_thesis', 'dissertation_proposal', 'dissertation_defense']

export const requestKinds: readonly RequestKind[] = [
  {
    domain: 'thesis', owner: 'student', titleField: 'title', offeredTo: ['student', 'faculty', 'admin'],
    fields: [
      { name: 'title', label: 'Title', kind: 'text' },
      { name: 'abstract', label: 'Abstract', kind: 'textarea' },
      { name: 'term', label: 'Term', kind: 'text' },
      { name: 'advisor', label: 'Advisor', kind: 'faculty' },
      { name: 'second_reader', label: 'Second reader', kind: 'faculty', optional: true },
    ],
  },
  {
    domain: 'independent-research', owner: 'student', titleField: 'title', offeredTo: ['student', 'faculty', 'admin'],
    fields: [
      { name: 'title', label: 'Title', kind: 'text' },
      { name: 'description', label: 'Description', kind: 'textarea' },
      { name: 'term', label: 'Term', kind: 'text' },
      { name: 'credits', label: 'Credits', kind: 'number' },
      { name: 'supervisor', label: 'Supervisor', kind: 'faculty' },
    ],
  },
  {
    domain: 'fellowships', owner: 'applicant', titleField: 'fellowship',
    fields: [
      { name: 'fellowship', label: 'Fellowship', kind: 'text' },
      { name: 'statement', label: 'Statement', kind: 'textarea' },
      { name: 'amount_requested', label: 'Amount requested', kind: 'number', optional: true },
    ],
  },
  {
    domain: 'award-nominations', owner: 'nominator', titleField: 'award', offeredTo: ['faculty', 'staff', 'admin'],
    fields: [
      { name: 'award', label: 'Award', kind: 'text' },
      { name: 'nominee', label: 'Nominee', kind: 'student' },
      { name: 'statement', label: 'Statement', kind: 'textarea' },
    ],
  },
  {
    domain: 'major-plans', owner: 'student', titleField: 'plan', submitsOnCreate: true, fields: [],
  },
  {
    domain: 'graduate-milestones', owner: 'student', titleField: 'title', offeredTo: ['student', 'faculty', 'admin'],
    fields: [
      { name: 'title', label: 'Title', kind: 'text' },
      { name: 'milestone_type', label: 'Milestone', kind: 'milestone' },
      { name: 'due_date', label: 'Due date', kind: 'date', optional: true },
    ],
  },
]

/**
 * A kind's fields for a new request by this role. A student's own request names no student: the service
 * makes it the caller's. An advisor or an admin creating a student-owned one picks the student first,
 * from their advisees (`/api/advisees`) or, for an admin, every student; the service still decides whether
 * the caller may create it for that student (docs/workflows.md, "The domains").
 */
export function forCreator(kind: RequestKind, role: string): RequestKind {
  if (kind.owner !== 'student' || role === 'student') return kind
  return { ...kind, fields: [{ name: 'student', label: 'Student', kind: role === 'admin' ? 'student' : 'advisee' }, ...kind.fields] }
}

export function kindOf(domain: string): RequestKind | undefined {
  return requestKinds.find((k) => k.domain === domain)
}

/** Any domain's entity, as its list and detail routes answer it. */
export type RequestEntity =
  | Schemas['ThesisRequestDetail'] | Schemas['IndependentResearchRequestDetail'] | Schemas['FellowshipApplicationDetail']
  | Schemas['AwardNominationDetail'] | Schemas['MajorPlanApprovalDetail'] | Schemas['GraduateMilestoneDetail']

/** What a create body of any domain may hold, as its route takes it. */
export type CreateBody =
  | Schemas['ThesisRequestCreateBody'] | Schemas['IndependentResearchRequestCreateBody'] | Schemas['FellowshipApplicationCreateBody']
  | Schemas['AwardNominationCreateBody'] | Schemas['MajorPlanApprovalCreateBody'] | Schemas['GraduateMilestoneCreateBody']
export type UpdateBody =
  | Schemas['ThesisRequestUpdateBody'] | Schemas['IndependentResearchRequestUpdateBody'] | Schemas['FellowshipApplicationUpdateBody']
  | Schemas['AwardNominationUpdateBody'] | Schemas['GraduateMilestoneUpdateBody']

/** A field's value in a form: text as typed; numbers and empty optional fields converted for the body. */
export function bodyOf(kind: RequestKind, values: Readonly<Record<string, string>>, editing: boolean): Record<string, string | number | null> {
  const body: Record<string, string | number | null> = {}
  for (const field of kind.fields) {
    const value = values[field.name] ?? ''
    if (value === '') {
      // On an edit, an emptied optional field is removed (null); on a create it is left out.
      if (field.optional && editing) body[field.name] = null
      else if (!field.optional) body[field.name] = value
      continue
    }
    body[field.name] = field.kind === 'number' ? Number(value) : value
  }
  return body
}
