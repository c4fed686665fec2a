/**
 * npm run schema:plan: what start-up would do with the class schema (docs/schemas.md), changing nothing:
 * every change between the schema files and the store's schema, whether it is compatible, and for
 * the others how many stored records it breaks, with examples and the migration that would resolve it;
 * or, where migrations are pending, what they change (checked in memory, as start-up checks them).
 * On the embedded store, run it with the service stopped (the service holds its data directory).
 */
import { loadConfig } from '../src/config.js'
import { checkMigrations, loadMigrations, pendingMigrations } from '../src/migrations/apply.js'
import { planSchema } from '../src/migrations/reconcile.js'
import { storedSchema } from '../src/migrations/state.js'
import { SchemaEvolutionError } from '../src/migrations/errors.js'
import { buildModel } from '../src/schema/check.js'
import { changeReport } from '../src/migrations/check.js'
import { CompiledSchema, compileSchema, SchemaError } from '../src/schema/index.js'
import { openStore } from '../src/store/open.js'
import { DataDirInUseError } from '../src/store/port.js'

async function main(): Promise<string> {
  const config = loadConfig()
  const schema = await compileSchema(config.schemaDir)
  const store = await openStore(config, [])
  try {
    const pending = await pendingMigrations(store, await loadMigrations(config.schemaDir))
    const stored = await storedSchema(store)
    if (pending.length && stored) {
      // What the migrations do is checked as start-up checks it, in memory; the changes they resolve are theirs.
      const was = new CompiledSchema(buildModel(stored.files), stored.files)
      const changed = await checkMigrations(store, was, schema, pending)
      return `start-up (SCHEMA_MIGRATE=auto) or npm run schema:migrate applies ${pending.map((m) => m.name).join(', ')} after a backup: ${changed} records change, every one valid under the schema files; then the files' schema ${schema.hash.slice(0, 12)} replaces ${stored.hash.slice(0, 12)}`
    }
    const plan = await planSchema(store, schema)
    if (plan.status === 'first') return `the store holds no schema yet: start-up records the files' (${plan.to.slice(0, 12)})`
    if (plan.status === 'same') return `the schema files are the store's (${plan.to.slice(0, 12)}): nothing to do`
    if (plan.status === 'refused') return changeReport(plan.changes)
    const lines = plan.changes.map((c) => `  ${c.text}: ${c.compatible ? 'compatible' : 'checked, no stored record breaks'}`)
    return [`start-up applies the schema ${plan.to.slice(0, 12)} over ${plan.from!.slice(0, 12)}:`, ...(lines.length ? lines : ['  documentation only'])].join('\n')
  } finally {
    await store.close()
  }
}

main().then((text) => console.log(text), (error: unknown) => {
  if (error instanceof SchemaError || error instanceof DataDirInUseError || error instanceof SchemaEvolutionError) console.error(error.message)
  else console.error(`schema:plan failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
