/**
 * Plays the sample workflow cases (workflow-cases.ts) through the workflow service, as the people
 * involved would through the API: each submitter submits, each approver asked decides, so every
 * entity's status, instance, approvals and history are the service's own. The service's clock is the
 * seed's: each case is submitted `ageDays` before `now` and its later actions follow a day apart.
 */
import type { Principal } from '../../src/auth/principal.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { UserService, type GroupRecord, type UserRecord } from '../../src/auth/users.js'
import type { Role } from '../../src/auth/permissions.js'
import { pendingApprovals } from '../../src/domain/workflows/index.js'
import { People } from '../../src/privacy/relations.js'
import type { RecordService } from '../../src/records/service.js'
import type { CompiledSchema } from '../../src/schema/index.js'
import type { Store } from '../../src/store/port.js'
import { domainSpec, workflowDomains, type WorkflowDomainKey } from '../../src/workflows/registry.js'
import { WorkflowService } from '../../src/workflows/service.js'
import { Instances } from '../../src/workflows/persistence.js'
import type { ActionResult } from '../../src/workflows/types.js'
import type { SampleCatalog } from './catalog.js'
import type { SampleRecord } from './records.js'
import { sampleWorkflows, type WorkflowCase } from './workflow-cases.js'
import { seedActor as actor } from './seed-store.js'

export interface WorkflowSeedDeps {
  readonly store: Store
  readonly records: RecordService
  readonly schema: CompiledSchema
}

/** Entities per domain and status, as seeded. */
export type WorkflowSeedCounts = Record<WorkflowDomainKey, Record<string, number>>

const day = 86_400_000
/** When the sample users' roles were set: long before any token minted for them, so a token's role grant wins. */
const roleSetAt = '2025-08-01T00:00:00.000Z'

const roleOfClass: Record<string, Role> = { Faculty: 'faculty', Staff: 'staff', UndergraduateStudent: 'student', GraduateStudent: 'student' }

/** Acts as the sample people: each gets a User linked to their Person by campus id, created once. */
class Cast {
  private readonly principals = new Map<string, Principal>()
  private readonly users: UserService

  constructor(
    private readonly deps: WorkflowSeedDeps, private readonly people: ReadonlyMap<string, SampleRecord>, private readonly admins: ReadonlySet<string>,
    /** Faculty (Person ids) an approver may delegate to. */
    readonly faculty: readonly string[],
  ) {
    this.users = new UserService(deps.store, deps.records)
  }

  /** The user of a sample person (by Person id), created with the role their class gives, or admin. */
  async user(personId: string): Promise<UserRecord> {
    const person = this.people.get(personId)
    if (!person) throw new Error(`${personId} is not a sample person`)
    const email = person.body.email as string
    const id = userIdForEmail(email)
    const existing = await this.users.byId(id)
    if (existing) return existing
    const role = this.admins.has(personId) ? 'admin' : roleOfClass[person.className]!
    return await this.deps.records.create('User', {
      email, role, role_set_at: roleSetAt, campus_id: person.body.campus_id, first_name: person.body.first_name, last_name: person.body.last_name,
    }, { actor, key: id.slice('User/'.length) }) as UserRecord
  }

  /** The person signed in, as the auth plugin would make them. */
  async as(personId: string): Promise<Principal> {
    let principal = this.principals.get(personId)
    if (!principal) {
      const user = await this.user(personId)
      const { permissions, groups } = await this.users.access(user)
      principal = { kind: 'user', userId: user._id, email: user.email, role: user.role, ...(user.campus_id ? { campusId: user.campus_id } : {}), permissions, groups }
      this.principals.set(personId, principal)
    }
    return principal
  }
}

/**
 * A committee the workflows read by name (the registry's `committeeGroup`), with these members; made
 * when missing, its members set again on a rerun.
 */
async function staffCommittee(deps: WorkflowSeedDeps, cast: Cast, name: string, members: readonly SampleRecord[]): Promise<void> {
  const users = (await Promise.all(members.map((m) => cast.user(m.id)))).map((u) => u._id)
  const group = await deps.store.collection<GroupRecord>('groups').findOne({ name })
  if (group) await deps.records.update(group._id, { members: users }, { actor })
  else await deps.records.create('Group', { name, description: 'Its members decide at the committee stage of the workflow that reads this group', permissions: [], members: users }, { actor })
}

/** Stage counts of each domain's current definition. */
async function stageCounts(service: WorkflowService, admin: Principal): Promise<Record<WorkflowDomainKey, number>> {
  const { items } = await service.catalog.definitions(admin)
  const counts = {} as Record<WorkflowDomainKey, number>
  for (const domain of workflowDomains) {
    const latest = items.filter((d) => d.domain === domain).sort((a, b) => b.version - a.version)[0]
    if (!latest) throw new Error(`no workflow definition for ${domain}`)
    counts[domain] = latest.stages.length
  }
  return counts
}

/** One case, played by its people; `tick` moves the service's clock on a day. */
async function play(service: WorkflowService, instances: Instances, cast: Cast, c: WorkflowCase, tick: () => void): Promise<void> {
  const { domain } = c
  const submitter = await cast.as(c.submitter)
  let result: ActionResult
  if (domain === 'major_plans') {
    const entity = await service.create(domain, submitter, actor, { plan: c.record.id })
    result = { entity, instance: (await instances.ofEntity(entity._id))! }
  } else {
    if (c.end === 'draft') return
    result = await service.submit(domain, submitter, actor, c.record.id)
  }
  const id = result.entity._id
  const firstPending = () => pendingApprovals(result.instance)[0]!
  const decide = async (decision: 'approve' | 'reject' | 'request_revision') => {
    tick()
    const approver = await cast.as(firstPending().approver)
    result = await service.decide(domain, approver, actor, id, { decision, stage: result.instance.current_stage, comment: comments[decision] })
  }

  if (c.end === 'resubmitted') {
    await decide('request_revision')
    tick()
    await service.update(domain, submitter, actor, id, revised(c.record))
    result = await service.submit(domain, submitter, actor, id)
  }
  for (let passed = 0; passed < c.approvedStages; passed++) {
    const stage = result.instance.current_stage
    while (result.instance.status === 'in_review' && result.instance.current_stage === stage) await decide('approve')
  }
  tick()
  switch (c.end) {
    case 'rejected': return void await decide('reject')
    case 'revision_requested': return void await decide('request_revision')
    case 'withdrawn': return void await service.withdraw(domain, submitter, actor, id, { comment: 'Withdrawn: I will apply again next term.' })
    case 'delegated': {
      const from = firstPending().approver
      const asked = new Set([result.instance.submitter, ...result.instance.excluded, ...result.instance.stages.flatMap((s) => s.approvals.map((a) => a.approver))])
      const to = cast.faculty.find((f) => !asked.has(f))!
      await cast.user(to)
      return void await service.delegate(domain, await cast.as(from), actor, id, { to, stage: result.instance.current_stage, comment: 'On leave this month: please decide in my place.' })
    }
    default:
  }
}

const comments = {
  approve: 'Approved.', reject: 'Not this year: the committee funds other proposals first.',
  request_revision: 'Please add a timeline and say how the work will be evaluated.',
} as const

/** A draft's fields after the submitter's revision. */
function revised(record: SampleRecord): Record<string, unknown> {
  const { status: _status, milestone_status: _milestone, ...fields } = record.body
  for (const field of ['abstract', 'description', 'statement']) {
    if (typeof fields[field] === 'string') fields[field] = `${fields[field] as string} Revised with a timeline and an evaluation plan.`
  }
  return fields
}

/**
 * Seeds the workflows of the sample department: the definitions (the service's own seed), the
 * committee groups and their members, the admins, the drafts and StudentPlans, and every case played
 * through the service. Returns the entities per domain and status. Expects the catalog seeded and no
 * workflow entity yet (the seed's --reset empties them; users and groups it keeps are reused).
 */
export async function seedSampleWorkflows(deps: WorkflowSeedDeps, catalog: SampleCatalog, now: Date): Promise<WorkflowSeedCounts> {
  let clock = now
  const service = new WorkflowService({ ...deps, people: new People(deps.records, deps.schema), now: () => clock })
  await service.seed(actor)
  const people = new Map([...catalog.faculty, ...catalog.staff, ...catalog.undergraduates, ...catalog.graduates].map((p) => [p.id, p]))
  // Stage counts come from the definitions; the cast does not depend on them.
  const { cast: roles } = sampleWorkflows(catalog, Object.fromEntries(workflowDomains.map((d) => [d, 1])) as Record<WorkflowDomainKey, number>)
  const cast = new Cast(deps, people, new Set(roles.admins.map((a) => a.id)), catalog.faculty.slice(0, 40).map((f) => f.id))
  for (const admin of roles.admins) await cast.user(admin.id)
  await staffCommittee(deps, cast, domainSpec('fellowships').committeeGroup!, roles.fellowshipCommittee)
  await staffCommittee(deps, cast, domainSpec('award_nominations').committeeGroup!, roles.awardsCommittee)
  const { cases, plans } = sampleWorkflows(catalog, await stageCounts(service, await cast.as(roles.admins[0]!.id)))

  for (const plan of plans) await deps.records.create(plan.className, plan.body, { actor, key: plan.key! })
  for (const c of cases) if (c.domain !== 'major_plans') await deps.records.create(c.record.className, c.record.body, { actor, key: c.record.key! })
  const instances = new Instances(deps.store, () => clock)
  for (const c of cases) {
    clock = new Date(now.getTime() - c.ageDays * day)
    await play(service, instances, cast, c, () => { clock = new Date(Math.min(now.getTime(), clock.getTime() + day)) })
  }

  // The sample's requests are its past: their notices are not sent when the service first starts (to
  // the sample's made-up addresses, should SMTP_URL be set); notifications begin with what happens next.
  await instances.markPastAsTold()

  const counts = {} as WorkflowSeedCounts
  for (const domain of workflowDomains) {
    const collection = deps.schema.class(domainSpec(domain).entityClass)!.metadata.collection!
    counts[domain] = {}
    for (const entity of await deps.store.collection<{ _id: string; status: string }>(collection).find({})) counts[domain][entity.status] = (counts[domain][entity.status] ?? 0) + 1
  }
  return counts
}
