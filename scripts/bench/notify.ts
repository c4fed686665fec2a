/**
 * npm run bench:notify: notifications on the embedded defaults (docs/notifications.md, issue 28), with a
 * local SMTP server and three webhook receivers on loopback. The sample department at scale 10 is seeded, and
 * 2,000 more faculty members are written in, each with a thesis request awaiting them; then the service is
 * started as `npm start` starts it (its own process) and, once its start-up sweep has sent the sample's
 * notices:
 * - latency: students submit thesis requests one after another (BENCH_NOTIFY_REQUESTS, default 100) to
 *   advisors who chose immediate email; from each submit's 2xx to the advisor's in-app notification
 *   (polled) and to the email's acceptance by the SMTP server (targets: p95 1 s and 3 s);
 * - digest: the daily digest run on demand, until every approver's email is accepted (target 30 s);
 * - webhooks: 1,000 submissions (one event each for the subscribed `workflow.submitted`) fanned out to
 *   three webhooks while the `notifications` queue is paused, then the time from its resumption to the
 *   3,000th delivery (target 20 s).
 * Figures go to stdout and bench-results/notify-latest.json.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { simpleParser } from 'mailparser'
import { signingKeys } from '../../src/auth/keys.js'
import type { Role } from '../../src/auth/permissions.js'
import { signIdToken, userIdForEmail } from '../../src/auth/tokens.js'
import { loadConfig } from '../../src/config.js'
import { start } from '../../src/domain/workflows/index.js'
import { RecordService } from '../../src/records/service.js'
import { compileSchema } from '../../src/schema/index.js'
import { openStore } from '../../src/store/open.js'
import { Approvers } from '../../src/workflows/approvers.js'
import { Definitions } from '../../src/workflows/definitions.js'
import { instanceIndexes, instancesCollection, Instances } from '../../src/workflows/persistence.js'
import { workflowDomains, type WorkflowDomainKey } from '../../src/workflows/registry.js'
import { generateCatalog } from '../sample/index.js'
import { sampleWorkflows } from '../sample/workflow-cases.js'
import { benchReceiver, benchSmtp, until } from './notify-servers.js'
import { freePort, run, startServer, stop } from './processes.js'
import { summarize, type Latency } from './search.js'
import type { Actor } from '../../src/actor.js'

/** The benchmark's own set-up writes, as their revisions name them. */
const benchActor: Actor = { id: 'bench', name: 'Benchmark set-up', via: 'bench' }

const root = fileURLToPath(new URL('../../', import.meta.url))
const scale = 10
const digestApprovers = Number(process.env.BENCH_NOTIFY_APPROVERS ?? 2000)
const submissions = Number(process.env.BENCH_NOTIFY_REQUESTS ?? 100)
const webhookEvents = 1000
const hooks = 3
export const notifyTargets = { inAppP95Ms: 1000, emailP95Ms: 3000, digestSeconds: 30, webhookSeconds: 20 } as const

const seconds = (ms: number) => Math.round(ms) / 1000
const catalog = generateCatalog(scale)

/** Writes `digestApprovers` faculty, each awaited by one submitted thesis request, into the seeded store. */
async function writeApprovers(env: Record<string, string>): Promise<void> {
  const config = loadConfig(env)
  const schema = await compileSchema(config.schemaDir)
  const store = await openStore(config, schema.collections.map((c) => c.name))
  try {
    await store.ensureIndexes(instancesCollection, [...instanceIndexes])
    const records = new RecordService(store, schema)
    const definitions = new Definitions(records, schema)
    await definitions.seed(benchActor)
    const definition = await definitions.current('honors_thesis')
    const admins = await new Approvers(store, records, schema).admins()
    const instances = new Instances(store, () => new Date())
    const students = catalog.undergraduates
    for (let i = 0; i < digestApprovers; i++) {
      const advisor = await records.create('Faculty', { first_name: 'Digest', last_name: `Approver ${i}`, email: `digest-approver-${i}@bench.example.edu` }, { actor: benchActor })
      const student = students[i % students.length]!
      const entity = await records.create('ThesisRequest', {
        student: student.id, advisor: advisor._id, title: `Digest thesis ${i}`, abstract: 'A thesis of the notification benchmark.', term: '26S', status: 'submitted',
      }, { actor: benchActor })
      const outcome = start({ definition, entity: entity._id, submitter: student.id, directory: { roles: { advisor: [advisor._id], department_admin: admins } }, now: new Date() })
      if (!outcome.ok) throw new Error(`digest request ${i}: ${outcome.reason}`)
      await instances.insert(outcome.instance, [student.id])
    }
    // These stand for requests submitted days ago, whose notices went out then: the digest is what is timed.
    await instances.markPastAsTold()
  } finally {
    await store.close()
  }
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'adks-bench-notify-'))
  const smtp = await benchSmtp()
  const receivers = await Promise.all(Array.from({ length: hooks }, () => benchReceiver()))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  // The bench is a few users polling hard: the per-user limit would answer 429 to its polls.
  const env = { NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: base, LOG_LEVEL: 'warn', SMTP_URL: smtp.url, WEBHOOK_ALLOW_PRIVATE: 'true', RATE_LIMIT_USER: '1000000' }
  let child: Awaited<ReturnType<typeof startServer>>['child'] | undefined
  try {
    const seedStarted = performance.now()
    await run(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--scale', String(scale)], env, root)
    await writeApprovers(env)
    const seedSeconds = seconds(performance.now() - seedStarted)
    const started = performance.now()
    child = (await startServer(process.execPath, ['--import', 'tsx', 'src/server.ts'], env, port, '/health', root, 3000)).child
    const config = loadConfig({ ...env, PORT: String(port) })
    const keys = await signingKeys(config)
    const auth = (email: string, role: Role) => ({ authorization: `Bearer ${signIdToken(keys, config, { sub: userIdForEmail(email), email, role_grant: role })}`, 'content-type': 'application/json' })
    const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const response = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
      const text = await response.text()
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
      return text ? JSON.parse(text) as Record<string, unknown> : {}
    }
    const admin = auth('bench-admin@bench.example.edu', 'admin')
    const queued = async () => {
      const queues = await call('GET', '/api/queues', admin) as unknown as { name: string; counts: Record<string, number> }[]
      const q = queues.find((x) => x.name === 'notifications')!
      return q.counts.waiting! + q.counts.active! + q.counts.delayed!
    }
    // The sample's requests are seeded as past, their notices told (scripts/sample/workflow-seed.ts), but
    // the overdue sweep's first run tells of those past due: wait until the sample admin, an approver
    // everywhere, gets no new notice and no send job is left before timing anything.
    const sampleAdmin = auth(sampleWorkflows(catalog, Object.fromEntries(workflowDomains.map((d) => [d, 1])) as Record<WorkflowDomainKey, number>).cast.admins[0]!.body.email as string, 'admin')
    let seen = -1
    await until(async () => {
      const total = Number((await call('GET', '/api/notifications?limit=1', sampleAdmin)).total)
      const settled = total === seen && (await queued()) === 0
      seen = total
      if (!settled) await new Promise((resolve) => setTimeout(resolve, 1000))
      return settled
    }, 'the start-up sweep', 300_000)
    const startUpSeconds = seconds(performance.now() - started)
    const sampleNotices = seen

    // Latency: one submission at a time; the advisor chose immediate email.
    const advisors = catalog.faculty.slice(0, 20)
    for (const advisor of advisors) await call('PUT', '/api/notifications/preferences', auth(advisor.body.email as string, 'faculty'), { email: 'immediate' })
    const inApp: number[] = []
    const submittedAt = new Map<string, number>()
    for (let i = 0; i < submissions; i++) {
      const student = catalog.undergraduates[i]!
      const advisor = advisors[i % advisors.length]!
      const as = auth(student.body.email as string, 'student')
      const draft = await call('POST', '/api/thesis/requests', as, { student: student.id, advisor: advisor.id, title: `Latency thesis ${i}`, abstract: 'Timed.', term: '26F' })
      const id = String(draft._id)
      await call('POST', `/api/thesis/requests/${encodeURIComponent(id)}/submit`, as, {})
      const t0 = performance.now()
      submittedAt.set(`Latency thesis ${i}`, t0)
      const watcher = auth(advisor.body.email as string, 'faculty')
      await until(async () => {
        const page = await call('GET', '/api/notifications?unread=true&limit=10', watcher) as { items: { subject: string }[] }
        return page.items.some((item) => item.subject === id)
      }, `the in-app notice of ${id}`, 60_000)
      inApp.push(performance.now() - t0)
    }
    await until(() => {
      const titles = [...submittedAt.keys()]
      return titles.every((title) => smtp.arrivals.some((a) => a.text.includes(title)))
    }, 'every latency email', 120_000)
    const email: number[] = []
    for (const [title, t0] of submittedAt) email.push(smtp.arrivals.find((a) => a.text.includes(title))!.at - t0)

    // Digest: every approver with something awaiting them and the daily preference.
    const before = smtp.arrivals.length
    const digestStarted = performance.now()
    const { jobId } = await call('POST', '/api/admin/notifications/digest', admin, { frequency: 'daily' }) as { jobId: string }
    let job: Record<string, unknown> = {}
    await until(async () => {
      job = await call('GET', `/api/admin/jobs/${encodeURIComponent(jobId)}`, admin)
      return job.state === 'completed' || job.state === 'failed'
    }, 'the digest job', 300_000)
    if (job.state !== 'completed') throw new Error(`the digest job ${String(job.state)}: ${String(job.error)}`)
    const digestMails = smtp.arrivals.slice(before)
    const digestSeconds = seconds(Math.max(performance.now(), ...digestMails.map((a) => a.at)) - digestStarted)
    const parsed = await Promise.all(digestMails.slice(0, 1).map((a) => simpleParser(a.text)))

    // Webhooks: three receivers of workflow.submitted; one event per submission.
    for (const receiver of receivers) await call('POST', '/api/webhooks', admin, { url: receiver.url, events: ['workflow.submitted'], description: 'bench' })
    // The submissions are the events' source, not what is timed: the send jobs wait in the paused queue
    // while the 1,000 events are written and fanned out, and the clock starts when it resumes.
    await call('POST', '/api/queues/notifications/pause', admin, {})
    const submitStarted = performance.now()
    let next = 0
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < webhookEvents) {
        const i = next++
        const student = catalog.undergraduates[(submissions + i) % catalog.undergraduates.length]!
        const as = auth(student.body.email as string, 'student')
        const draft = await call('POST', '/api/thesis/requests', as, { student: student.id, advisor: catalog.faculty[i % catalog.faculty.length]!.id, title: `Hooked thesis ${i}`, abstract: 'Fanned out.', term: '26F' })
        await call('POST', `/api/thesis/requests/${encodeURIComponent(String(draft._id))}/submit`, as, {})
      }
    }))
    const submittedSeconds = seconds(performance.now() - submitStarted)
    const early = receivers.reduce((n, r) => n + r.arrivals.length, 0)
    if (early) throw new Error(`${early} webhook deliveries went out while the queue was paused`)
    const hookStarted = performance.now()
    await call('POST', '/api/queues/notifications/resume', admin, {})
    await until(() => receivers.every((r) => r.arrivals.length >= webhookEvents), 'every webhook delivery', 300_000)
    const webhookSeconds = seconds(Math.max(...receivers.map((r) => r.arrivals.at(webhookEvents - 1)!)) - hookStarted)

    const result = {
      at: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), load: loadavg().map((l) => Math.round(l * 100) / 100) },
      scale, seedSeconds, startUpSeconds, sampleNotices, targets: notifyTargets,
      latency: { requests: submissions, inApp: summarize(inApp) satisfies Latency, email: summarize(email) satisfies Latency },
      digest: { approvers: digestApprovers, emails: digestMails.length, seconds: digestSeconds, result: job.result, sampleSubject: parsed[0]?.subject },
      webhooks: { events: webhookEvents, hooks, deliveries: receivers.reduce((n, r) => n + r.arrivals.length, 0), submittedSeconds, seconds: webhookSeconds },
    }
    console.log(JSON.stringify(result, null, 2))
    const met = result.latency.inApp.p95 <= notifyTargets.inAppP95Ms && result.latency.email.p95 <= notifyTargets.emailP95Ms &&
      digestSeconds <= notifyTargets.digestSeconds && webhookSeconds <= notifyTargets.webhookSeconds
    console.log(met ? 'every target met' : 'a target was missed')
    await mkdir(join(root, 'bench-results'), { recursive: true })
    await writeFile(join(root, 'bench-results', 'notify-latest.json'), `${JSON.stringify(result, null, 2)}\n`)
  } finally {
    if (child) await stop(child)
    await smtp.close()
    for (const receiver of receivers) await receiver.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
