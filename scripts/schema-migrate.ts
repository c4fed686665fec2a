/**
 * npm run schema:migrate: applies the pending migrations of `schema/migrations` and then the schema
 * files, as start-up does with SCHEMA_MIGRATE=auto (docs/schemas.md): each migration checked against every
 * record it touches first, a backup into BACKUP_DIR before the first write, each changed record's
 * revision by `migration:<name>`. On the embedded store, run it with the service stopped.
 */
import { backupBeforeMigrating } from '../src/backups/before-migrating.js'
import { loadConfig } from '../src/config.js'
import { ensureStoreIndexes } from '../src/indexes.js'
import { loadMigrations, pendingMigrations } from '../src/migrations/apply.js'
import { SchemaEvolutionError } from '../src/migrations/errors.js'
import { evolveSchema } from '../src/migrations/reconcile.js'
import { RecordService } from '../src/records/service.js'
import { compileSchema, SchemaError } from '../src/schema/index.js'
import { openStore } from '../src/store/open.js'
import { DataDirInUseError } from '../src/store/port.js'

async function main(): Promise<string> {
  const config = loadConfig()
  const schema = await compileSchema(config.schemaDir)
  const migrations = await loadMigrations(config.schemaDir)
  const store = await openStore(config, schema.collections.map((c) => c.name))
  try {
    await ensureStoreIndexes(store, schema)
    const pending = await pendingMigrations(store, migrations)
    const plan = await evolveSchema(store, schema, new RecordService(store, schema), {
      migrations, migrate: true, backup: (was) => backupBeforeMigrating(store, was, config),
      progress: (name, done) => console.log(`migrating ${name}: ${done} records gone through`),
    })
    const applied = pending.length ? `applied ${pending.map((m) => m.name).join(', ')}; ` : 'no migration pending; '
    return `${applied}the store's schema is ${plan.to.slice(0, 12)}${plan.status === 'applies' ? ` (${plan.changes.length} change${plan.changes.length === 1 ? '' : 's'} recorded)` : ''}`
  } finally {
    await store.close()
  }
}

main().then((line) => console.log(line), (error: unknown) => {
  if (error instanceof SchemaError || error instanceof DataDirInUseError || error instanceof SchemaEvolutionError) console.error(error.message)
  else console.error(`schema:migrate failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
