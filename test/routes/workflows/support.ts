import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import type { Role } from '../../../src/auth/permissions.js'
import { userIdForEmail } from '../../../src/auth/tokens.js'
import { registry, type DomainSpec, type WorkflowDomainKey } from '../../../src/workflows/registry.js'
import { listen, send } from '../../auth/support.js'
import { buildTestApp, type TestApp } from '../../helpers/app.js'

export type Inject = (options: InjectOptions) => Promise<LightMyRequestResponse>

/** Everyone the workflows tell apart: students, advisors, committees, an admin, bystanders. */
export const people = {
  admin: { email: 'ada@dept.edu', role: 'admin' },
  una: { email: 'una@dept.edu', role: 'student' },
  gabe: { email: 'gabe@dept.edu', role: 'student' },
  otto: { email: 'otto@dept.edu', role: 'student' },
  fay: { email: 'fay@dept.edu', role: 'faculty' },
  cal: { email: 'cal@dept.edu', role: 'faculty' },
  cora: { email: 'cora@dept.edu', role: 'faculty' },
  cyd: { email: 'cyd@dept.edu', role: 'faculty' },
  gus: { email: 'gus@dept.edu', role: 'faculty' },
  stu: { email: 'stu@dept.edu', role: 'staff' },
} as const satisfies Record<string, { email: string; role: Role }>
export type Name = keyof typeof people

export const path = (id: string) => encodeURIComponent(id)

/**
 * A department built through the API: Una, an undergraduate advised by Fay; Gabe, a graduate student
 * advised by Fay with Cal and Cora on his committee; Otto, a student advised by Gus; Cal, Cora and Cyd
 * sit on the fellowship and awards committees (groups of their users); Stu is staff; Ada the admin.
 * Every one of them has signed in once, so their users exist and link to their Person by email.
 */
export async function workflowDepartment(t: Test, env: Record<string, string> = {}) {
  const setup: TestApp = await buildTestApp(t, env)
  const { app, as } = setup
  const callers = Object.fromEntries(Object.entries(people).map(([name, p]) => [name, as(p.email, p.role)])) as Record<Name, Inject>
  const admin = callers.admin
  const post = async (url: string, payload: object) => {
    const res = await admin({ method: 'POST', url, payload })
    if (res.statusCode !== 201) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.body}`)
    return res.json() as { id?: string; _id?: string; key?: string }
  }
  const person = async (body: object) => (await post('/api/people', body)).id!
  const degree = (await post('/api/degrees', { name: 'Computer Science', degree_type: 'BS' }))._id!
  const faculty = async (name: Name) => person({ type: 'Faculty', first_name: name, last_name: 'Faculty', email: people[name].email })
  const ids = {} as Record<Name, string>
  for (const name of ['fay', 'cal', 'cora', 'cyd', 'gus'] as const) ids[name] = await faculty(name)
  ids.stu = await person({ type: 'Staff', first_name: 'Stu', last_name: 'Staff', email: people.stu.email })
  ids.una = await person({ type: 'UndergraduateStudent', first_name: 'Una', last_name: 'Under', email: people.una.email, advisors: [ids.fay], declared_majors: [degree] })
  ids.otto = await person({ type: 'UndergraduateStudent', first_name: 'Otto', last_name: 'Else', email: people.otto.email, advisors: [ids.gus] })
  ids.gabe = await person({ type: 'GraduateStudent', first_name: 'Gabe', last_name: 'Grad', email: people.gabe.email, advisors: [ids.fay], committee: [ids.cal, ids.cora] })
  // Users exist once they have made a request.
  for (const caller of Object.values(callers)) {
    const me = await caller({ method: 'GET', url: '/api/auth/me' })
    if (me.statusCode !== 200) throw new Error(`GET /api/auth/me answered ${me.statusCode}`)
  }
  // The admin has no Person: they act as their User id.
  ids.admin = userIdForEmail(people.admin.email)
  const committee = ['cal', 'cora', 'cyd'].map((n) => userIdForEmail(people[n as Name].email))
  for (const name of ['Fellowship committee', 'Awards committee']) await setGroup(admin, name, committee)
  const plan = (await post('/api/student-plans', { student: ids.una, plan_name: 'Four years', target_degree: degree, planned_courses: [] }))._id!
  const key = (await post('/api/api-keys', { name: 'reader', permissions: ['read_people'] })).key!

  /** Who a workflow id belongs to. */
  const nameOf = (id: string): Name => {
    const found = (Object.keys(ids) as Name[]).find((n) => ids[n] === id) ?? (Object.keys(people) as Name[]).find((n) => userIdForEmail(people[n].email) === id)
    if (!found) throw new Error(`no one in the department is ${id}`)
    return found
  }
  // Over real HTTP: the header must reach the server spelled X-API-Key, which inject would lower-case.
  let port: Promise<number> | undefined
  const apiKey: Inject = async (opts) => {
    const res = await send(await (port ??= listen(app)), opts.method ?? 'GET', String(opts.url), { 'X-API-Key': key }, opts.payload)
    return { statusCode: res.status, headers: res.headers, body: res.body, json: res.json } as unknown as LightMyRequestResponse
  }
  return { ...setup, admin, callers, ids, degree, plan, apiKey, nameOf }
}
export type Department = Awaited<ReturnType<typeof workflowDepartment>>

/** Creates the committee group, or sets its members when the service seeded it already. */
async function setGroup(admin: Inject, name: string, members: string[]): Promise<void> {
  const created = await admin({ method: 'POST', url: '/api/groups', payload: { name, members } })
  if (created.statusCode === 201) return
  const list = await admin({ method: 'GET', url: '/api/groups?limit=200' })
  const group = (list.json().items as { _id: string; name: string }[]).find((g) => g.name === name)
  if (!group) throw new Error(`group ${name}: ${created.statusCode} ${created.body}`)
  const updated = await admin({ method: 'PUT', url: `/api/groups/${path(group._id)}`, payload: { members } })
  if (updated.statusCode !== 200) throw new Error(`group ${name}: ${updated.statusCode} ${updated.body}`)
}

export const spec = (domain: WorkflowDomainKey): DomainSpec => registry.get(domain)!

/** A domain's entity fields and who creates it, in the department above. */
export function draftOf(d: Department, domain: WorkflowDomainKey, n = 1): { creator: Name; body: Record<string, unknown> } {
  const { ids } = d
  switch (domain) {
    case 'honors_thesis':
      return { creator: 'una', body: { student: ids.una, advisor: ids.fay, title: `Thesis ${n}`, abstract: 'On graphs', term: '25F' } }
    case 'independent_research':
      return { creator: 'una', body: { student: ids.una, supervisor: ids.fay, term: '25F', credits: 3, title: `Research ${n}`, description: 'Lab work' } }
    case 'fellowships':
      return { creator: 'una', body: { applicant: ids.una, fellowship: `Summer fellowship ${n}`, statement: 'Why me' } }
    case 'award_nominations':
      return { creator: 'gus', body: { nominee: ids.una, nominator: ids.gus, award: `Best student ${n}`, statement: 'Because' } }
    case 'major_plans':
      return { creator: 'una', body: { plan: d.plan } }
    case 'graduate_milestones':
      return { creator: 'gabe', body: { student: ids.gabe, milestone_type: 'annual_review', title: `Year ${n} review`, documents: [] } }
  }
}

export interface Started {
  readonly id: string
  readonly creator: Name
  readonly instance: string
}

/** Creates an entity of the domain and submits it (major plans: creating submits). */
export async function startOne(t: Test, d: Department, domain: WorkflowDomainKey, n = 1): Promise<Started> {
  const { base, crud } = spec(domain)
  const { creator, body } = draftOf(d, domain, n)
  const created = await d.callers[creator]({ method: 'POST', url: base, payload: body })
  t.equal(created.statusCode, 201, `${domain}: created (${created.body.slice(0, 300)})`)
  const id = created.json()._id as string
  if (!crud.submit) return { id, creator, instance: created.json().instance._id }
  const submitted = await d.callers[creator]({ method: 'POST', url: `${base}/${path(id)}/submit` })
  t.equal(submitted.statusCode, 200, `${domain}: submitted (${submitted.body.slice(0, 300)})`)
  return { id, creator, instance: submitted.json().instance._id }
}

/** A decision through the domain's own route: the thesis's separate routes, the others' one route. */
export function decide(d: Department, domain: WorkflowDomainKey, who: Name | Inject, id: string, decision: 'approve' | 'reject' | 'request_revision', extra: Record<string, unknown> = {}) {
  const { base, decisionStyle } = spec(domain)
  const caller = typeof who === 'function' ? who : d.callers[who]
  if (decisionStyle === 'thesis') {
    const route = decision === 'request_revision' ? 'request-revision' : decision
    return caller({ method: 'POST', url: `${base}/${path(id)}/${route}`, payload: extra })
  }
  return caller({ method: 'POST', url: `${base}/${path(id)}/decision`, payload: { decision, ...extra } })
}

export function delegateTo(d: Department, domain: WorkflowDomainKey, who: Name, id: string, to: string, extra: Record<string, unknown> = {}) {
  const { base, decisionStyle } = spec(domain)
  const caller = d.callers[who]
  if (decisionStyle === 'thesis') return caller({ method: 'POST', url: `${base}/${path(id)}/delegate`, payload: { to, ...extra } })
  return caller({ method: 'POST', url: `${base}/${path(id)}/decision`, payload: { decision: 'delegate', delegate_to: to, ...extra } })
}

interface Approval { approver: string; status: string; round: number; on_behalf_of?: string }
interface Stage { key: string; status: string; approvals: Approval[] }
export interface InstanceView { _id: string; status: string; round: number; current_stage: string; stages: Stage[]; history: { action: string; actor: string; stage?: string; round: number }[] }

export async function instanceOf(d: Department, id: string): Promise<InstanceView> {
  const res = await d.admin({ method: 'GET', url: `/api/workflows/instances/${path(id)}` })
  if (res.statusCode !== 200) throw new Error(`instance ${id}: ${res.statusCode} ${res.body}`)
  return res.json()
}

/** Who may decide now in the active stage: the pending approvers of the current round. */
export function pendingIn(instance: InstanceView): string[] {
  const stage = instance.stages.find((s) => s.key === instance.current_stage)!
  return stage.approvals.filter((a) => a.round === instance.round && a.status === 'pending').map((a) => a.approver)
}

/**
 * Approves stage after stage, each by as many of its pending approvers as its policy needs (all of
 * them; the engine stops asking once the stage is decided), until the instance leaves review.
 */
export async function approveAll(t: Test, d: Department, domain: WorkflowDomainKey, started: Started): Promise<InstanceView> {
  for (let step = 0; step < 10; step++) {
    const instance = await instanceOf(d, started.instance)
    if (instance.status !== 'in_review') return instance
    const stage = instance.current_stage
    for (const approver of pendingIn(instance)) {
      const current = await instanceOf(d, started.instance)
      if (current.status !== 'in_review' || current.current_stage !== stage) break
      const res = await decide(d, domain, d.nameOf(approver), started.id, 'approve', { stage })
      t.equal(res.statusCode, 200, `${domain}: ${d.nameOf(approver)} approves stage ${stage} (${res.body.slice(0, 300)})`)
    }
  }
  throw new Error(`${domain}: still in review after 10 stages`)
}

export const domains = [...registry.keys()]
