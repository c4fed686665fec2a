import type { Actor } from '../actor.js'
import { diff } from '../history/patch.js'
import { revisionId, type Revision, type RevisionOp } from '../history/revision.js'
import type { HistoryWrites } from '../history/writes.js'
import { derivedFields, internalFields } from '../records/derived.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'
import type { Doc, Store } from '../store/port.js'
import { SchemaEvolutionError } from './errors.js'
import { classIn, type Models, type Operation, type State } from './operations.js'

/**
 * The classes the service's own code reads and writes by name (its routes, workflows, sync, audits and
 * privacy rules). Renaming or deleting one would leave the code asking for a class that is gone, so a
 * migration may do neither; test/migrations/classes.test.ts holds this list to the code.
 */
export const codeNamedClasses: ReadonlySet<string> = new Set([
  'ApiKey', 'AwardNomination', 'Course', 'Degree', 'Enrollment', 'Faculty', 'FellowshipApplication', 'GraduateMilestone',
  'GraduateStudent', 'Group', 'IndependentResearchRequest', 'Lab', 'LegacyApproval', 'MajorPlanApproval', 'Person',
  'Publication', 'PublicationImportResult', 'PublicationImportRun', 'RejectedWork', 'RequirementGroup', 'RequirementRule', 'Section', 'Staff',
  'StageInstance', 'Student', 'StudentPlan', 'SyncConfig', 'SyncRun', 'SyncWatermark', 'ThesisRequest',
  'UndergraduateStudent', 'User', 'Workflow', 'WorkflowEntity', 'WorkflowInstance',
])

/** A class operation the schemas do not allow: the message says why. */
export class ClassOperationRefused extends SchemaEvolutionError {
  override name = 'ClassOperationRefused'
}

/** A class whose records are stored under ids of its own name: the only kind whose ids a rename can carry. */
function storedLeaf(cls: ClassDef | undefined): boolean {
  return cls !== undefined && !cls.abstract && !cls.subdocument && cls.metadata.collection !== undefined && cls.concrete.length === 1
}

/** Refuses, before anything is read, a rename or deletion of a class the schemas or the code rule out. */
export function assertClassOperations(migration: string, operations: readonly Operation[], models: Models): void {
  for (const op of operations) {
    if (op.op !== 'rename_class' && op.op !== 'delete_class') continue
    const name = op.op === 'rename_class' ? op.from : op.class
    const refuse = (why: string) => {
      throw new ClassOperationRefused(`migration ${migration}: ${op.op} ${name}: ${why}; nothing was changed`)
    }
    if (codeNamedClasses.has(name)) refuse(`the service's own code reads and writes ${name} records by that name, so the class keeps it (change its documentation or path instead)`)
    const cls = models.was.classes.get(name)
    if (!cls) refuse(`the stored schema has no class ${name}`)
    if (!storedLeaf(cls)) refuse(`only a class whose records are stored under its own name (not abstract, no subclasses, not a subdocument) can be ${op.op === 'rename_class' ? 'renamed' : 'deleted'}`)
    if (models.is.classes.has(name)) refuse(`the schema files still define ${name}`)
    if (op.op === 'rename_class') {
      if (models.was.classes.has(op.to)) refuse(`the stored schema already has a class ${op.to}`)
      const target = models.is.classes.get(op.to)
      if (!storedLeaf(target)) refuse(`the schema files define no class ${op.to} whose records are stored under its own name`)
      // The key part of each id is kept; a key made another way would make ids the class cannot have.
      if (JSON.stringify(target!.key) !== JSON.stringify(cls!.key)) refuse(`${op.to} has another @key than ${name}, and a rename keeps each record's key`)
    }
  }
}

/** What a class operation writes with. */
export interface ClassWriter {
  readonly store: Store
  readonly history: HistoryWrites
  readonly is: CompiledSchema
  readonly models: Models
  readonly actor: Actor
  readonly now: () => Date
}

function served(doc: Readonly<State>): State {
  const record: State = { ...doc }
  for (const field of internalFields) delete record[field]
  return record
}

function revisionOf(w: ClassWriter, cls: ClassDef, id: string, version: number, op: RevisionOp, before: State, after: State, at: string): Revision {
  return {
    _id: revisionId(id, version), record: id, collection: cls.metadata.collection!, type: cls.name, version, at,
    actor: w.actor.id, ...(w.actor.name ? { actor_name: w.actor.name } : {}), via: w.actor.via, op,
    patch: diff(served(before), served(after)),
    ...(op === 'delete' ? { trashed: true as const } : {}),
  }
}

/** The record's outbox revision written, where a crash left one, so the record's history is whole before it moves. */
async function settled(w: ClassWriter, collection: string, doc: Doc): Promise<void> {
  const pending = doc._revision as Revision | undefined
  if (pending) await w.history.settle(w.store.collection(collection), pending)
}

/** The field an old record keeps its content in while it moves, its unique values given up for the new one. */
const movingField = '_moving'

/**
 * Moves a record of a renamed class to its id under the new name, its history with it. Each step is
 * safe to repeat, so a migration cut short anywhere resumes cleanly, on a store with transactions or
 * without: the revisions are copied to the new id; the old record gives up its unique values (the new
 * one, often in the same collection, takes them), keeping its content in `_moving`; the record is
 * written under the new id with a revision of the move; then the old record and revisions go.
 * `transform` makes the new record from the old one's content.
 */
export async function moveRecord(w: ClassWriter, doc: Doc, transform: (record: State) => State | null): Promise<void> {
  const from = classIn(w.models, String(doc.type))!
  const old = w.store.collection(from.metadata.collection!)
  const content = (doc[movingField] as State | undefined) ?? served(doc)
  const moved = transform(content)
  if (!moved) throw new Error(`${doc._id}: a renamed record cannot also be deleted`)
  const target = w.is.class(String(moved.type))!
  const to = String(moved._id)
  const collection = w.store.collection(target.metadata.collection!)
  await settled(w, old.name, doc)
  const revisions = w.history.revisions
  for (const revision of await revisions.find({ record: doc._id })) {
    const copy: Revision = { ...revision, _id: revisionId(to, revision.version), record: to, type: target.name, collection: collection.name }
    await revisions.upsertOne({ _id: copy._id }, copy)
  }
  if (!(await collection.findById(to))) {
    if (!doc[movingField]) {
      const indexes = [...from.metadata.indexes, ...w.is.collections.find((c) => c.name === old.name)?.indexes ?? []]
      const unique = [...new Set(indexes.filter((index) => index.unique).flatMap((index) => index.fields))].filter((field) => field !== '_id')
      await old.updateOne({ _id: doc._id }, { $set: { [movingField]: content }, ...(unique.length ? { $unset: Object.fromEntries(unique.map((field) => [field, true as const])) } : {}) })
    }
    const at = w.now().toISOString()
    const next: Doc = { ...moved, ...derivedFields(target, moved), _id: to, _version: Number(content._version) + 1, _updated_at: at }
    await w.history.insert(collection, next, revisionOf(w, target, to, Number(next._version), 'update', content, next, at))
  }
  await old.deleteOne({ _id: doc._id })
  await revisions.deleteMany({ record: doc._id })
}

/** Deletes a record of a deleted class, into the trash where the class kept history (its content stays readable there). */
export async function deleteRecord(w: ClassWriter, doc: Doc): Promise<void> {
  const cls = w.models.was.classes.get(String(doc.type))!
  const collection = w.store.collection(cls.metadata.collection!)
  if (cls.metadata.history === false) {
    await collection.deleteOne({ _id: doc._id })
    return
  }
  await settled(w, collection.name, doc)
  const current = await collection.findById(doc._id)
  if (!current) return
  const version = Number(current._version)
  const removed = await w.history.remove(collection, { ...current, _version: version }, revisionOf(w, cls, doc._id, version + 1, 'delete', current, {}, w.now().toISOString()))
  if (!removed) throw new ClassOperationRefused(`${doc._id} changed while its class was being deleted; run the migration again`)
}
