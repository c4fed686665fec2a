/**
 * Loads the sample department into the configured store:
 *   npm run seed -- [--scale N] [--if-empty] [--reset]
 * --scale N writes N copies of the department (ids stay unique); --if-empty does nothing when people
 * already has records (how `npm start` seeds on first run); --reset first empties the catalog and
 * protected collections (users and groups are kept). Every record goes through the record service, in
 * batches (scripts/sample/seed-bulk.ts); the sample approval requests go through the
 * workflow service (scripts/sample/workflow-seed.ts).
 */
import { loadConfig } from '../src/config.js'
import { revisionsCollection } from '../src/history/revision.js'
import { RecordService } from '../src/records/service.js'
import { compileSchema, type CompiledSchema } from '../src/schema/index.js'
import { openStore } from '../src/store/open.js'
import { DataDirInUseError, type Store } from '../src/store/port.js'
import { generateSampleDepartment } from './sample/index.js'
import { parseSeedArgs, SeedUsageError, seedUsage, type SeedOptions } from './sample/seed-options.js'
import { seedDepartmentInBulk } from './sample/seed-bulk.js'
import { seedSampleWorkflows } from './sample/workflow-seed.js'

/** The collections the seed fills: everything served as a resource, and the protected student records. */
function seededCollections(schema: CompiledSchema): string[] {
  const served = new Set(schema.resources.map((r) => r.collection))
  return schema.collections.filter((c) => c.protected || served.has(c.name)).map((c) => c.name)
}

async function occupied(store: Store, collections: readonly string[]): Promise<string[]> {
  const counts = await Promise.all(collections.map(async (name) => [name, await store.collection(name).count({})] as const))
  return counts.filter(([, n]) => n > 0).map(([name, n]) => `${name}: ${n}`)
}

async function seed(options: SeedOptions, store: Store, schema: CompiledSchema): Promise<string> {
  const collections = seededCollections(schema)
  const people = schema.class('Person')!.metadata.collection!
  if (options.ifEmpty && await store.collection(people).count({}) > 0) return `${people} already has records; nothing seeded`
  if (options.reset) {
    for (const name of [...collections, revisionsCollection]) await store.collection(name).deleteMany({})
  } else {
    const filled = await occupied(store, collections)
    if (filled.length) throw new SeedUsageError(`the store already holds records (${filled.join(', ')}); use --reset to replace them`)
  }
  const started = performance.now()
  const department = generateSampleDepartment(options.scale)
  const records = new RecordService(store, schema)
  const counts = await seedDepartmentInBulk(records, department)
  const workflows = await seedSampleWorkflows({ store, records, schema }, department.catalog, new Date())
  const requests = Object.values(workflows).reduce((sum, byStatus) => sum + Object.values(byStatus).reduce((a, n) => a + n, 0), 0)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0)
  const detail = Object.keys(department.counts).map((name) => `${counts[name] ?? 0} ${name}`).join(', ')
  return `seeded ${total} records at scale ${options.scale} in ${seconds} s: ${detail}; ${requests} approval requests`
}

async function main(): Promise<void> {
  const options = parseSeedArgs(process.argv.slice(2))
  const config = loadConfig()
  const schema = await compileSchema(config.schemaDir)
  const store = await openStore(config, schema.collections.map((c) => c.name))
  try {
    for (const collection of schema.collections) await store.ensureIndexes(collection.name, collection.indexes)
    console.log(await seed(options, store, schema))
  } finally {
    await store.close()
  }
}

main().catch((error: unknown) => {
  // A data directory another process holds is said as the service says it, so `npm start` shows one line.
  if (error instanceof DataDirInUseError) console.error(error.message)
  else console.error(`seed failed: ${error instanceof Error ? error.message : String(error)}`)
  if (error instanceof SeedUsageError) console.error(seedUsage)
  process.exit(1)
})
