/**
 * npm run bench -- --store mongodb: the catalog reads of run.ts on the MongoDB adapter, against FerretDB
 * (scripts/ferretdb.sh builds and starts it) holding the sample department, beside the same reads on the embedded store and the bare
 * Fastify, each round of either store right after a round of the bare baseline. Both services run with
 * CACHE=off and no Redis, so that only the store differs: without Redis the principal cache on MongoDB
 * keeps an entry two seconds (docs/architecture.md, "Caches on the request path"), a rebuild per two
 * seconds under load. FerretDB keeps its data in SQLite and uses none of its indexes, so its figures
 * are a floor, not what a MongoDB server gives. BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS and
 * BENCH_ONLY apply as in run.ts. Results go to stdout and bench-results/mongodb.md and .json.
 */
import Database from 'better-sqlite3'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MongoStore } from '../../src/store/mongo/store.js'
import type { Doc } from '../../src/store/port.js'
import { databaseFile, EmbeddedStore } from '../../src/store/sqlite/store.js'
import { paired, warmUp, type PairedResult, type Target } from './load.js'
import { freePort, output, run, serviceArgs, startServer, stop } from './processes.js'
import { fmt, percent } from './report.js'
import { catalogScenarios, personByToken } from './scenarios.js'
import { auth, machine, options, seed, wanted } from './setup.js'
import { floorLine, storeFloor, type StoreFloor } from './store-floor.js'

interface StoreFigures {
  readonly store: 'embedded' | 'mongodb'
  readonly results: readonly PairedResult[]
  readonly floor?: StoreFloor
}

/**
 * The catalog reads on one started service, each warmed first and then paired with the baseline; on
 * MongoDB then the person read's one command sent straight to the server (store-floor.ts).
 */
async function measureCatalog(env: Record<string, string>, bare: Target): Promise<{ results: PairedResult[]; floor?: StoreFloor }> {
  const port = await freePort()
  const service = await startServer('node', [...serviceArgs], { ...env, CACHE: 'off' }, port, '/ready')
  try {
    const scenarios = (await catalogScenarios(service.url, await auth(env, port))).filter((s) => wanted(s.name))
    const pid = service.child.pid
    for (const s of scenarios) await warmUp({ url: s.url, headers: s.headers, pid }, options, 3)
    const results: PairedResult[] = []
    for (const s of scenarios) results.push(await paired(s.name, bare, { url: s.url, headers: s.headers, pid }, options))
    const person = scenarios.find((s) => s.name === personByToken)
    if (!env.MONGODB_URL || !person) return { results }
    return { results, floor: await storeFloor(env.MONGODB_URL, env.MONGODB_DB!, person.url, options) }
  } finally {
    await stop(service.child)
  }
}

function report(figures: readonly StoreFigures[]): string {
  const [embedded, mongodb] = figures
  const cell = (x: PairedResult | undefined) => (x ? `${fmt(x.rps)} | ${percent(x.ratio)} | ${x.cpuUs === undefined ? '' : fmt(x.cpuUs)}` : ' | | ')
  return [
    `# The catalog reads on FerretDB ${new Date().toISOString().slice(0, 10)}`,
    '',
    `${machine()}; ${options.rounds} round(s) of ${options.durationSeconds} s, ${options.connections} connections; CACHE=off, no Redis.`,
    '',
    '| scenario | embedded req/s | of bare | CPU µs/req | FerretDB req/s | of bare | CPU µs/req | bare req/s beside FerretDB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...mongodb!.results.map((m) => {
      const e = embedded!.results.find((x) => x.name === m.name)
      return `| ${m.name} | ${cell(e)} | ${cell(m)} | ${fmt(m.bare.rps)} |`
    }),
    '',
    ...(mongodb!.floor ? [floorLine(mongodb!.floor, options), ''] : []),
  ].join('\n')
}

/**
 * The collections of the embedded store in `dataDir`: its tables of `(_id, doc)` rows, which leaves out
 * the store's own tables (index and multikey records, meta) and each collection's keys table.
 */
function embeddedCollections(dataDir: string): string[] {
  const db = new Database(join(dataDir, databaseFile), { fileMustExist: true })
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[]
    const columns = (table: string) => (db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[]).join(',')
    return tables.filter((table) => columns(table) === '_id,doc')
  } finally {
    db.close()
  }
}

/** Documents read from the embedded store per query and written to MongoDB per insert. */
const copyBatch = 1000

/**
 * The seeded department, copied collection by collection from the embedded store into MongoDB: the
 * same documents, internal fields included, in a few seconds, where seeding FerretDB through the record
 * service (a round trip per reference check and per write) takes about seven minutes. The service
 * creates the indexes when it starts.
 */
export async function copyToMongo(dataDir: string, url: string, db: string): Promise<void> {
  const names = embeddedCollections(dataDir)
  const mongo = await MongoStore.open(url, db)
  const embedded = await EmbeddedStore.open(dataDir)
  try {
    for (const name of names) {
      // A page at a time in `_id` order: at scale 100 a whole collection (470,000 enrollments) read at
      // once would be held twice over, as documents and as the driver's batch.
      let after: string | null = null
      for (;;) {
        const docs: Doc[] = await embedded.collection(name).find(after === null ? {} : { _id: { $gt: after } }, { sort: [['_id', 1]], limit: copyBatch })
        if (docs.length) await mongo.collection(name).insertMany(docs)
        if (docs.length < copyBatch) break
        after = docs[docs.length - 1]!._id
      }
    }
  } finally {
    await embedded.close()
    await mongo.close()
  }
}

export async function benchMongo(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'adks-bench-mongo-'))
  const ferretDir = join(dataDir, 'ferretdb')
  try {
    const { env, fresh } = await seed(dataDir)
    const url = (await output('bash', ['scripts/ferretdb.sh', 'start', ferretDir])).trim()
    const mongoEnv = { ...env, MONGODB_URL: url, MONGODB_DB: 'adks_bench' }
    await copyToMongo(env.DATA_DIR!, url, mongoEnv.MONGODB_DB)

    const bareServer = await startServer('node', ['--import', 'tsx', 'scripts/bench/bare-server.ts'], {}, await freePort(), '/')
    const bare: Target = { url: `${bareServer.url}/`, headers: {}, pid: bareServer.child.pid }
    try {
      const figures: StoreFigures[] = [
        { store: 'embedded', ...await measureCatalog({ ...env, ...await fresh() }, bare) },
        { store: 'mongodb', ...await measureCatalog({ ...mongoEnv, ...await fresh() }, bare) },
      ]
      const text = report(figures)
      console.log(text)
      await mkdir('bench-results', { recursive: true })
      await writeFile('bench-results/mongodb.md', text)
      await writeFile('bench-results/mongodb.json', JSON.stringify({ machine: machine(), options, figures }, null, 2))
    } finally {
      await stop(bareServer.child)
    }
  } finally {
    await run('bash', ['scripts/ferretdb.sh', 'stop', ferretDir]).catch(() => {})
    await rm(dataDir, { recursive: true, force: true })
  }
}
