/**
 * npm run bench -- --scale N [--store mongodb]: the department at N times its size (scale 100: about
 * 40,000 people, 8,000 courses, 20,000 sections, 40,000 publications and 470,000 enrollments) on the
 * embedded store, or copied into FerretDB (scripts/ferretdb.sh; FERRETDB_HANDLER=postgresql for its
 * PostgreSQL backend). Reports the seed's time, the service's time to ready and its resident set, and
 * per scenario p50/p95/p99 and req/s beside the bare Fastify (each round of a scenario right after a
 * round of the baseline, the median round reported): GET /api/people/:id, a sorted page of 50 people,
 * search, degree progress, and the approval workflows' pending queue (workflows.ts, 10,000 thesis
 * requests written before the start); on FerretDB also the person read's one command sent straight to
 * the server, the floor under its latency (store-floor.ts). The service runs with CACHE=off; on FerretDB
 * also with Redis, as production runs several instances on MongoDB (processes.ts, benchRedis), and over
 * SQLite with the index its finds by `_id` can use (scripts/ferretdb.sh id-index;
 * BENCH_FERRETDB_ID_INDEX=off leaves FerretDB as it comes, every such find reading its whole table).
 *
 * The seeded directory is kept in the system's temporary directory and reused while the generator, the
 * seed, the schema and the embedded store are unchanged (seed-cache.ts; BENCH_RESEED=1 seeds again); each
 * run works on a copy of it. The report states each target (on the embedded store also for the seed,
 * the start and the resident set) and whether it was met.
 * BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS and BENCH_ONLY apply as in run.ts. Results go to stdout
 * and bench-results/scale-N-<store>.md and .json.
 */
import { cp, mkdir, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { degreeProgressName, degreeProgressScenario } from './degree-progress.js'
import type { Target } from './load.js'
import { copyToMongo } from './mongo-run.js'
import { benchRedis, freePort, memory, output, run, serviceArgs, startServer, stop } from './processes.js'
import { fmt, percent } from './report.js'
import { cpuTimeUs, pairedTimed, type PairedTimed } from './scale-load.js'
import { catalogScenarios, personByToken, type Scenario } from './scenarios.js'
import { benchSearch, type SearchBenchResult } from './search.js'
import { benchEnv, cachedSeed, type SeedFigures } from './seed-cache.js'
import { floorLine, storeFloor, type StoreFloor } from './store-floor.js'
import { auth, machine, options, wanted } from './setup.js'
import { benchWorkflows, seedWorkflowBench, workflowBenchName, workflowReport, type WorkflowBench } from './workflows.js'

type StoreKind = 'embedded' | 'mongodb'

const sortedPage = 'GET /api/people?limit=50&sort=last_name'
const searchName = 'GET /api/search/all?q=<prefix>'

interface ScaleTargets {
  /** p99 (and for search p95) in milliseconds each store should keep under at 10 connections. */
  readonly byIdP99: number
  readonly pageP99: number
  readonly searchP95: number
  /** Seconds from spawn to ready. */
  readonly readyS?: number
  /** The service's peak resident set over the run. */
  readonly rssMb?: number
  /** Seconds the seed (`npm run seed -- --scale N`) may take. */
  readonly seedS?: number
}

/**
 * On FerretDB the data lives in another process, and a start waits for the search index to be read
 * from it; only the embedded store has targets for the service's own start and memory.
 */
export const scaleTargets: Record<StoreKind, ScaleTargets> = {
  embedded: { byIdP99: 5, pageP99: 20, searchP95: 15, readyS: 5, rssMb: 500, seedS: 240 },
  mongodb: { byIdP99: 10, pageP99: 50, searchP95: 15 },
}

interface ScaleFigures {
  readonly machine: string
  readonly store: StoreKind
  readonly handler?: string
  readonly scale: number
  readonly seed: SeedFigures & { readonly reused: boolean }
  /** Seconds to copy the seeded department into FerretDB. */
  readonly copySeconds?: number
  /** Whether FerretDB's SQLite tables had the index a find by `_id` uses (scripts/ferretdb.sh id-index). */
  readonly idIndex?: boolean
  readonly readyMs: number
  /** CPU seconds the service had used when it was ready. */
  readonly readyCpuS: number
  readonly readyLoad: number
  readonly rssAtReadyMb: number
  readonly rssMb: number
  readonly peakRssMb: number
  readonly results: readonly PairedTimed[]
  /** On FerretDB: the person read's one command sent straight to the server (store-floor.ts). */
  readonly storeFloor?: StoreFloor
  readonly search: SearchBenchResult | null
  readonly workflows: WorkflowBench | null
  /** Phases that failed, with their error. */
  readonly failures: readonly string[]
}

/** A figure against an upper bound, or nothing where the store has none. */
function limit(value: number, bound: number | undefined, unit: string, of = ''): string {
  return bound === undefined ? '' : `≤ ${fmt(bound)} ${unit}: ${value <= bound ? 'met' : 'missed'}${of}`
}

function report(f: ScaleFigures): string {
  const target = scaleTargets[f.store]
  const targetOf = (name: string) =>
    name === personByToken ? { p: 'p99', ms: target.byIdP99 } : name === sortedPage ? { p: 'p99', ms: target.pageP99 } : name === searchName ? { p: 'p95', ms: target.searchP95 } : null
  const verdict = (r: PairedTimed) => {
    const t = targetOf(r.name)
    if (!t) return ''
    // A round in which no answer came back has no latency to speak of, and misses any target.
    if (!r.latency.requests) return `${t.p} ≤ ${t.ms} ms: missed (no answer within a round)`
    const value = t.p === 'p99' ? r.latency.p99 : r.latency.p95
    return `${t.p} ≤ ${t.ms} ms: ${value <= t.ms ? 'met' : 'missed'}`
  }
  const storeName = f.store === 'embedded' ? 'the embedded store' : `FerretDB (${f.handler ?? 'sqlite'})`
  const lines = [
    `# Scale ${f.scale} on ${storeName}, ${new Date().toISOString().slice(0, 10)}`,
    '',
    `${f.machine}; ${options.rounds} round(s) of ${options.durationSeconds} s, ${options.connections} connections; CACHE=off, ${f.store === 'embedded' ? 'no Redis' : 'with Redis'}.`,
    '',
    `Seed: ${f.seed.summary}.`,
    ...(f.copySeconds === undefined ? [] : [`Copied into FerretDB in ${fmt(f.copySeconds, 1)} s${f.idIndex === undefined ? '' : f.idIndex ? '; its tables given the index a find by `_id` uses (scripts/ferretdb.sh id-index)' : '; FerretDB as it comes (no index serves a find by `_id`)'}.`]),
    '',
    '| what | figure | target |',
    '|---|---|---|',
    `| seed (\`node dist/scripts/seed.js --scale ${f.scale}\`) | ${fmt(f.seed.seconds, 1)} s wall, load ${f.seed.load.toFixed(1)}${f.seed.reused ? ' (kept from an earlier run)' : ''} | ${limit(f.seed.seconds, target.seedS, 's')} |`,
    `| ready | ${fmt(f.readyMs / 1000, 1)} s, ${fmt(f.readyCpuS, 1)} s of CPU, load ${f.readyLoad.toFixed(1)} | ${limit(f.readyMs / 1000, target.readyS, 's')} |`,
    `| resident set | ${fmt(f.rssAtReadyMb)} MB at ready, ${fmt(f.rssMb)} MB after the scenarios, peak ${fmt(f.peakRssMb)} MB | ${limit(f.peakRssMb, target.rssMb, 'MB', ' (peak)')} |`,
    '',
    '| scenario | req/s | of bare | bare req/s | p50 ms | p95 ms | p99 ms | errors | CPU µs/req | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...f.results.map((r) => `| ${r.name} | ${fmt(r.rps)} | ${percent(r.ratio)} | ${fmt(r.bare.rps)} | ${r.latency.p50} | ${r.latency.p95} | ${r.latency.p99} | ${r.errors} | ${r.cpuUs === undefined ? '' : fmt(r.cpuUs)} | ${verdict(r)} |`),
    '',
  ]
  if (f.storeFloor) lines.push(floorLine(f.storeFloor, options), '')
  if (f.search) {
    const s = f.search
    lines.push(
      `Search, ${s.requests} requests of ${Object.keys(s.totals).length} prefixes, 4 in flight, as an admin: p50 ${s.p50} ms, p95 ${s.p95} ms, p99 ${s.p99} ms ` +
      `(target p95 ≤ ${target.searchP95} ms: ${s.p95 <= target.searchP95 ? 'met' : 'missed'}), ${s.errors} errors.`, '')
  }
  const failed = f.failures.length ? ['Failed:', '', ...f.failures.map((x) => `- ${x}`), ''] : []
  return [...lines, ...workflowReport(f.workflows), ...failed].join('\n')
}

/**
 * Each scenario warmed and then measured before the next is warmed: on FerretDB a sorted page takes
 * seconds, and the requests a warm-up leaves unanswered when it ends keep the server busy for minutes,
 * which would be measured as the next scenario's latency. A scenario whose warm-up got no answer at all
 * is reported as it is, unmeasured: each round would leave as many requests again for the server to
 * finish after the client has gone (before reads were bounded by MONGODB_MAX_TIME_MS, FerretDB held
 * 23 GB of them within ten minutes).
 */
async function measure(scenarios: readonly Scenario[], bare: Target, pid: number | undefined): Promise<PairedTimed[]> {
  const results: PairedTimed[] = []
  for (const s of scenarios) {
    const target = { url: s.url, headers: s.headers, pid }
    const warm = await pairedTimed(s.name, bare, target, { ...options, rounds: 1, durationSeconds: 3 })
    results.push(warm.latency.requests ? await pairedTimed(s.name, bare, target, options) : warm)
  }
  return results
}

export async function benchScale(scale: number, store: StoreKind): Promise<void> {
  await run('npm', ['run', 'build', '--silent'])
  const env = benchEnv()
  const { dir: seeded, seed, reused } = await cachedSeed(scale, env)
  const work = join(tmpdir(), `adks-bench-scale-${scale}-run-${process.pid}`)
  const ferretDir = join(work, 'ferretdb')
  const handler = process.env.FERRETDB_HANDLER ?? 'sqlite'
  try {
    const dataDir = join(work, 'data')
    await cp(seeded, dataDir, { recursive: true })
    let serviceEnv: Record<string, string> = { ...env, DATA_DIR: dataDir, CACHE: 'off' }
    // Into the embedded copy even for FerretDB, which then receives it with the rest: written through
    // FerretDB 1.24, each request's reference check (a find by `_id` $in, which it does not push down to
    // its backend) reads the whole people collection, a second or more per request at this scale.
    const written = wanted(workflowBenchName) ? await seedWorkflowBench(serviceEnv) : null
    let copySeconds: number | undefined
    const idIndex = store === 'mongodb' && handler === 'sqlite' ? process.env.BENCH_FERRETDB_ID_INDEX !== 'off' : undefined
    if (store === 'mongodb') {
      await mkdir(ferretDir, { recursive: true })
      const url = (await output('bash', ['scripts/ferretdb.sh', 'start', ferretDir])).trim()
      // As production runs it: with Redis, whose write notices keep the search index current; without
      // it, each instance rebuilds the index every two seconds, which at this scale never stops reading.
      serviceEnv = { ...serviceEnv, MONGODB_URL: url, MONGODB_DB: 'adks_bench', ...benchRedis() }
      const copyStarted = performance.now()
      await copyToMongo(dataDir, url, serviceEnv.MONGODB_DB!)
      copySeconds = (performance.now() - copyStarted) / 1000
      if (idIndex) await run('bash', ['scripts/ferretdb.sh', 'id-index', ferretDir])
    }

    const bareServer = await startServer('node', ['--import', 'tsx', 'scripts/bench/bare-server.ts'], {}, await freePort(), '/')
    const bare: Target = { url: `${bareServer.url}/`, headers: {}, pid: bareServer.child.pid }
    let service: Awaited<ReturnType<typeof startServer>> | undefined
    try {
      const port = await freePort()
      // On FerretDB a start reads every searchable collection from the server first: up to ten minutes of polling.
      service = await startServer('node', [...serviceArgs], serviceEnv, port, '/ready', undefined, 30_000)
      const readyLoad = loadavg()[0]!
      const pid = service.child.pid!
      // Again once the service has created every collection, so that the empty ones' tables have it too.
      if (idIndex) await run('bash', ['scripts/ferretdb.sh', 'id-index', ferretDir])
      // CPU time to ready depends far less than wall time on what else the machine runs.
      const readyCpuS = await cpuTimeUs(pid) / 1e6
      const atReady = await memory(pid)
      const admin = await auth(serviceEnv, port)
      const catalog = (await catalogScenarios(service.url, admin)).filter((s) => s.name === personByToken || s.name === sortedPage)
      const scenarios: Scenario[] = [
        ...catalog,
        { name: searchName, url: `${service.url}/api/search/all?q=mar&limit=10`, headers: admin },
      ].filter((s) => wanted(s.name))
      if (wanted(degreeProgressName)) scenarios.push(await degreeProgressScenario(service.url, admin))
      const results = await measure(scenarios, bare, pid)
      const person = scenarios.find((s) => s.name === personByToken)
      const floor = store === 'mongodb' && person
        ? await storeFloor(serviceEnv.MONGODB_URL!, serviceEnv.MONGODB_DB!, person.url, options)
        : undefined
      // A later phase that fails (FerretDB can stop answering within fetch's five minutes) leaves the
      // figures already taken in the report, and its failure beside them.
      const failures: string[] = []
      const attempt = async <R>(phase: string, work: () => Promise<R>): Promise<R | null> => {
        try {
          return await work()
        } catch (error) {
          failures.push(`${phase}: ${error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error)}`)
          return null
        }
      }
      const search = wanted(searchName) ? await attempt('search', () => benchSearch(service!.url, admin, { concurrency: 4, rounds: 20 })) : null
      const workflows = written ? await attempt('approval workflows', () => benchWorkflows(service!.url, bare.url, serviceEnv, port, written)) : null
      const after = await memory(pid)
      const figures: ScaleFigures = {
        machine: machine(), store, ...(store === 'mongodb' ? { handler } : {}), scale, seed: { ...seed, reused },
        ...(copySeconds === undefined ? {} : { copySeconds }), ...(idIndex === undefined ? {} : { idIndex }),
        readyMs: service.readyMs, readyCpuS, readyLoad, rssAtReadyMb: atReady.rssMb, rssMb: after.rssMb, peakRssMb: after.peakRssMb,
        results, ...(floor ? { storeFloor: floor } : {}), search, workflows, failures,
      }
      const text = report(figures)
      console.log(text)
      const name = `scale-${scale}-${store === 'mongodb' ? `ferretdb-${handler}` : 'embedded'}`
      await mkdir('bench-results', { recursive: true })
      await writeFile(`bench-results/${name}.md`, text)
      await writeFile(`bench-results/${name}.json`, JSON.stringify(figures, null, 2))
    } finally {
      if (service) await stop(service.child)
      await stop(bareServer.child)
    }
  } finally {
    if (store === 'mongodb') await run('bash', ['scripts/ferretdb.sh', 'stop', ferretDir]).catch(() => {})
    await rm(work, { recursive: true, force: true })
  }
}
