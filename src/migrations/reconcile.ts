import { SchemaEvolutionError } from './errors.js'
import { buildModel } from '../schema/check.js'
import { CompiledSchema } from '../schema/index.js'
import type { Store } from '../store/port.js'
import { schemaChanges } from './changes.js'
import { changeReport, checkChanges, type CheckedChange } from './check.js'
import { hostname } from 'node:os'
import { storedSchema, storeSchema, withMigrationLease } from './state.js'
import { applyMigrations, checkMigrations, markApplied, MigrationRefused, pendingMigrations, type Migration } from './apply.js'
import type { RecordService } from '../records/service.js'

/** What start-up would do, or did: the schema files against the store's. */
export interface SchemaPlan {
  /** `first`: the store had no schema yet and takes the files'; `same`: nothing changed. */
  readonly status: 'first' | 'same' | 'applies' | 'refused'
  readonly from?: string
  readonly to: string
  readonly changes: readonly CheckedChange[]
}

/** A schema change start-up will not apply: stored records would break. The message is the whole report. */
export class SchemaChangeRefused extends SchemaEvolutionError {
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

export interface EvolveOptions {
  /** The files of `schema/migrations`, in order (apply.ts loadMigrations). */
  readonly migrations: readonly Migration[]
  /** Apply pending migrations (SCHEMA_MIGRATE=auto, or npm run schema:migrate); else stop and name them. */
  readonly migrate: boolean
  /** Taken before any migration writes: a backup of the store as it was, under the stored schema `was`. */
  readonly backup?: (was: CompiledSchema) => Promise<void>
  readonly now?: Date
  /** Told, after each batch, how many records of a migration have been gone through. */
  readonly progress?: (migration: string, done: number) => void
}

/**
 * At start-up (docs/schemas.md): the store learns the files' schema at its first start (the migrations there
 * then are history, counted as applied); later, pending migrations are checked against every record
 * they touch and, allowed to, applied after a backup; then the schema applies when no stored record
 * breaks (compatible changes never do) and is recorded with what changed, and otherwise start-up stops
 * with the report.
 */
export async function evolveSchema(store: Store, schema: CompiledSchema, records: RecordService, options: EvolveOptions): Promise<SchemaPlan> {
  const now = options.now ?? new Date()
  const stored = await storedSchema(store)
  if (!stored) {
    await storeSchema(store, schema.source, schema.hash, now)
    await markApplied(store, options.migrations)
    return { status: 'first', to: schema.hash, changes: [] }
  }
  const pending = await pendingMigrations(store, options.migrations)
  if (pending.length) {
    const names = pending.map((m) => m.name).join(', ')
    if (!options.migrate) throw new MigrationRefused(`schema migrations ${names} are pending; apply them with npm run schema:migrate (or start with SCHEMA_MIGRATE=auto)`)
    const was = new CompiledSchema(buildModel(stored.files), stored.files)
    await withMigrationLease(store, `${hostname()}:${process.pid}`, async () => {
      // Another process may have applied some while this one waited for the lease.
      const still = await pendingMigrations(store, options.migrations)
      if (!still.length) return
      await checkMigrations(store, was, schema, still)
      await options.backup?.(was)
      await applyMigrations(store, records, was, schema, still, options.progress)
    })
  }
  const plan = await planSchema(store, schema)
  if (plan.status === 'refused') throw new SchemaChangeRefused(plan)
  if (plan.status === 'applies') await storeSchema(store, schema.source, schema.hash, now, { from: plan.from!, changes: [...pending.map((m) => `migration ${m.name}`), ...plan.changes.map((c) => c.text)] })
  return plan
}
