import { derivedFields } from '../../src/records/derived.js'
import { referencesIn } from '../../src/records/references.js'
import type { ClassDef, CompiledSchema } from '../../src/schema/index.js'
import { makeKey } from '../../src/schema/keys.js'
import { idKeyPattern } from '../../src/schema/typebox.js'
import { DuplicateKeyError, type Doc, type Store } from '../../src/store/port.js'
import type { SampleDepartment, SampleRecord } from './index.js'
import { SeedError } from './seed-store.js'

export interface BulkOptions {
  /** Documents per insertMany. */
  readonly batch?: number
  /** The records' creation time. */
  readonly now?: Date
}

const keyShape = new RegExp(`^${idKeyPattern}$`)

interface Prepared {
  readonly record: SampleRecord
  readonly collection: string
  readonly doc: Doc
  readonly refs: readonly { readonly field: string; readonly id: string }[]
}

/**
 * A record as the record service's create would store it: validated with the compiled schema, list
 * fields defaulted to [], the id derived from its key (which must be the one the generator predicted,
 * since other records already refer to it), version 1 and the derived lookup fields.
 */
function prepare(schema: CompiledSchema, record: SampleRecord, stamp: string): Prepared {
  const cls: ClassDef | undefined = schema.class(record.className)
  if (!cls || cls.abstract || cls.subdocument || !cls.metadata.collection) throw new SeedError(record, `unknown record type ${record.className}`)
  const problem = schema.validators.problem(cls.name, 'create', record.body)
  if (problem) throw new SeedError(record, problem)
  if (record.key !== undefined && !keyShape.test(record.key)) throw new SeedError(record, `'${record.key}' is not a valid identifier`)
  const { type: _type, ...fields } = record.body
  for (const prop of cls.properties) {
    if (prop.kind !== 'required' && prop.kind !== 'optional') fields[prop.name] ??= []
  }
  const id = `${cls.name}/${record.key ?? makeKey(cls, fields)}`
  if (id !== record.id) throw new SeedError(record, `would be stored as ${id}`)
  const doc = { _id: id, type: cls.name, ...fields, _version: 1, _created_at: stamp, _updated_at: stamp, ...derivedFields(cls, fields) }
  return { record, collection: cls.metadata.collection, doc, refs: referencesIn(schema, cls, fields) }
}

/** Fails with the first record of the stage that refers to an id not in the store. */
async function assertReferencesExist(store: Store, schema: CompiledSchema, stage: readonly Prepared[]): Promise<void> {
  const wanted = new Map<string, Set<string>>()
  for (const { record, refs } of stage) {
    for (const ref of refs) {
      const collection = schema.classOfId(ref.id)?.metadata.collection
      if (!collection) throw new SeedError(record, `'${ref.field}' refers to ${ref.id}, which is not a record id`)
      let ids = wanted.get(collection)
      if (!ids) wanted.set(collection, (ids = new Set()))
      ids.add(ref.id)
    }
  }
  const existing = new Set<string>()
  for (const [collection, ids] of wanted) {
    const list = [...ids]
    for (let at = 0; at < list.length; at += 5000) {
      const found = await store.collection(collection).find({ _id: { $in: list.slice(at, at + 5000) } }, { omit: ['_search'] })
      for (const doc of found) existing.add(doc._id)
    }
  }
  for (const { record, refs } of stage) {
    const missing = refs.find((ref) => !existing.has(ref.id))
    if (missing) throw new SeedError(record, `'${missing.field}' refers to ${missing.id}, which does not exist`)
  }
}

/**
 * Writes the department with the store's insertMany, a batch at a time: every record passes the record
 * service's checks (the same schema validation, reference check and id derivation), but a stage's
 * references are looked up together and its documents written in batches rather than one round trip
 * each, which at scale 100 is the difference between minutes and an hour. Nothing listens to these
 * writes: the seed runs before the service starts. Returns the number of records written per class.
 */
export async function seedDepartmentInBulk(store: Store, schema: CompiledSchema, department: SampleDepartment, options: BulkOptions = {}): Promise<Record<string, number>> {
  const batch = options.batch ?? 2000
  const stamp = (options.now ?? new Date()).toISOString()
  const counts: Record<string, number> = {}
  for (const records of department.stages) {
    const stage = records.map((record) => prepare(schema, record, stamp))
    await assertReferencesExist(store, schema, stage)
    const byCollection = new Map<string, Prepared[]>()
    for (const prepared of stage) {
      let list = byCollection.get(prepared.collection)
      if (!list) byCollection.set(prepared.collection, (list = []))
      list.push(prepared)
    }
    for (const [collection, list] of byCollection) {
      for (let at = 0; at < list.length; at += batch) {
        const chunk = list.slice(at, at + batch)
        try {
          await store.collection(collection).insertMany(chunk.map((p) => p.doc))
        } catch (error) {
          if (!(error instanceof DuplicateKeyError)) throw error
          throw new SeedError(chunk[0]!.record, `a record of this batch of ${chunk.length} is already stored (${error.message})`, { cause: error })
        }
        for (const { record } of chunk) counts[record.className] = (counts[record.className] ?? 0) + 1
      }
    }
  }
  return counts
}
