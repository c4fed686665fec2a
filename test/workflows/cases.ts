import type { WorkflowDomainKey } from '../../src/workflows/registry.js'
import type { Department } from './support.js'
import { testActor } from '../helpers/actor.js'

/** The six domains as the department of support.ts runs them: who creates, who approves each stage, who delegates. */
export type Who = Parameters<Department['as']>[0]

export interface Case {
  readonly domain: WorkflowDomainKey
  readonly creator: Who
  /** Makes the entity (a draft; a major plan is submitted as it is made). */
  create(d: Department): Promise<string>
  /** Who approves, stage by stage, to complete each stage. */
  readonly stages: readonly (readonly Who[])[]
  /** A field an edit after a revision request changes. */
  readonly edit?: Readonly<Record<string, unknown>>
  /** An approver of the first stage and a person they hand it to. */
  readonly delegation: { readonly from: Who; readonly to: Who }
}

async function plan(d: Department): Promise<string> {
  const degree = (await d.records.create('Degree', { name: 'Mathematics', degree_type: 'BS' }, { actor: testActor }))._id
  return (await d.records.create('StudentPlan', { student: d.ids.una, plan_name: 'Main', target_degree: degree, planned_courses: [] }, { actor: testActor }))._id
}

export const cases: readonly Case[] = [
  {
    domain: 'honors_thesis', creator: 'una', stages: [['fay'], ['admin']], edit: { title: 'Revised' }, delegation: { from: 'fay', to: 'gus' },
    create: async (d) => (await d.workflows.create('honors_thesis', d.as('una'), testActor, { student: d.ids.una, advisor: d.ids.fay, title: 'T', abstract: 'A', term: '25F' }))._id,
  },
  {
    domain: 'independent_research', creator: 'una', stages: [['gus'], ['admin2']], edit: { credits: 4 }, delegation: { from: 'gus', to: 'fred' },
    create: async (d) => (await d.workflows.create('independent_research', d.as('una'), testActor, {
      student: d.ids.una, supervisor: d.ids.gus, term: '26S', credits: 3, title: 'Lab work', description: 'Measuring',
    }))._id,
  },
  {
    domain: 'fellowships', creator: 'gina', stages: [['fay'], ['c1', 'c3'], ['admin']], edit: { statement: 'Better' }, delegation: { from: 'fay', to: 'gus' },
    create: async (d) => (await d.workflows.create('fellowships', d.as('gina'), testActor, { applicant: d.ids.gina, fellowship: 'Dean fellowship', statement: 'S' }))._id,
  },
  {
    domain: 'award_nominations', creator: 'gus', stages: [['c2', 'c3'], ['admin']], edit: { statement: 'More' }, delegation: { from: 'c1', to: 'fay' },
    create: async (d) => (await d.workflows.create('award_nominations', d.as('gus'), testActor, { nominee: d.ids.una, award: 'Prize', statement: 'S' }))._id,
  },
  {
    domain: 'major_plans', creator: 'una', stages: [['fay', 'fred'], ['admin']], delegation: { from: 'fred', to: 'gus' },
    create: async (d) => (await d.workflows.create('major_plans', d.as('una'), testActor, { plan: await plan(d) }))._id,
  },
  {
    domain: 'graduate_milestones', creator: 'gina', stages: [['fay'], ['c1', 'c2', 'c3'], ['admin']], edit: { title: 'Year 2 review' }, delegation: { from: 'fay', to: 'gus' },
    create: async (d) => (await d.workflows.create('graduate_milestones', d.as('gina'), testActor, { student: d.ids.gina, milestone_type: 'annual_review', title: 'Review', documents: [] }))._id,
  },
]

/** Submits unless the domain submits as it creates. */
export async function submitted(d: Department, c: Case): Promise<string> {
  const id = await c.create(d)
  if (c.domain !== 'major_plans') await d.workflows.submit(c.domain, d.as(c.creator), testActor, id)
  return id
}

