import { buildModel } from '../schema/check.js'
import { CompiledSchema } from '../schema/index.js'
import type { Store } from '../store/port.js'
import { schemaChanges } from './changes.js'
import { changeReport, checkChanges, type CheckedChange } from './check.js'
import { storedSchema, storeSchema } from './state.js'

/** What start-up would do, or did: the schema files against the store's. */
export interface SchemaPlan {
  /** `first`: the store had no schema yet and takes the files'; `same`: nothing changed. */
  readonly status: 'first' | 'same' | 'applies' | 'refused'
  readonly from?: string
  readonly to: string
  readonly changes: readonly CheckedChange[]
}

/** A schema change start-up will not apply: stored records would break. The message is the whole report. */
export class SchemaChangeRefused extends Error {
  override name = 'SchemaChangeRefused'
  constructor(readonly plan: SchemaPlan) {
    super(changeReport(plan.changes))
  }
}

/** Compares the files' schema with the store's and checks the changes against the records; changes nothing. */
export async function planSchema(store: Store, schema: CompiledSchema): Promise<SchemaPlan> {
  const stored = await storedSchema(store)
  if (!stored) return { status: 'first', to: schema.hash, changes: [] }
  if (stored.hash === schema.hash) return { status: 'same', from: stored.hash, to: schema.hash, changes: [] }
  const was = new CompiledSchema(buildModel(stored.files), stored.files)
  const changes = await checkChanges(store, was, schema, schemaChanges(was.model, schema.model))
  return { status: changes.some((c) => c.breaks > 0) ? 'refused' : 'applies', from: stored.hash, to: schema.hash, changes }
}

/**
 * At start-up (DESIGN 3.2): the store learns the files' schema at its first start; later, a changed
 * schema applies when no stored record breaks (compatible changes never do) and is recorded with what
 * changed, and otherwise start-up stops with the report.
 */
export async function reconcileSchema(store: Store, schema: CompiledSchema, now: Date = new Date()): Promise<SchemaPlan> {
  const plan = await planSchema(store, schema)
  if (plan.status === 'refused') throw new SchemaChangeRefused(plan)
  if (plan.status === 'first') await storeSchema(store, schema.source, schema.hash, now)
  if (plan.status === 'applies') await storeSchema(store, schema.source, schema.hash, now, { from: plan.from!, changes: plan.changes.map((c) => c.text) })
  return plan
}
