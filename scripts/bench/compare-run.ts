/**
 * npm run bench -- --compare <git-ref> (or BENCH_COMPARE=<git-ref>): this checkout against another
 * version of the service, in one run on one machine. The ref is checked out into a temporary git
 * worktree (with its own `npm install` unless the lock files match), and each checkout is built and
 * seeded with its own sample department. Both services run side by side beside the bare baseline: each
 * scenario of the single run (uncached catalog reads, degree progress, cached reads) is measured in
 * rounds of the baseline followed by both services in turn, so each pair of figures is taken seconds
 * apart; so is the person write (person-writes.ts: PUT /api/people/:id, a real change each time, every
 * response timed), on the uncached services after their reads, with the run's connections and then
 * one at a time. Then each checkout's degree audit
 * engine, in alternating rounds, and each one's 10x search run (unless BENCH_SEARCH=off). Results go to
 * stdout and bench-results/compare.md and .json; the last line names whatever is more than 10% slower
 * than the ref, and the write's p50 is judged against its own bound (comparison.ts).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cacheScenarios } from './cache.js'
import { comparisonReport, type ComparedScenario, type ComparedWrite, type Comparison, type Side } from './comparison.js'
import type { DegreeAuditBench } from './degree-audit.js'
import { degreeProgressName, degreeProgressScenario } from './degree-progress.js'
import { alternated, warmUp, type Target } from './load.js'
import { facultyToWrite, personWriteName, personWrites } from './person-writes.js'
import { freePort, memory, output, startServer, stop, type Started } from './processes.js'
import { alternatedTimed } from './scale-load.js'
import { catalogScenarios, type Scenario } from './scenarios.js'
import { auth, machine, options, searchFigures, seed, startArgs, wanted, type Seeded } from './setup.js'
import { worktree } from './worktree.js'

interface Checkout extends Seeded {
  readonly root: string
  /** The node arguments its `npm start` serves with. */
  readonly args: string[]
}

interface Service extends Started {
  readonly headers: Record<string, string>
}

/** Each checkout's degree audit engine in its own process, in alternating rounds; the round of median p95 of each. */
async function degreeAudits(roots: readonly string[]): Promise<DegreeAuditBench[]> {
  const script = "const { benchDegreeAudit } = await import('./scripts/bench/degree-audit.ts'); console.log(JSON.stringify(benchDegreeAudit()))"
  const runs = roots.map(() => [] as DegreeAuditBench[])
  for (let i = 0; i < options.rounds; i++) {
    const order = roots.map((_, r) => r)
    for (const r of i % 2 ? order.reverse() : order) {
      runs[r]!.push(JSON.parse(await output('node', ['--import', 'tsx', '--input-type=module', '-e', script], roots[r])) as DegreeAuditBench)
    }
  }
  return runs.map((measured) => [...measured].sort((a, b) => a.p95 - b.p95)[Math.floor(measured.length / 2)]!)
}

export async function compare(ref: string): Promise<void> {
  const checkout = await worktree(ref)
  const dataDir = await mkdtemp(join(tmpdir(), 'adks-bench-'))
  const running: Started[] = []
  try {
    const checkouts: Checkout[] = []
    for (const [i, root] of [process.cwd(), checkout.root].entries()) {
      await mkdir(join(dataDir, String(i)))
      checkouts.push({ root, args: await startArgs(root), ...await seed(join(dataDir, String(i)), root) })
    }
    const [ours, theirs] = checkouts as [Checkout, Checkout]

    const bareServer = await startServer('node', ['--import', 'tsx', 'scripts/bench/bare-server.ts'], {}, await freePort(), '/')
    running.push(bareServer)
    const bare: Target = { url: `${bareServer.url}/`, headers: {}, pid: bareServer.child.pid }

    // Started one after the other, so that neither's ready time includes the other's start.
    const start = async (env: Record<string, string>): Promise<[Service, Service]> => {
      const services: Service[] = []
      for (const c of checkouts) {
        const port = await freePort()
        const service = await startServer('node', c.args, { ...c.env, ...await c.fresh(), ...env }, port, '/ready', c.root)
        running.push(service)
        services.push({ ...service, headers: await auth(c.env, port) })
      }
      return services as [Service, Service]
    }
    const target = (s: Scenario, service: Service) => ({ name: s.name, target: { url: s.url, headers: s.headers, pid: service.child.pid } })

    const scenarios: ComparedScenario[] = []
    /** Pairs the two services' scenarios by position: the same reads, on each one's own records. */
    const measure = async (services: [Service, Service], [mine, other]: [Scenario[], Scenario[]]) => {
      const kept = mine.flatMap((s, i) => (wanted(s.name) ? [[s, other[i]!] as const] : []))
      // V8 compiles a path's functions only after many calls; every path of a fresh process is warmed first.
      for (const pair of kept) for (const [i, s] of pair.entries()) await warmUp(target(s, services[i]!).target, options, 3)
      for (const [a, b] of kept) {
        const [current, refResult] = await alternated(bare, [target(a, services[0]), target(b, services[1])], options)
        scenarios.push({ name: a.name === b.name ? a.name : `${a.name} (ref: ${b.name})`, current: current!, ref: refResult! })
      }
    }
    const both = <T>(services: [Service, Service], f: (s: Service) => Promise<T>) => Promise.all(services.map(f)) as Promise<[T, T]>

    const uncached = await start({ CACHE: 'off' })
    await measure(uncached, await both(uncached, (s) => catalogScenarios(s.url, s.headers)))
    // Memory of each service holding the sample department, before the degree-progress scenario adds records.
    const [ourMemory, theirMemory] = await both(uncached, (s) => memory(s.child.pid!))
    if (wanted(degreeProgressName)) await measure(uncached, await both(uncached, async (s) => [await degreeProgressScenario(s.url, s.headers)]))
    // Writes last on these services: they change the records the reads above read.
    const writes: ComparedWrite[] = []
    // With the run's connections (the services saturated), then one at a time (a write's own latency).
    for (const connections of [...new Set([options.connections, 1])]) {
      const name = connections === 1 ? `${personWriteName}, one at a time` : personWriteName
      if (!wanted(name)) continue
      const targets = await both(uncached, async (s) => ({
        name, target: personWrites(s.url, s.headers, await facultyToWrite(s.url, s.headers, options.connections), connections, s.child.pid),
      }))
      const load = { ...options, connections }
      for (const { target } of targets) await warmUp(target, load, 3)
      const [current, refResult] = await alternatedTimed(bare, targets, load)
      writes.push({ name, connections, current: current!, ref: refResult! })
    }
    for (const s of uncached) await stop(s.child)

    const cached = await start({})
    await measure(cached, await both(cached, (s) => cacheScenarios(s.url, s.headers)))
    for (const s of cached) await stop(s.child)
    await stop(bareServer.child)

    const [ourAudit, theirAudit] = await degreeAudits([ours.root, theirs.root])
    const side = (service: Service, mem: { rssMb: number; peakRssMb: number }, degreeAudit: DegreeAuditBench, search: Side['search']): Side =>
      ({ readyMs: service.readyMs, ...mem, degreeAudit, search })
    const current = side(uncached[0], ourMemory, ourAudit!, await searchFigures())
    const reference = side(uncached[1], theirMemory, theirAudit!, await searchFigures(theirs.root))

    const comparison: Comparison = { machine: machine(), options, ref: `${ref} (${checkout.commit.slice(0, 12)})`, scenarios, writes, current, reference }
    const text = comparisonReport(comparison)
    console.log(text)
    await mkdir('bench-results', { recursive: true })
    await writeFile('bench-results/compare.md', text)
    await writeFile('bench-results/compare.json', JSON.stringify(comparison, null, 2))
  } finally {
    for (const s of running) await stop(s.child)
    await rm(dataDir, { recursive: true, force: true })
    await checkout.remove()
  }
}
