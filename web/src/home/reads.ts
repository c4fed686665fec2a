/**
 * What the dashboard reads out of the API's answers (docs/web.md, "The dashboard"): the decisions
 * awaiting the caller and the overdue ones, from one read of the workflow instances in review rather
 * than the six queues; the sync runs an admin should look at; the request lists a student can own.
 */
import type { components } from '../api/schema.js'
import { domainKeyOf, domains, type DomainKey } from '../lib/domains.js'

type Instance = components['schemas']['WorkflowInstance']
/** What the attention list reads of a sync run, as GET /api/campus-sync/runs answers it. */
interface Run { readonly _id: string; readonly kind: string; readonly dry_run: boolean; readonly status: string; readonly errors: readonly unknown[] }

/**
 * The approvals waiting for a decision now: pending, of the current round, in the stage under way.
 * This is how the service fills each instance's pending approvers, which its queues read (docs/workflows.md).
 */
function pendingApprovals(instance: Instance) {
  const stage = instance.status === 'in_review' ? instance.stages.find((s) => s.key === instance.current_stage && s.status === 'active') : undefined
  return { stage, pending: (stage?.approvals ?? []).filter((a) => a.round === instance.round && a.status === 'pending') }
}

function pastDue(due: string | undefined, now: number): boolean {
  return due !== undefined && now > Date.parse(due)
}

export interface Awaiting {
  /** Instances awaiting one of `ids`' decisions, and how many of those are overdue. */
  readonly total: number
  readonly overdue: number
  /** The same by domain, in the order of first appearance. */
  readonly byDomain: ReadonlyMap<DomainKey, number>
  /** Instances in review whose stage under way is past its due time, whoever it waits on. */
  readonly overdueAnywhere: number
}

/**
 * Reads a page of instances in review. A decision is overdue as the queues say: its approval marked
 * overdue, or the stage's due time passed.
 */
export function awaiting(instances: readonly Instance[], ids: readonly string[], now: number): Awaiting {
  let total = 0
  let overdue = 0
  let overdueAnywhere = 0
  const byDomain = new Map<DomainKey, number>()
  for (const instance of instances) {
    const { stage, pending } = pendingApprovals(instance)
    if (!stage) continue
    if (pastDue(stage.due_at, now) || pending.some((a) => a.overdue)) overdueAnywhere++
    const mine = pending.find((a) => ids.includes(a.approver))
    if (!mine) continue
    total++
    if (mine.overdue || pastDue(stage.due_at, now)) overdue++
    const key = domainKeyOf[instance.domain]
    byDomain.set(key, (byDomain.get(key) ?? 0) + 1)
  }
  return { total, overdue, byDomain, overdueAnywhere }
}

export interface RunConcern<R extends Run> {
  readonly run: R
  /** What is wrong, in words: refused, failed, or rows in error. */
  readonly problem: string
}

/**
 * The newest real run of each kind, when it went wrong: refused (the mass-deactivation guard), failed,
 * or completed with rows in error. An older bad run that a newer one of its kind put right is history.
 */
export function runConcerns<R extends Run>(runs: readonly R[]): RunConcern<R>[] {
  const newest = new Map<string, R>()
  for (const run of runs) if (!run.dry_run && !newest.has(run.kind)) newest.set(run.kind, run)
  const concerns: RunConcern<R>[] = []
  for (const run of newest.values()) {
    if (run.status === 'refused' || run.status === 'failed') concerns.push({ run, problem: run.status })
    else if (run.errors.length > 0) concerns.push({ run, problem: `completed with ${run.errors.length === 1 ? '1 row' : `${run.errors.length} rows`} in error` })
  }
  return concerns
}

/**
 * The request lists a student's dashboard reads, by the kind of student their Person id names (ids are
 * `<Type>/<identifier>`): a thesis is an undergraduate's and a milestone a graduate student's
 * (schema/workflows.json), and students nominate no one. Another kind of student gets every list
 * they could own.
 */
export function studentDomains(personId: string): DomainKey[] {
  const type = personId.split('/')[0]
  const all: DomainKey[] = domains.map((d) => d.key).filter((d) => d !== 'award-nominations')
  if (type === 'UndergraduateStudent') return all.filter((d) => d !== 'graduate-milestones')
  if (type === 'GraduateStudent') return all.filter((d) => d !== 'thesis')
  return all
}
