import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import t, { type Test } from 'tap'
import { usageCollection, usageMaintenance } from '../../src/auth/api-keys/usage.js'
import { revocationMaintenance, Revocations, revokedTokensCollection } from '../../src/auth/revocations.js'
import { BullJobDriver } from '../../src/jobs/bullmq/driver.js'
import { maintenanceHandlers, scheduleMaintenanceJobs, type MaintenanceJobs } from '../../src/jobs/maintenance.js'
import { connectRequestPathRedis } from '../../src/redis/client.js'
import { auditId } from '../../src/privacy/audit-entry.js'
import { AuditLog, auditCollection, auditIndexes, auditMaintenance } from '../../src/privacy/audit-log.js'
import { People } from '../../src/privacy/relations.js'
import { RecordService } from '../../src/records/service.js'
import { compileSchema } from '../../src/schema/index.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { overdueMaintenance } from '../../src/workflows/overdue.js'
import { WorkflowService } from '../../src/workflows/service.js'
import { tempDir } from '../helpers/temp-dir.js'
import { workflowDepartment } from '../workflows/support.js'
import { testActor } from '../helpers/actor.js'

const now = new Date('2026-06-01T12:00:00Z')
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString()

/** A real embedded store with two revocations, three usage entries and a short audit log; and a log that remembers errors. */
async function setup(t: Test) {
  let store: EmbeddedStore | undefined
  const schema = await compileSchema('schema')
  store = await EmbeddedStore.open(await tempDir(t, async () => store?.close()), [revokedTokensCollection, usageCollection, auditCollection, ...schema.collections.map((c) => c.name)])
  await store.ensureIndexes(auditCollection, auditIndexes)
  const revocations = new Revocations(store)
  t.teardown(() => revocations.close())
  await revocations.revoke('iss', 'gone', new Date(now.getTime() - 1000))
  await revocations.revoke('iss', 'live', new Date(now.getTime() + 3_600_000))
  const usage = store.collection(usageCollection)
  for (const [id, at] of [['old', daysAgo(120)], ['edge', daysAgo(89)], ['new', daysAgo(1)]] as const) {
    await usage.insertOne({ _id: id, key_id: 'ApiKey/k', at, last_at: at, ip: '10.0.0.1', method: 'GET', route: '/api/courses', count: 1 })
  }
  const auditLog = new AuditLog(store)
  for (let n = 0; n < 3; n++) {
    await auditLog.append({
      userId: 'User/u', resourceType: 'transcript', resourceId: 'UndergraduateStudent/s', action: 'view', ipAddress: '10.0.0.1', success: true,
      statusCode: 200, reason: null, authMethod: 'bearer', apiKeyId: null, apiKeyPrefix: null, role: 'admin', basis: 'admin', method: 'GET',
      route: '/api/students/:id/transcript', requestId: `r${n}`, userAgent: null,
    })
  }
  const errors: unknown[] = []
  const log = { error: (detail: unknown) => void errors.push(detail) }
  const records = new RecordService(store, schema)
  const workflows = new WorkflowService({ store, records, schema, people: new People(records, schema) })
  // The maintenance jobs as services.ts gathers them, each from its feature.
  const tasks: MaintenanceJobs = {
    ...revocationMaintenance(revocations), ...usageMaintenance(store, 90), ...auditMaintenance(auditLog, log), ...overdueMaintenance(workflows.overdue),
  }
  const run = (name: string, at = now) => tasks[name]!.run(at)
  return { store, revocations, tasks, run, errors }
}

t.test('each maintenance job does its work and reports it', async (t) => {
  const { store, tasks, run, errors } = await setup(t)
  t.same(Object.keys(tasks).sort(), ['prune-key-usage', 'sweep-overdue-approvals', 'sweep-revoked-tokens', 'verify-audit-chain'], 'each feature adds its job')
  t.same(await run('sweep-revoked-tokens'), { deleted: 1 })
  t.same((await store.collection(revokedTokensCollection).find({})).map((r) => r._id), ['iss#live'], 'the live revocation stays')
  t.same(await run('prune-key-usage'), { deleted: 1 })
  t.same((await store.collection(usageCollection).find({}, { sort: [['_id', 1]] })).map((r) => r._id), ['edge', 'new'], 'entries inside the retention stay')
  t.match(await run('verify-audit-chain'), { intact: true, checked: 3 })
  t.same(errors, [], 'an intact chain is not an error')
  await store.collection(auditCollection).updateOne({ _id: auditId(2) }, { $set: { success: false } })
  t.match(await run('verify-audit-chain'), { intact: false, firstBrokenAt: 2 })
  t.equal(errors.length, 1, 'a broken chain is logged as an error')
  t.same(await run('sweep-overdue-approvals'), { marked: 0, escalated: 0, due_soon: 0 }, 'no instance, nothing overdue')
})

t.test('the overdue sweep marks late approvals, then adds the department admins twice past the due time; each once', async (t) => {
  const { workflows, as, ids } = await workflowDepartment(t)
  const thesis = await workflows.create('honors_thesis', as('una'), testActor, { student: ids.una, advisor: ids.fay, title: 'Late readers', abstract: 'A.', term: '26S' })
  const { instance } = await workflows.submit('honors_thesis', as('una'), testActor, thesis._id)
  const advisorStage = () => workflows.catalog.instance(as('admin'), instance._id).then((i) => i.stages[0]!)
  const { activated_at, due_at } = await advisorStage()
  const days = (n: number) => new Date(Date.parse(activated_at!) + n * 86_400_000)
  t.equal(Date.parse(due_at!), days(14).getTime(), 'the advisor stage is due 14 days after it activated')
  const sweep = (at: Date) => overdueMaintenance(workflows.overdue)['sweep-overdue-approvals']!.run(at)

  t.same(await sweep(days(13.9)), { marked: 0, escalated: 0, due_soon: 1 }, 'not yet due: a reminder within a day of it')
  t.same(await sweep(days(14.1)), { marked: 1, escalated: 0, due_soon: 0 }, 'past due: marked')
  let stage = await advisorStage()
  t.same(stage.approvals.map((a) => [a.approver, a.status, a.overdue]), [[ids.fay, 'pending', true]], 'the advisor\'s approval is overdue')
  t.same(await sweep(days(20)), { marked: 0, escalated: 0, due_soon: 0 }, 'a second sweep changes nothing')
  const [item] = (await workflows.pending('honors_thesis', as('fay'), { limit: 10, offset: 0 })).items
  t.match(item, { id: thesis._id, stage: 'advisor', overdue: true }, 'the advisor\'s queue shows it overdue')

  t.same(await sweep(days(28.1)), { marked: 0, escalated: 1, due_soon: 0 }, 'twice past due: escalated')
  t.same(await sweep(days(40)), { marked: 1, escalated: 0, due_soon: 0 }, 'escalated once per activation; the admins added to a late stage are late too')
  t.same(await sweep(days(41)), { marked: 0, escalated: 0, due_soon: 0 }, 'and then nothing changes')
  stage = await advisorStage()
  t.equal(stage.escalated_at, days(28.1).toISOString())
  t.same(stage.approvals.filter((a) => a.source === 'escalation').map((a) => a.approver).sort(), [ids.admin, ids.admin2].sort(), 'both admins added')
  const history = (await workflows.history('honors_thesis', as('una'), thesis._id)).items
  t.same(history.filter((h) => h.action === 'overdue' || h.action === 'escalate').map((h) => [h.action, h.actor, h.at]),
    [['overdue', 'system', days(14.1).toISOString()], ['escalate', 'system', days(28.1).toISOString()], ['overdue', 'system', days(40).toISOString()]],
    'each recorded in history')
  const decided = await workflows.decide('honors_thesis', as('admin2'), testActor, thesis._id, { decision: 'approve', stage: 'advisor' })
  t.equal(decided.instance.current_stage, 'department', 'an escalated admin decides for the stage')
})

t.test('on a real Redis: the schedule is registered once, and a queued job runs on the worker', async (t) => {
  const { store, revocations, tasks } = await setup(t)
  const redisUrl = 'redis://127.0.0.1:6379'
  const prefix = `adks-test:${randomUUID()}:bull`
  const client = await connectRequestPathRedis(redisUrl, 'test-maintenance')
  const driver = new BullJobDriver({ client, redisUrl, prefix, log: { info: () => {}, warn: () => {}, error: () => {} }, runJobs: true, closeGraceMs: 2000 })
  driver.register('maintenance', maintenanceHandlers(tasks, () => now))
  await driver.start()
  t.teardown(async () => {
    await driver.close()
    const keys = await client.keys(`${prefix}:*`)
    if (keys.length) await client.del(...keys)
    client.disconnect()
  })
  await scheduleMaintenanceJobs(driver, tasks)
  await scheduleMaintenanceJobs(driver, tasks)
  const schedulers = await driver.schedulers('maintenance')
  t.same(schedulers.map((s) => s.id).sort(), Object.keys(tasks).sort(), 'one scheduler per job, however often registered')
  const revoked = store.collection(revokedTokensCollection)
  for (let i = 0; i < 600 && (await revoked.count({})) > 1; i++) await new Promise((r) => setTimeout(r, 50))
  t.same((await revoked.find({})).map((r) => r._id), ['iss#live'], 'the schedule runs each job once at the start')
  await revocations.revoke('iss', 'later', new Date(now.getTime() - 1))
  const { id } = await driver.enqueue('maintenance', 'sweep-revoked-tokens', {})
  let job = await driver.job(id)
  for (let i = 0; i < 600 && job?.state !== 'completed'; i++) {
    await new Promise((r) => setTimeout(r, 50))
    job = await driver.job(id)
  }
  t.same(job?.result, { deleted: 1 }, 'a queued job runs and returns its report')
})

t.test('the worker refuses to start without Redis or without MongoDB, naming the variable', async (t) => {
  const start = (env: Record<string, string>) => new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], { env: { PATH: process.env.PATH ?? '', JWT_SECRET: 'x'.repeat(40), ...env } })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('exit', (code) => resolve({ code, stderr }))
  })
  const noRedis = await start({})
  t.equal(noRedis.code, 1)
  t.match(noRedis.stderr, /REDIS_URL is required by the worker/)
  const noMongo = await start({ REDIS_URL: 'redis://127.0.0.1:6379' })
  t.equal(noMongo.code, 1)
  t.match(noMongo.stderr, /MONGODB_URL is required by the worker/)
})
