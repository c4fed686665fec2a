/**
 * The six workflow domains (docs/workflows.md), one row each: the entity class, where its routes live, who
 * the entity is about, who may create and submit it, and how decisions are posted. Routes, the service
 * and the seeded definitions are all generated from this table.
 */

import type { WorkflowEntity } from '../schema/generated/records.js'

export const workflowDomains = [
  'honors_thesis', 'independent_research', 'fellowships', 'award_nominations', 'major_plans', 'graduate_milestones',
] as const
/** A domain's key: the schema's WorkflowDomain value, which instances and definitions carry in `domain`. */
export type WorkflowDomainKey = (typeof workflowDomains)[number]

/** A stored workflow entity as the registry reads it: any fields, by name. */
export type EntityFields = Readonly<Record<string, unknown>>

/**
 * Who may create (and submit) an entity of the domain:
 * - `student`: the student it is about, one of that student's advisors, or an admin (thesis,
 *   independent research, milestones, major plans);
 * - `self`: only the person in `ownerField` themselves (a fellowship applicant), or an admin;
 * - `nominator`: faculty, staff or admins, as the person in `ownerField` (the nominator).
 */
export type SubmitterRule = 'student' | 'self' | 'nominator'

/** `thesis`: separate /approve, /reject, /request-revision, /delegate routes; `decision`: POST /:id/decision. */
export type DecisionStyle = 'thesis' | 'decision'

export interface CrudRoutes {
  readonly list: boolean
  readonly create: boolean
  readonly get: boolean
  readonly update: boolean
  readonly delete: boolean
  /** A separate /:id/submit route; without it (major plans) creating the entity submits it. */
  readonly submit: boolean
}

export interface DomainSpec {
  readonly domain: WorkflowDomainKey
  readonly entityClass: WorkflowEntity['type']
  /** URL base of the domain's entity routes. */
  readonly base: string
  /** URL of the domain's pending-approvals queue. */
  readonly pendingPath: string
  /** Name of the seeded definition. */
  readonly workflowName: string
  /** The entity's field holding the person it belongs to: the student, the applicant, the nominator. */
  readonly ownerField: string
  readonly submitterRule: SubmitterRule
  readonly decisionStyle: DecisionStyle
  readonly crud: CrudRoutes
  /** Query filters a list accepts beyond status, each to the entity field it filters on. */
  readonly listFilters: Readonly<Record<string, string>>
  /** What a queue shows for the entity. */
  title(entity: EntityFields): string
  /** The student the entity is about, whose advisors and committee the stages ask; none for nominations. */
  student(entity: EntityFields): string | undefined
  /**
   * Fields naming the people who may never decide on the entity (docs/workflows.md, "Conflicts of interest"):
   * whom it is about (the student, the applicant, the nominee) and who proposed it (the nominator).
   */
  readonly conflictFields: readonly string[]
  /** Advisors named on the entity itself, asked in place of the student's advisors. */
  advisors(entity: EntityFields): string[]
  /**
   * Name of the Group whose members are the committee of a committee stage that names no group
   * (fellowship and award committees, which an admin keeps); without it, the graduate student's committee.
   */
  readonly committeeGroup?: string
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')
const id = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined)
const ids = (...values: unknown[]): string[] => values.filter((v): v is string => typeof v === 'string' && v.length > 0)

const full: CrudRoutes = { list: true, create: true, get: true, update: true, delete: true, submit: true }

const rows: readonly DomainSpec[] = [
  {
    domain: 'honors_thesis', entityClass: 'ThesisRequest', base: '/api/thesis/requests', pendingPath: '/api/thesis/pending-approvals',
    workflowName: 'Honors thesis approval', ownerField: 'student', conflictFields: ['student'], submitterRule: 'student', decisionStyle: 'thesis', crud: full,
    listFilters: { student: 'student' },
    title: (e) => text(e.title), student: (e) => id(e.student), advisors: (e) => ids(e.advisor),
  },
  {
    domain: 'independent_research', entityClass: 'IndependentResearchRequest', base: '/api/independent-research/requests',
    pendingPath: '/api/independent-research/pending-approvals', workflowName: 'Independent research approval', ownerField: 'student',
    conflictFields: ['student'], submitterRule: 'student', decisionStyle: 'decision', crud: full, listFilters: { student: 'student' },
    title: (e) => text(e.title), student: (e) => id(e.student), advisors: (e) => ids(e.supervisor),
  },
  {
    domain: 'fellowships', entityClass: 'FellowshipApplication', base: '/api/fellowships/applications', pendingPath: '/api/fellowships/pending-approvals',
    workflowName: 'Fellowship application review', ownerField: 'applicant', conflictFields: ['applicant'], submitterRule: 'self', decisionStyle: 'decision', crud: full,
    listFilters: { applicant: 'applicant' },
    title: (e) => text(e.fellowship), student: (e) => id(e.applicant), advisors: () => [],
    committeeGroup: 'Fellowship committee',
  },
  {
    domain: 'award_nominations', entityClass: 'AwardNomination', base: '/api/award-nominations/nominations',
    pendingPath: '/api/award-nominations/pending-approvals', workflowName: 'Award nomination review', ownerField: 'nominator',
    conflictFields: ['nominee', 'nominator'], submitterRule: 'nominator', decisionStyle: 'decision', crud: full, listFilters: { nominee: 'nominee', nominator: 'nominator' },
    title: (e) => text(e.award), student: () => undefined, advisors: () => [],
    committeeGroup: 'Awards committee',
  },
  {
    domain: 'major_plans', entityClass: 'MajorPlanApproval', base: '/api/major-plan-approvals', pendingPath: '/api/major-plan-approvals/pending-approvals',
    workflowName: 'Major plan approval', ownerField: 'student', conflictFields: ['student'], submitterRule: 'student', decisionStyle: 'decision',
    crud: { list: true, create: true, get: true, update: false, delete: false, submit: false }, listFilters: { student: 'student' },
    title: (e) => `Plan ${text(e.plan)}`, student: (e) => id(e.student), advisors: () => [],
  },
  {
    domain: 'graduate_milestones', entityClass: 'GraduateMilestone', base: '/api/graduate-milestones', pendingPath: '/api/graduate-milestones/pending-approvals',
    workflowName: 'Graduate milestone approval', ownerField: 'student', conflictFields: ['student'], submitterRule: 'student', decisionStyle: 'decision',
    crud: { list: true, create: true, get: true, update: true, delete: false, submit: true }, listFilters: { student: 'student' },
    title: (e) => text(e.title), student: (e) => id(e.student), advisors: () => [],
  },
]

/** The people a domain's entity names in its conflict fields: none of them decides on it. */
export function conflictsOf(spec: DomainSpec, entity: EntityFields): string[] {
  return [...new Set(ids(...spec.conflictFields.map((field) => entity[field])))]
}

export const registry: ReadonlyMap<WorkflowDomainKey, DomainSpec> = new Map(rows.map((row) => [row.domain, row]))

export function domainSpec(domain: WorkflowDomainKey): DomainSpec {
  const spec = registry.get(domain)
  if (!spec) throw new Error(`no workflow domain ${domain}`)
  return spec
}

export function isWorkflowDomain(value: unknown): value is WorkflowDomainKey {
  return typeof value === 'string' && registry.has(value as WorkflowDomainKey)
}

/** The domain whose entities are of this class, if any. */
export function domainOfClass(className: string): DomainSpec | undefined {
  return rows.find((row) => row.entityClass === className)
}
