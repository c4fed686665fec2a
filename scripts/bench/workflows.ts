/**
 * The approval workflows' scenario (issue 16): a thesis advisor's pending queue, and their approvals,
 * among many instances. Before the service starts, 10,000 thesis requests are written into a copy of
 * the seeded data directory, each submitted by its student through the workflow engine and stored by
 * the service's own persistence (entity and instance, as a submission writes them): 500 wait for one
 * faculty member, the bench's approver; the rest wait for the department's other faculty, and a third
 * of those are already approved. Then, against the running service, as that approver:
 * `GET /api/thesis/pending-approvals` is timed one request after another at BENCH_WORKFLOW_CONCURRENCY
 * in flight (default 4), and then `POST /api/thesis/requests/:id/approve` on as many distinct requests,
 * each the first decision on its instance, which moves it to the department stage. The targets: p95
 * of at most 10 ms for the queue and 15 ms for a decision. The bare Fastify beside it is timed the same
 * way, to show what the machine and HTTP alone cost.
 */
import { signingKeys } from '../../src/auth/keys.js'
import { signIdToken, userIdForEmail } from '../../src/auth/tokens.js'
import { loadConfig } from '../../src/config.js'
import { decide, entityStatusOf, start, type WorkflowInstance } from '../../src/domain/workflows/index.js'
import { RecordService } from '../../src/records/service.js'
import { compileSchema } from '../../src/schema/index.js'
import { openStore } from '../../src/store/open.js'
import { Approvers } from '../../src/workflows/approvers.js'
import { Definitions } from '../../src/workflows/definitions.js'
import { instanceIndexes, instancesCollection, Instances } from '../../src/workflows/persistence.js'
import { measureLatency, summarize, type Latency } from './search.js'
import type { Actor } from '../../src/actor.js'

/** The benchmark's own set-up writes, as their revisions name them. */
const benchActor: Actor = { id: 'bench', name: 'Benchmark set-up', via: 'bench' }

export const workflowBenchName = 'workflows: thesis pending queue and approvals'
export const workflowTargets = { pendingP95: 10, approveP95: 15 } as const

const total = 10_000
const approverOpen = 500
const concurrency = Number(process.env.BENCH_WORKFLOW_CONCURRENCY ?? 4)
/**
 * Requests of each kind measured, after a tenth as many unmeasured; BENCH_WORKFLOW_REQUESTS lowers it
 * where a request takes seconds (FerretDB at scale 100).
 */
const measured = Number(process.env.BENCH_WORKFLOW_REQUESTS ?? 400)

export interface WorkflowBench {
  readonly instances: number
  readonly approverOpen: number
  readonly concurrency: number
  readonly seedSeconds: number
  readonly pending: Latency
  readonly approve: Latency
  readonly bare: Latency
}

interface Seeded {
  readonly approverEmail: string
  /** The approver's requests, oldest first, to approve one by one. */
  readonly approverRequests: readonly string[]
  readonly seconds: number
}

/**
 * Writes the scenario's 10,000 thesis requests into `dataDir`, which holds the seeded sample
 * department and is not open in any other process.
 */
export async function seedWorkflowBench(env: Record<string, string>): Promise<Seeded> {
  const started = performance.now()
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
    if (!admins.length) throw new Error('the seeded department has no admin for the thesis department stage')
    const faculty = await records.find(schema.class('Faculty')!, { type: 'Faculty' }, { sort: [['_id', 1]], limit: 40 })
    const students = await records.find(schema.class('UndergraduateStudent')!, { type: 'UndergraduateStudent' }, { sort: [['_id', 1]], limit: 300 })
    const [approver, ...others] = faculty
    const clock = { at: Date.now() - 30 * 86_400_000 }
    const instances = new Instances(store, () => new Date(clock.at))
    const approverRequests: string[] = []
    for (let i = 0; i < total; i++) {
      // Every twentieth request is the approver's; a third of the others are approved already.
      const mine = i % (total / approverOpen) === 0
      const advisor = mine ? approver! : others[i % others.length]!
      const student = students[i % students.length]!
      clock.at += 1000
      const entity = await records.create('ThesisRequest', {
        student: student._id, advisor: advisor._id, title: `Benchmark thesis ${i}`, abstract: 'A thesis of the workflow benchmark.', term: '26S', status: 'draft',
      }, { actor: benchActor })
      const directory = { roles: { advisor: [advisor._id], department_admin: admins } }
      const now = new Date(clock.at)
      let outcome = start({ definition, entity: entity._id, submitter: student._id, directory, now })
      if (!mine && i % 3 === 0) {
        for (const actor of [advisor._id, admins[0]!]) {
          if (!outcome.ok) break
          outcome = decide(outcome.instance, definition, { actor: { id: actor }, decision: 'approve', directory, now })
        }
      }
      if (!outcome.ok) throw new Error(`bench request ${i}: ${outcome.reason}`)
      const instance: WorkflowInstance = outcome.instance
      await instances.insert(instance, [student._id])
      await records.update(entity._id, { status: entityStatusOf(instance) }, { actor: benchActor })
      if (mine) approverRequests.push(entity._id)
    }
    // The scenario times the queue among requests long submitted, whose notices went out long ago: none
    // is left in the outbox for the service's start-up sweep to send while the queue is timed.
    await instances.markPastAsTold()
    return { approverEmail: approver!.email as string, approverRequests, seconds: (performance.now() - started) / 1000 }
  } finally {
    await store.close()
  }
}

/** A faculty member's bearer token for a service on `port`. */
async function facultyAuth(env: Record<string, string>, port: number, email: string): Promise<Record<string, string>> {
  const config = loadConfig({ ...env, PORT: String(port) })
  const token = signIdToken(await signingKeys(config), config, { sub: userIdForEmail(email), email, role_grant: 'faculty' })
  return { authorization: `Bearer ${token}` }
}

/** Each request once, `concurrency` in flight, timed from send to the end of the body; any non-2xx counts as an error. */
async function timedPosts(urls: readonly string[], headers: Record<string, string>): Promise<{ latencies: number[]; errors: number }> {
  const latencies: number[] = []
  let errors = 0
  let next = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < urls.length) {
      const url = urls[next++]!
      const started = performance.now()
      const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ stage: 'advisor' }) })
      await response.text()
      latencies.push(performance.now() - started)
      if (!response.ok) errors++
    }
  }))
  return { latencies, errors }
}

/** Measures the running service (seeded by seedWorkflowBench) and the bare baseline beside it. */
export async function benchWorkflows(base: string, bareUrl: string, env: Record<string, string>, port: number, seeded: Seeded): Promise<WorkflowBench> {
  const headers = await facultyAuth(env, port, seeded.approverEmail)
  const queue = `${base}/api/thesis/pending-approvals`
  const first = await fetch(queue, { headers })
  const answer = await first.json() as { total?: number }
  if (answer.total !== approverOpen) throw new Error(`the approver's queue holds ${answer.total ?? JSON.stringify(answer)}, not ${approverOpen}`)
  const options = { concurrency, rounds: measured, warmup: measured / 10 }
  const pending = await measureLatency([queue], headers, options)
  const bare = await measureLatency([bareUrl], {}, options)
  const approveUrl = (id: string) => `${base}/api/thesis/requests/${encodeURIComponent(id)}/approve`
  const warm = seeded.approverRequests.slice(0, measured / 10).map(approveUrl)
  const timed = seeded.approverRequests.slice(measured / 10, measured / 10 + measured).map(approveUrl)
  await timedPosts(warm, headers)
  const { latencies, errors } = await timedPosts(timed, headers)
  return { instances: total, approverOpen, concurrency, seedSeconds: seeded.seconds, pending, approve: summarize(latencies, errors), bare }
}

/** The scenario's lines of the report. */
export function workflowReport(b: WorkflowBench | null): string[] {
  if (!b) return []
  const verdict = (p95: number, target: number) => `target p95 ≤ ${target} ms: ${p95 <= target ? 'met' : 'missed'}`
  const row = (name: string, l: Latency, target: string) => `| ${name} | ${l.requests} | ${l.p50} | ${l.p95} | ${l.p99} | ${l.max} | ${l.errors} | ${target} |`
  return [
    `Approval workflows: ${b.instances.toLocaleString('en-US')} thesis requests (written in ${b.seedSeconds.toFixed(0)} s before the start), ` +
    `${b.approverOpen} of them waiting for one advisor; ${b.concurrency} requests in flight, as that advisor:`,
    '',
    '| request | requests | p50 ms | p95 ms | p99 ms | max ms | errors | target |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    row('GET /api/thesis/pending-approvals', b.pending, verdict(b.pending.p95, workflowTargets.pendingP95)),
    row('POST /api/thesis/requests/:id/approve', b.approve, verdict(b.approve.p95, workflowTargets.approveP95)),
    row('bare Fastify: GET / (timed the same way)', b.bare, ''),
    '',
  ]
}
