import { SchemaEvolutionError } from './errors.js'
import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Actor } from '../actor.js'
import { internalFields } from '../records/derived.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import { SchemaError } from '../schema/index.js'
import type { Doc, Store } from '../store/port.js'
import { assertClassOperations, deleteRecord, moveRecord, type ClassWriter } from './classes.js'
import { applyOperations, classIn, classesOf, mapProperties, Operation, type Models, type State } from './operations.js'
import { schemaStateCollection } from './state.js'

/** One file of `schema/migrations`: `NNNN-<name>.json`, applied once, in the order of the names. */
export interface Migration {
  readonly name: string
  readonly operations: readonly Operation[]
}

const MigrationFile = Type.Object({ description: Type.Optional(Type.String()), operations: Type.Array(Operation, { minItems: 1 }) }, { additionalProperties: false })
const namePattern = /^(\d{4})-([a-z0-9][a-z0-9-]*)\.json$/
const batch = 500
const migrationsId = 'migrations'

interface MigrationsState extends Doc {
  readonly applied?: readonly string[]
  readonly running?: { readonly name: string; readonly done: number; readonly total: number }
}

/** The migrations in `<schemaDir>/migrations`, checked; a malformed one stops start-up as a schema error does. */
export async function loadMigrations(schemaDir: string): Promise<Migration[]> {
  const dir = join(schemaDir, 'migrations')
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).sort()
  const migrations: Migration[] = []
  for (const file of names) {
    if (!namePattern.test(file)) throw new SchemaError(`migrations/${file}`, undefined, 'a migration file is named NNNN-<name>.json (lower case, digits and dashes)')
    let parsed: unknown
    try {
      parsed = JSON.parse(await readFile(join(dir, file), 'utf8'))
    } catch (error) {
      throw new SchemaError(`migrations/${file}`, undefined, `not valid JSON: ${(error as Error).message}`)
    }
    const error = [...Value.Errors(MigrationFile, parsed)][0]
    if (error) throw new SchemaError(`migrations/${file}`, undefined, `${error.path || '/'}: ${error.message}`)
    migrations.push({ name: file.replace(/\.json$/, ''), operations: (parsed as { operations: Operation[] }).operations })
  }
  return migrations
}

/** Records migrations as applied without running them: at a store's first start its records are already of the files' schema. */
export async function markApplied(store: Store, migrations: readonly Migration[]): Promise<void> {
  if (!migrations.length) return
  const state = store.collection<MigrationsState>(schemaStateCollection)
  const current = await state.findById(migrationsId)
  await state.upsertOne({ _id: migrationsId }, { _id: migrationsId, applied: [...new Set([...current?.applied ?? [], ...migrations.map((m) => m.name)])] })
}

/** The migrations not yet applied to this store, in order. */
export async function pendingMigrations(store: Store, migrations: readonly Migration[]): Promise<Migration[]> {
  const state = await store.collection<MigrationsState>(schemaStateCollection).findById(migrationsId)
  const applied = new Set(state?.applied ?? [])
  return migrations.filter((m) => !applied.has(m.name))
}

function asServed(doc: Doc): Record<string, unknown> {
  const record: Record<string, unknown> = { ...doc }
  for (const field of internalFields) delete record[field]
  return record
}

/** Records of the classes the migrations change, a batch at a time. */
async function* affected(store: Store, models: Models, migrations: readonly Migration[]): AsyncIterable<Doc[]> {
  const classes = new Set(migrations.flatMap((m) => m.operations.flatMap((op) => classesOf(op, models))))
  const collections = new Set([...classes].map((name) => classIn(models, name)!.metadata.collection!))
  for (const collection of collections) {
    let after = ''
    for (;;) {
      const docs = await store.collection(collection).find({ _id: { $gt: after } }, { sort: [['_id', 1]], limit: batch })
      const mine = docs.filter((doc) => classes.has(String(doc.type)))
      if (mine.length) yield mine
      if (docs.length < batch) break
      after = docs[docs.length - 1]!._id
    }
  }
}

/**
 * Whether the stored schema already refused the record (one a writer outside the record service keeps
 * with fields of its own, say): not a migration's to mend, so it neither checks nor rewrites it.
 */
function refusedAsStored(was: CompiledSchema, doc: Doc): boolean {
  const type = String(doc.type)
  return was.class(type) !== undefined && was.validators.problem(type, 'record', asServed(doc)) !== undefined
}

function modelsOf(was: CompiledSchema, is: CompiledSchema): Models {
  return { was: was.model, is: is.model }
}

/** The first reference the record still holds to a record of a deleted class, as a complaint. */
function danglingReference(record: State, models: Models, deleted: ReadonlySet<string>): string | undefined {
  let found: string | undefined
  mapProperties(record, classIn(models, String(record.type)), models, (prop, value) => {
    if (!found && prop.target.kind === 'reference' && typeof value === 'string' && deleted.has(value.slice(0, value.indexOf('/')))) {
      found = `'${prop.name}' still refers to ${value}, whose class delete_class removes`
    }
    return value
  })
  return found
}

/** A migration refused whole: after it some records would be invalid under the files' schema. */
export class MigrationRefused extends SchemaEvolutionError {
  override name = 'MigrationRefused'
}

/**
 * Checks the migrations against every record they touch, changing nothing: each record, run through
 * all of them in order, must be valid under the files' schema (`is`). A record the stored schema
 * already refused is not theirs to mend and is left out. Returns how many records they change.
 */
export async function checkMigrations(store: Store, was: CompiledSchema, is: CompiledSchema, migrations: readonly Migration[]): Promise<number> {
  const models = modelsOf(was, is)
  for (const m of migrations) assertClassOperations(m.name, m.operations, models)
  const deleted = new Set(migrations.flatMap((m) => m.operations.flatMap((op) => (op.op === 'delete_class' ? [op.class] : []))))
  const operations = migrations.flatMap((m) => m.operations)
  let changed = 0
  const broken: string[] = []
  let problem = ''
  for await (const docs of affected(store, models, migrations)) {
    for (const doc of docs) {
      const before = asServed(doc)
      const record = applyOperations(before, operations, models)
      if (record !== before) changed++
      if (record === null || refusedAsStored(was, doc)) continue
      const complaint = is.class(String(record.type)) ? is.validators.problem(String(record.type), 'record', record) ?? danglingReference(record, models, deleted) : `the class ${String(record.type)} is gone`
      if (complaint) {
        if (!broken.length) problem = complaint
        broken.push(doc._id)
      }
    }
  }
  if (broken.length) {
    throw new MigrationRefused(`migrations ${migrations.map((m) => m.name).join(', ')} would leave ${broken.length} record${broken.length === 1 ? '' : 's'} invalid (${broken.slice(0, 5).join(', ')}${broken.length > 5 ? ', …' : ''}): ${problem}; nothing was changed`)
  }
  return changed
}

/**
 * Applies the migrations in order, each record through the record service (its revision by
 * `migration:<name>`), a batch at a time, with progress stored. Every operation changes only what is
 * still as before it, so a run cut short and started again applies nothing twice. A record of a renamed
 * or deleted class, which the record service (of the files' schema) no longer knows, is moved or
 * deleted with its revision here (classes.ts).
 */
export async function applyMigrations(store: Store, records: RecordService, was: CompiledSchema, is: CompiledSchema, migrations: readonly Migration[], progress?: (name: string, done: number) => void): Promise<void> {
  const state = store.collection<MigrationsState>(schemaStateCollection)
  const models = modelsOf(was, is)
  for (const migration of migrations) {
    const actor: Actor = { id: `migration:${migration.name}`, name: `Migration ${migration.name}`, via: 'schema:migrate' }
    const writer: ClassWriter = { store, history: records.history, is, models, actor, now: () => new Date() }
    const transform = (record: State) => applyOperations(record, migration.operations, models)
    let done = 0
    for await (const docs of affected(store, models, [migration])) {
      const kept = docs.filter((doc) => is.class(String(doc.type)) && !refusedAsStored(was, doc))
      await records.rewriteMany(kept, (record) => transform(record) ?? record, { actor })
      for (const doc of docs) {
        if (is.class(String(doc.type))) continue
        if (transform(asServed(doc)) === null) await deleteRecord(writer, doc)
        else await moveRecord(writer, doc, (record) => transform(record))
      }
      done += docs.length
      await state.upsertOne({ _id: migrationsId }, { _id: migrationsId, running: { name: migration.name, done, total: done } })
      progress?.(migration.name, done)
    }
    await markApplied(store, [migration])
    await state.updateOne({ _id: migrationsId }, { $unset: { running: true } })
  }
}
