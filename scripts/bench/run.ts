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
 * seed and server). Results go to stdout and bench-results/latest.md and .json.
 *
 * BENCH_DURATION (seconds per round, default 5), BENCH_ROUNDS (default 3) and BENCH_CONNECTIONS
 * (default 10) tune the load; BENCH_SEARCH=off leaves the 10x search run out, and BENCH_ONLY=<regex>
 * keeps only the scenarios whose names match it.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { signingKeys } from '../../src/auth/keys.js'
import { signIdToken, userIdForEmail } from '../../src/auth/tokens.js'
import { loadConfig } from '../../src/config.js'
import { cacheScenarios } from './cache.js'
import { benchDegreeAudit } from './degree-audit.js'
import { degreeProgressName, degreeProgressScenario } from './degree-progress.js'
import { paired, warmUp, type LoadOptions, type Target } from './load.js'
import { freePort, memory, run, serviceArgs, startServer, stop } from './processes.js'
import { record, replayScenarios } from './replay.js'
import { report, type Measured, type SearchFigures } from './report.js'
import { catalogScenarios, personByToken, type Scenario } from './scenarios.js'

const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
const wanted = (name: string) => !only || only.test(name)

const options: LoadOptions = {
  durationSeconds: Number(process.env.BENCH_DURATION ?? 5),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
}

/** The 10x search benchmark, run as its own process; its figures are read back from what it writes. */
async function searchFigures(): Promise<SearchFigures | null> {
  if (process.env.BENCH_SEARCH === 'off') return null
  await run('node', ['--expose-gc', '--import', 'tsx', 'scripts/bench/search-run.ts'])
  const written = JSON.parse(await readFile('bench-results/search.json', 'utf8')) as { scale: number; index: { documents: number }; runs: { concurrency: number; faculty: { p95: number; p99: number }; admin: { p95: number; p99: number } }[] }
  return { scale: written.scale, documents: written.index.documents, runs: written.runs.map(({ concurrency, faculty, admin }) => ({ concurrency, faculty, admin })) }
}

async function main(): Promise<void> {
  await run('npm', ['run', 'build', '--silent'])
  const dataDir = await mkdtemp(join(tmpdir(), 'adks-bench-'))
  const seeded = join(dataDir, 'seeded')
  // Each start serves the sample department as seeded: the degree-progress scenario appends an audit
  // record per request (tens of thousands in a run), and a service holding them is measurably slower
  // (docs/performance.md), so the cached reads must not depend on how long that scenario ran.
  let starts = 0
  const fresh = async () => {
    const dir = join(dataDir, `start-${++starts}`)
    await cp(seeded, dir, { recursive: true })
    return { DATA_DIR: dir }
  }
  // The load comes from one user and one key: at the default limits nearly every answer would be a 429.
  const env = {
    DATA_DIR: seeded, NODE_ENV: 'production', JWT_SECRET: `bench-${Date.now()}-secret-value-0123456789abcdef`, LOG_LEVEL: 'warn',
    RATE_LIMIT_USER: '1000000000', RATE_LIMIT_KEY_READ: '1000000000',
  }
  try {
    await run('node', ['dist/scripts/seed.js'], env)

    // The baseline stays up, idle but for its rounds, beside each service started below.
    const bareServer = await startServer('node', ['--import', 'tsx', 'scripts/bench/bare-server.ts'], {}, await freePort(), '/')
    const bare: Target = { url: `${bareServer.url}/`, headers: {}, pid: bareServer.child.pid }

    // The token's issuer and audience name the port, so each start gets its own.
    const auth = async (port: number) => {
      const config = loadConfig({ ...env, PORT: String(port) })
      const token = signIdToken(await signingKeys(config), config, { sub: userIdForEmail('bench@dept.example.edu'), email: 'bench@dept.example.edu', role_grant: 'admin' })
      return { authorization: `Bearer ${token}` }
    }
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
    const admin = await auth(port)
    const catalog = (await catalogScenarios(service.url, admin)).filter((s) => wanted(s.name))
    await measure(catalog, service.child.pid)
    const recorded = await Promise.all(catalog.filter((s) => s.name === personByToken).map(record))
    // Memory of the service holding the sample department; the next scenario adds records and an audit
    // entry per request, which the store keeps in memory by design.
    const mem = await memory(service.child.pid!)
    if (wanted(degreeProgressName)) await measure([await degreeProgressScenario(service.url, admin)], service.child.pid)
    await stop(service.child)

    const cachedPort = await freePort()
    const cached = await startServer('node', [...serviceArgs], { ...env, ...await fresh() }, cachedPort, '/ready')
    const cachedScenarios = (await cacheScenarios(cached.url, await auth(cachedPort))).filter((s) => wanted(s.name))
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

    await stop(bareServer.child)

    const degreeAudit = benchDegreeAudit()
    const search = await searchFigures()

    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} at the end`
    const figures = { machine, options, results, readyMs: service.readyMs, ...mem, degreeAudit, search }
    const text = report(figures)
    console.log(text)
    await mkdir('bench-results', { recursive: true })
    await writeFile('bench-results/latest.md', text)
    await writeFile('bench-results/latest.json', JSON.stringify(figures, null, 2))
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
