/**
 * npm run bench: builds, seeds a temporary data directory with the sample department, starts the
 * service (each start on its own copy of that directory) and a bare Fastify hello-world, and drives
 * both with autocannon in the same run: each scenario in rounds, each round right after a round of the
 * bare baseline, reporting the median round, so every ratio compares two measurements taken a few
 * seconds apart. The catalog reads (by token and by API key) run with CACHE=off, and so does the
 * degree-progress endpoint on a case built through the API (see degree-progress.ts); the cached reads
 * on a second start with the cache on; then the answers of the person read and of the cached reads,
 * recorded and sent verbatim by a bare Fastify, to show what the bytes alone cost. Then the degree
 * audit engine alone, and search on the department scaled 10x (scripts/bench/search-run.ts, its own
 * seed and server). The approval workflows' pending queue and decisions run on a service of their own
 * holding 10,000 thesis requests (workflows.ts). Results go to stdout and bench-results/latest.md and .json.
 *
 * BENCH_DURATION (seconds per round, default 5), BENCH_ROUNDS (default 3) and BENCH_CONNECTIONS
 * (default 10) tune the load; BENCH_SEARCH=off leaves the 10x search run out, and BENCH_ONLY=<regex>
 * keeps only the scenarios whose names match it.
 *
 * `npm run bench -- --compare <git-ref>` (or BENCH_COMPARE=<git-ref>) measures this checkout against
 * that ref instead; see compare-run.ts. `npm run bench -- --store mongodb` measures the catalog reads on
 * FerretDB beside the embedded store instead; see mongo-run.ts. `npm run bench -- --scale N` (with
 * `--store mongodb` on FerretDB) measures the department at N times its size instead; see scale-run.ts.
 * `npm run bench -- --audit-trail [N]` measures the department with N audit records (default 1,000,000)
 * against it with none instead; see audit-trail.ts. `npm run bench -- --history [--scale N]` measures
 * record history (writes with their revisions, the memory they leave, history pages, a run's revert) at
 * N times the department's size (default 10) instead; see history-run.ts.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchAuditTrail, defaultAuditTrail } from './audit-trail.js'
import { cacheScenarios } from './cache.js'
import { compare } from './compare-run.js'
import { benchDegreeAudit } from './degree-audit.js'
import { benchHistory } from './history-run.js'
import { degreeProgressName, degreeProgressScenario } from './degree-progress.js'
import { paired, warmUp, type Target } from './load.js'
import { benchMongo } from './mongo-run.js'
import { freePort, memory, serviceArgs, startServer, stop } from './processes.js'
import { record, replayScenarios } from './replay.js'
import { benchScale } from './scale-run.js'
import { report, type Measured } from './report.js'
import { catalogScenarios, personByToken, type Scenario } from './scenarios.js'
import { auth, machine, options, searchFigures, seed, wanted } from './setup.js'
import { benchWorkflows, seedWorkflowBench, workflowBenchName, workflowReport, type WorkflowBench } from './workflows.js'

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'adks-bench-'))
  try {
    const { env, fresh } = await seed(dataDir)

    // The baseline stays up, idle but for its rounds, beside each service started below.
    const bareServer = await startServer('node', ['--import', 'tsx', 'scripts/bench/bare-server.ts'], {}, await freePort(), '/')
    const bare: Target = { url: `${bareServer.url}/`, headers: {}, pid: bareServer.child.pid }

    const results: Measured[] = []
    const measure = async (scenarios: Scenario[], pid: number | undefined) => {
      // V8 compiles a path's functions only after many calls; every path of a fresh process is warmed first.
      for (const scenario of scenarios) await warmUp({ url: scenario.url, headers: scenario.headers, pid }, options, 3)
      for (const scenario of scenarios) {
        const { name, url, headers, target, replays } = scenario
        const result = await paired(name, bare, { url, headers, pid }, options)
        results.push({ ...result, ...(target === undefined ? {} : { target }), ...(replays === undefined ? {} : { replays }) })
      }
    }
    const port = await freePort()
    const service = await startServer('node', [...serviceArgs], { ...env, ...await fresh(), CACHE: 'off' }, port, '/ready')
    const admin = await auth(env, port)
    const catalog = (await catalogScenarios(service.url, admin)).filter((s) => wanted(s.name))
    await measure(catalog, service.child.pid)
    const recorded = await Promise.all(catalog.filter((s) => s.name === personByToken).map(record))
    // Memory of the service holding the sample department, before the next scenario adds records and an
    // audit entry per request (audit-trail.ts measures what a long trail costs).
    const mem = await memory(service.child.pid!)
    if (wanted(degreeProgressName)) await measure([await degreeProgressScenario(service.url, admin)], service.child.pid)
    await stop(service.child)

    const cachedPort = await freePort()
    const cached = await startServer('node', [...serviceArgs], { ...env, ...await fresh() }, cachedPort, '/ready')
    const cachedScenarios = (await cacheScenarios(cached.url, await auth(env, cachedPort))).filter((s) => wanted(s.name))
    await measure(cachedScenarios, cached.child.pid)
    recorded.push(...await Promise.all(cachedScenarios.map(record)))
    await stop(cached.child)

    // What the answers of the targeted reads cost with nothing behind them: their bytes, sent by a bare Fastify.
    if (recorded.length) {
      const replayFile = join(dataDir, 'replay.json')
      await writeFile(replayFile, JSON.stringify(recorded))
      const replay = await startServer('node', ['--import', 'tsx', 'scripts/bench/replay-server.ts'], { REPLAY_FILE: replayFile }, await freePort(), '/0')
      await measure(replayScenarios(replay.url, recorded), replay.child.pid)
      await stop(replay.child)
    }

    // The approval workflows on a copy of their own, with 10,000 requests written before the start (workflows.ts).
    let workflows: WorkflowBench | null = null
    if (wanted(workflowBenchName)) {
      const copy = { ...env, ...await fresh(), CACHE: 'off' }
      const written = await seedWorkflowBench(copy)
      const workflowPort = await freePort()
      const workflowService = await startServer('node', [...serviceArgs], copy, workflowPort, '/ready')
      workflows = await benchWorkflows(workflowService.url, bare.url, copy, workflowPort, written)
      await stop(workflowService.child)
    }

    await stop(bareServer.child)

    const degreeAudit = benchDegreeAudit()
    const search = await searchFigures()

    const figures = { machine: machine(), options, results, readyMs: service.readyMs, ...mem, degreeAudit, search, workflows }
    // BENCH_ONLY may leave no throughput scenario, and then no baseline for report() to show.
    const text = [...(results.length ? [report(figures)] : []), ...workflowReport(workflows)].join('\n')
    console.log(text)
    await mkdir('bench-results', { recursive: true })
    await writeFile('bench-results/latest.md', text)
    await writeFile('bench-results/latest.json', JSON.stringify(figures, null, 2))
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

const at = process.argv.indexOf('--compare')
const ref = at >= 0 ? process.argv[at + 1] : process.env.BENCH_COMPARE
if (at >= 0 && !ref) throw new Error('--compare needs a git ref, e.g. npm run bench -- --compare HEAD~1')
const storeAt = process.argv.indexOf('--store')
const store = storeAt >= 0 ? process.argv[storeAt + 1] : 'embedded'
if (store !== 'embedded' && store !== 'mongodb') throw new Error('--store takes embedded (the default) or mongodb')
const scaleAt = process.argv.indexOf('--scale')
const scale = scaleAt >= 0 ? Number(process.argv[scaleAt + 1]) : null
if (scale !== null && !(Number.isInteger(scale) && scale >= 1 && scale <= 500)) throw new Error('--scale takes an integer from 1 to 500')
const trailAt = process.argv.indexOf('--audit-trail')
const trailArg = trailAt >= 0 ? process.argv[trailAt + 1] : undefined
const trail = trailAt < 0 ? null : trailArg === undefined || trailArg.startsWith('--') ? defaultAuditTrail : Number(trailArg.replace(/_/g, ''))
if (trail !== null && !(Number.isInteger(trail) && trail >= 1 && trail <= 100_000_000)) throw new Error('--audit-trail takes a number of audit records from 1 to 100,000,000 (default 1,000,000)')
if (trail !== null && (ref || scale !== null || store !== 'embedded')) throw new Error('--audit-trail runs alone, on the embedded store at scale 1')
const history = process.argv.includes('--history')
if (history && (ref || trail !== null || store !== 'embedded')) throw new Error('--history runs alone, on the embedded store (with --scale N, default 10)')

const mode = ref ? compare(ref) : trail !== null ? benchAuditTrail(trail) : history ? benchHistory(scale ?? 10) : scale !== null ? benchScale(scale, store) : store === 'mongodb' ? benchMongo() : main()
mode.catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
