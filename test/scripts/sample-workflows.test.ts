import t from 'tap'
import type { GroupRecord, UserRecord } from '../../src/auth/users.js'
import { entityStatusOf, milestoneStatusOf, type InstanceStatus } from '../../src/domain/workflows/index.js'
import { loadConfig } from '../../src/config.js'
import { RecordService } from '../../src/records/service.js'
import { compileSchema } from '../../src/schema/index.js'
import { openStore } from '../../src/store/open.js'
import type { Store } from '../../src/store/port.js'
import { instanceIdOf, instancesCollection } from '../../src/workflows/persistence.js'
import { domainSpec, workflowDomains } from '../../src/workflows/registry.js'
import type { StoredInstance } from '../../src/workflows/types.js'
import { generateSampleDepartment } from '../../scripts/sample/index.js'
import { seedDepartmentInBulk } from '../../scripts/sample/seed-bulk.js'
import { sampleWorkflows } from '../../scripts/sample/workflow-cases.js'
import { seedSampleWorkflows } from '../../scripts/sample/workflow-seed.js'
import { tempDir } from '../helpers/temp-dir.js'

// Seeding the whole department on a busy two-core machine takes longer than the default limit.
t.setTimeout(300_000)

const now = new Date('2026-03-16T09:00:00.000Z')
const department = generateSampleDepartment(1)

let store: Store | undefined
const dataDir = await tempDir(t, async () => store?.close())
const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SQLITE_SYNCHRONOUS: 'normal' })
const schema = await compileSchema(config.schemaDir)
store = await openStore(config, schema.collections.map((c) => c.name))
for (const collection of schema.collections) await store.ensureIndexes(collection.name, collection.indexes)
const records = new RecordService(store, schema)
await seedDepartmentInBulk(records, department)
const counts = await seedSampleWorkflows({ store, records, schema }, department.catalog, now)
const instances = await store.collection<StoredInstance & { [field: string]: unknown }>(instancesCollection).find({})

const everyEnd: readonly InstanceStatus[] = ['in_review', 'approved', 'rejected', 'revision_requested', 'withdrawn']

t.test('every domain has requests in review at each stage, and approved, rejected, returned and withdrawn ones', async (t) => {
  for (const domain of workflowDomains) {
    const mine = instances.filter((i) => i.domain === domain)
    for (const status of everyEnd) t.ok(mine.some((i) => i.status === status), `${domain}: an instance ${status}`)
    const stages = mine[0]!.stages.map((s) => s.key)
    const open = new Set(mine.filter((i) => i.status === 'in_review').map((i) => i.current_stage))
    t.same([...open].sort(), [...stages].sort(), `${domain}: open instances at every stage (${stages.join(', ')})`)
    t.ok(mine.some((i) => i.round === 2 && i.status === 'in_review') || domain === 'major_plans', `${domain}: one resubmitted, in its second round`)
    t.ok(mine.some((i) => i.stages.some((s) => s.approvals.some((a) => a.status === 'delegated'))), `${domain}: a delegated approval`)
    t.equal(Object.values(counts[domain]).reduce((a, n) => a + n, 0), domain === 'major_plans' ? mine.length : mine.length + 1, `${domain}: the counts reported`)
  }
})

t.test('each entity\'s status is its instance\'s; a draft has none; a milestone\'s milestone_status follows', async (t) => {
  for (const domain of workflowDomains) {
    const collection = schema.class(domainSpec(domain).entityClass)!.metadata.collection!
    const entities = await store!.collection<{ _id: string; status: string; milestone_status?: string }>(collection).find({})
    t.ok(entities.length >= 8, `${domain}: ${entities.length} entities`)
    for (const entity of entities) {
      const instance = instances.find((i) => i._id === instanceIdOf(entity._id)) ?? null
      t.equal(entity.status, entityStatusOf(instance), `${entity._id} is ${entity.status}`)
      if (domain === 'graduate_milestones') t.equal(entity.milestone_status, milestoneStatusOf(instance, instance !== null), `${entity._id} milestone_status`)
    }
    t.ok(entities.some((e) => e.status === 'draft') || domain === 'major_plans', `${domain}: a draft`)
  }
})

t.test('the committees and admins are sample people who can sign in', async (t) => {
  const users = await store!.collection<UserRecord>('users').find({})
  const people = new Map([...department.catalog.faculty, ...department.catalog.staff].map((p) => [p.body.email as string, p]))
  for (const name of [domainSpec('fellowships').committeeGroup!, domainSpec('award_nominations').committeeGroup!]) {
    const group = await store!.collection<GroupRecord>('groups').findOne({ name })
    t.equal(group?.members.length, 4, `${name}: four members`)
    for (const member of group?.members ?? []) {
      const user = users.find((u) => u._id === member)
      t.equal(people.get(user?.email ?? '')?.className, 'Faculty', `${name}: ${user?.email} is sample faculty`)
    }
  }
  const admins = users.filter((u) => u.role === 'admin')
  t.same(admins.map((u) => people.get(u.email)?.className), ['Staff', 'Staff'], 'two department admins, both staff')
  const decided = instances.flatMap((i) => i.history.filter((h) => h.action === 'approve').map((h) => h.actor))
  t.ok(decided.length > 50, 'many decisions taken')
  for (const actor of new Set(decided)) t.match(actor, /^(Faculty|Staff)\//, `${actor} decided as their Person`)
})

t.test('the cases come out the same on every run', async (t) => {
  const stageCounts = Object.fromEntries(workflowDomains.map((d) => [d, instances.find((i) => i.domain === d)!.stages.length])) as Record<(typeof workflowDomains)[number], number>
  const first = sampleWorkflows(department.catalog, stageCounts)
  t.same(sampleWorkflows(generateSampleDepartment(1).catalog, stageCounts), first)
  const submitted = new Set(instances.map((i) => i.entity))
  for (const c of first.cases.filter((c) => c.domain !== 'major_plans' && c.end !== 'draft')) t.ok(submitted.has(c.record.id), `${c.record.id} seeded with its stable id`)
  const dates = instances.flatMap((i) => i.history.map((h) => Date.parse(h.at)))
  t.ok(dates.every((at) => at <= now.getTime() && at >= now.getTime() - 41 * 86_400_000), 'every action within the 40 days before now')
})
