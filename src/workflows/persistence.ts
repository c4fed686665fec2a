import { pendingApprovals, type Outcome, type Refusal, type WorkflowInstance } from '../domain/workflows/index.js'
import { PermissionDenied, ValidationFailed } from '../errors.js'
import type { Collection, IndexSpec, Store } from '../store/port.js'
import { WorkflowConflictError } from './errors.js'
import type { StoredInstance } from './types.js'

export const instancesCollection = 'workflow_instances'

/**
 * Beyond the schema's: the pending queue reads `pending_approvers` (one approver's few hundred open
 * instances out of many thousands, narrowed by the index and sorted by `submitted_at` as read); lists
 * and visibility read `participants`; the repair sweep reads `status`.
 */
export const instanceIndexes: readonly IndexSpec[] = [
  { fields: ['pending_approvers'] }, { fields: ['participants'] }, { fields: ['status'] }, { fields: ['events_pending'] },
]

/**
 * The outbox fields (docs/notifications.md): history entries from `events_relayed` on are events not yet relayed,
 * and `events_pending` (indexed) finds such instances. Both are written in the same compare-and-set as
 * the entries; the relay clears the flag by a write conditional on the version it read, so an entry
 * written meanwhile keeps it set. An instance stored before there were events starts relaying from its
 * next entry, not its whole past.
 */
function outbox(current: Pick<StoredInstance, 'history' | 'events_relayed'> | null, next: WorkflowInstance): Pick<StoredInstance, 'events_pending' | 'events_relayed'> | Record<string, never> {
  if (current && next.history.length === current.history.length) return {}
  return { events_pending: true, events_relayed: current ? current.events_relayed ?? current.history.length : 0 }
}

/** An entity has one instance, ever: its id follows from the entity's, so two submits meet on one record. */
export function instanceIdOf(entityId: string): string {
  return `WorkflowInstance/${entityId.replace('/', '.')}`
}

/** The query fields a write keeps in step with the engine's fields. */
function derived(instance: WorkflowInstance, before: readonly string[] = []): Pick<StoredInstance, 'pending_approvers' | 'participants'> {
  const participants = new Set([...before, instance.submitter])
  for (const stage of instance.stages) {
    for (const approval of stage.approvals) {
      participants.add(approval.approver)
      if (approval.on_behalf_of !== undefined) participants.add(approval.on_behalf_of)
    }
  }
  return {
    pending_approvers: [...new Set(pendingApprovals(instance).map((a) => a.approver))],
    participants: [...participants],
  }
}

function engineFields(instance: WorkflowInstance): WorkflowInstance {
  const { workflow, workflow_version, domain, entity, submitter, excluded, status, round, current_stage, stages, history } = instance
  return { workflow, workflow_version, domain, entity, submitter, excluded, status, round, current_stage, stages, history }
}

/** A refusal of the engine as the service's error; a conflict carries the instance as it is now. */
export function refusalError(refusal: Refusal, current: StoredInstance | null): Error {
  switch (refusal.code) {
    case 'forbidden': return new PermissionDenied(refusal.reason)
    case 'conflict': return new WorkflowConflictError(refusal.reason, current)
    // A stage the caller named that the workflow lacks is a fault of the request, named by its field.
    case 'invalid': case 'not_found': return new ValidationFailed(refusal.field ? `${refusal.field}: ${refusal.reason}` : refusal.reason)
  }
}

export interface Acted {
  readonly instance: StoredInstance
  /** False when the action repeated one already taken (the same answer, nothing written). */
  readonly applied: boolean
}

/**
 * Instances, each written only by a compare-and-set on `_version` (no transaction, the same on both
 * adapters): of any number of concurrent actions on one instance, each is applied exactly once or
 * answered 409 with the instance's current state.
 */
export class Instances {
  private readonly written: ((instance: StoredInstance) => void)[] = []

  constructor(private readonly store: Store, private readonly now: () => Date) {}

  /** Calls `listener` after every write that added history (the outbox's new entries), once it has landed. */
  onHistory(listener: (instance: StoredInstance) => void): void {
    this.written.push(listener)
  }

  private landed(instance: StoredInstance): StoredInstance {
    for (const listener of this.written) listener(instance)
    return instance
  }

  get collection(): Collection<StoredInstance & { [field: string]: unknown }> {
    return this.store.collection(instancesCollection)
  }

  byId(id: string): Promise<StoredInstance | null> {
    return this.collection.findById(id)
  }

  ofEntity(entityId: string): Promise<StoredInstance | null> {
    return this.byId(instanceIdOf(entityId))
  }

  /**
   * Stores a new instance; a DuplicateKeyError when the entity already has one. `owners` (the entity's
   * student, applicant or nominator) see it as participants do.
   */
  async insert(instance: WorkflowInstance, owners: readonly string[] = []): Promise<StoredInstance> {
    const at = this.now().toISOString()
    const doc: StoredInstance = {
      _id: instanceIdOf(instance.entity), type: 'WorkflowInstance', ...engineFields(instance), ...derived(instance, owners),
      submitted_at: at, _version: 1, _created_at: at, _updated_at: at, ...outbox(null, instance),
    }
    await this.collection.insertOne({ ...doc })
    return this.landed(doc)
  }

  /**
   * Takes every unrelayed history entry as already told, as for an instance stored before the outbox:
   * for data loaded as the past (the sample department, a benchmark's requests), whose notices are
   * not to go out when the service next starts. Answers how many instances it changed.
   */
  markPastAsTold(): Promise<number> {
    return this.collection.updateMany({ events_pending: true }, { $set: { events_pending: false }, $unset: { events_relayed: true } })
  }

  /** Writes `next` over `current` if nobody wrote since `current` was read; null when someone did. */
  async save(current: StoredInstance, next: WorkflowInstance): Promise<StoredInstance | null> {
    const events = outbox(current, next)
    const saved = await this.collection.updateOne({ _id: current._id, _version: current._version }, {
      $set: { ...engineFields(next), ...derived(next, current.participants), ...events, _updated_at: this.now().toISOString() },
      $inc: { _version: 1 },
    })
    return saved && 'events_pending' in events ? this.landed(saved) : saved
  }

  /**
   * Runs an engine action on the instance and writes its result. A lost race reloads and runs the
   * action once more on what won (so a repeat of the winner's action is answered as a repeat); losing
   * again is a 409 with the instance's current state. A refusal is thrown as the service's error.
   * `read`: the instance as the caller just read it, so a write that meets no race reads it only once.
   */
  async act(id: string, run: (current: StoredInstance) => Outcome<StoredInstance>, read?: StoredInstance): Promise<Acted> {
    let current = read ?? await this.byId(id)
    for (let attempt = 0; attempt < 2 && current; attempt++) {
      const outcome = run(current)
      if (!outcome.ok) throw refusalError(outcome, current)
      if (!outcome.applied) return { instance: current, applied: false }
      const saved = await this.save(current, outcome.instance)
      if (saved) return { instance: saved, applied: true }
      current = await this.byId(id)
    }
    if (!current) throw new WorkflowConflictError('the instance no longer exists', null)
    throw new WorkflowConflictError('someone else acted on this instance at the same moment; read it again', current)
  }
}
