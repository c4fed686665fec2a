/**
 * npm run bench -- --history [--scale N]: record history (every write keeps a revision, docs/history.md) on
 * the embedded store, the department at N times its size (default 10), seeded once and kept as the
 * scale runs keep theirs (seed-cache.ts). One service, started with `npm start`'s flags and CACHE=off on
 * a copy of the seed, the bare Fastify beside it, and in turn:
 *
 * - writes: PUT /api/people/:id on 100 faculty members, a real change each time (person-writes.ts), 10
 *   connections: 3 s unmeasured, then BENCH_HISTORY_WRITES (default 20,000) writes, every response
 *   timed, and then as many again. The revisions they wrote are counted from the people's histories
 *   (each history's total).
 * - memory: the resident set settled (settled-memory.ts: 5 s idle, then two full collections asked of
 *   the service), with its parts from /proc, before the writes, after the first batch (the target: within
 *   10% of before) and after the second (whether it keeps growing with the revisions).
 * - history: `GET /api/people/:id/history?limit=50` on one of those people (about 400 revisions), its
 *   first page and its last, 400 requests one at a time after 40 unmeasured, with the service's CPU per
 *   request; the same for a publication given as many revisions (a resource whose history is redacted
 *   per caller, so read by walking back from the present); the bare Fastify timed the same way; then the
 *   person's first page under 10 connections in rounds beside the bare Fastify. Target: p95 of the
 *   person's first page one at a time at most 10 ms.
 * - revert: a campus sync run that updated 1,000 people, reverted through the API (run-revert.ts),
 *   timed to the job's completion, beside the run itself, with the service's CPU time over each.
 *   Target: at most 10 s.
 *
 * BENCH_DURATION, BENCH_ROUNDS and BENCH_CONNECTIONS apply as in run.ts. Results go to stdout and
 * bench-results/history-scale-N.md and .json.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { warmUp, type Target } from './load.js'
import { facultyToWrite, personWriteName, personWrites } from './person-writes.js'
import { freePort, memory, run, serviceArgs, startServer, stop, type Started } from './processes.js'
import { fmt, percent } from './report.js'
import { benchRunRevert, type JobTiming, type RunRevert } from './run-revert.js'
import { cpuTimeUs, pairedTimed, timedAmount, type PairedTimed, type Timed } from './scale-load.js'
import { measureLatency, type Latency } from './search.js'
import { benchEnv, cachedSeed, type SeedFigures } from './seed-cache.js'
import { collectableArgs, settledMemory, type SettledMemory } from './settled-memory.js'
import { auth, machine, options } from './setup.js'

export const historyTargets = {
  /** Settled resident set after the writes, as a fraction of it before them. */
  rssGrowth: 0.1,
  /** p95 of a history page of 50, one request at a time, in ms. */
  pageP95: 10,
  /** A revert of a run that wrote 1,000 records, in seconds. */
  revertS: 10,
} as const

const writtenPeople = 100
const revisionWrites = Number(process.env.BENCH_HISTORY_WRITES ?? 20_000)
const pageLimit = 50
const timedPages = 400

/** A request timed one at a time, with the server's CPU time per request. */
interface Timed1 {
  readonly latency: Latency
  readonly cpuUs: number
}

interface Page extends Timed1 {
  readonly name: string
  readonly offset: number
}

interface HistoryFigures {
  readonly machine: string
  readonly options: typeof options
  readonly scale: number
  readonly seed: SeedFigures & { readonly reused: boolean }
  readonly readyMs: number
  readonly rssAtReadyMb: number
  readonly writes: Timed & { readonly people: number; readonly revisions: number }
  readonly memoryBefore: SettledMemory
  /** Right after the last write, before settling. */
  readonly rssAfterWritesMb: number
  readonly memoryAfter: SettledMemory
  /** As many writes again, and the resident set settled after them: whether it grows with the revisions. */
  readonly again: Timed
  readonly memoryAfterAgain: SettledMemory
  /** The person whose history is read, and how many revisions it had. */
  readonly person: { readonly id: string; readonly revisions: number }
  readonly pages: readonly Page[]
  readonly bare: Timed1
  readonly loadedPage: PairedTimed
  readonly revert: RunRevert
  /** The resident set's peak (VmHWM) as it stood after each phase. */
  readonly peakRssMb: { readonly writes: number; readonly histories: number; readonly revert: number }
}

type Headers = Record<string, string>

/** `timedPages` requests to `url` one at a time, after a tenth as many unmeasured. */
async function oneAtATime(url: string, headers: Headers, pid: number | undefined): Promise<Timed1> {
  await measureLatency([url], headers, { concurrency: 1, rounds: timedPages / 10, warmup: 0 })
  const before = pid === undefined ? 0 : await cpuTimeUs(pid)
  const latency = await measureLatency([url], headers, { concurrency: 1, rounds: timedPages, warmup: 0 })
  return { latency, cpuUs: pid === undefined ? Number.NaN : (await cpuTimeUs(pid) - before) / latency.requests }
}

/** A record's revisions, by its history's total; `path`, its resource's. */
async function revisionsOf(base: string, headers: Headers, id: string, path = '/api/people'): Promise<number> {
  const response = await fetch(`${base}${path}/${encodeURIComponent(id)}/history?limit=1`, { headers })
  if (!response.ok) throw new Error(`history of ${id}: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { total: number }).total
}

async function revisionsOfAll(base: string, headers: Headers, ids: readonly string[]): Promise<number> {
  let total = 0
  for (const id of ids) total += await revisionsOf(base, headers, id)
  return total
}

/** The first page of a record's history and its last, each timed one request at a time. */
async function historyPages(base: string, path: string, id: string, headers: Headers, pid: number, label: string): Promise<Page[]> {
  const revisions = await revisionsOf(base, headers, id, path)
  const url = (offset: number) => `${base}${path}/${encodeURIComponent(id)}/history?limit=${pageLimit}&offset=${offset}`
  const last = Math.max(0, revisions - pageLimit)
  const offsets: [string, number][] = [[`GET ${path}/:id/history?limit=${pageLimit}, ${label}, the first page`, 0]]
  if (last > 0) offsets.push([`the same, its last page (offset ${fmt(last)})`, last])
  const pages: Page[] = []
  for (const [name, offset] of offsets) pages.push({ name, offset, ...await oneAtATime(url(offset), headers, pid) })
  return pages
}

/**
 * Writes `count` changes to a publication, one at a time: a resource whose records may name students
 * (dept_authors), so that its history is worked out per caller by walking back from the record as it is
 * now (history/reader.ts), where a person's is read from its revisions' patches alone.
 */
async function revisePublication(base: string, headers: Headers, count: number): Promise<string> {
  const list = await fetch(`${base}/api/publications?limit=1`, { headers })
  if (!list.ok) throw new Error(`GET /api/publications: ${list.status} ${await list.text()}`)
  const id = ((await list.json()) as { items: { _id: string }[] }).items[0]!._id
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${base}/api/publications/${encodeURIComponent(id)}`, {
      method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ citation_count: 1_000_000 + i }),
    })
    if (!response.ok) throw new Error(`PUT /api/publications/:id: ${response.status} ${await response.text()}`)
    await response.arrayBuffer()
  }
  return id
}

const verdict = (met: boolean) => (met ? 'met' : 'missed')
const mb = (n: number) => `${fmt(n, 1)} MB`

function report(f: HistoryFigures): string {
  const t = historyTargets
  const growth = (m: SettledMemory) => m.rssMb / f.memoryBefore.rssMb - 1
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${percent(x)}`
  const memoryFigure = (m: SettledMemory) =>
    `${mb(m.rssMb)}: anonymous ${mb(m.anonMb)}, file ${mb(m.fileMb)}, shared ${mb(m.shmemMb)}; V8 heap ${mb(m.heapUsedMb)} used of ${mb(m.heapTotalMb)}, ` +
    `external ${mb(m.externalMb)} (${mb(m.idleRssMb)} before the collections)`
  const job = (j: JobTiming) => `${fmt(j.seconds, 2)} s (the job itself ${fmt(j.jobSeconds, 2)} s; ${fmt(j.cpuSeconds, 2)} s of the service's CPU)`
  const writes = (w: Timed, revisions: string) =>
    `${fmt(w.latency.requests)} writes${revisions}, ${fmt(w.rps)} writes/s, p50 ${w.latency.p50} ms, p95 ${w.latency.p95} ms, p99 ${w.latency.p99} ms, ` +
    `${w.cpuUs === undefined ? '?' : fmt(w.cpuUs)} µs of the service's CPU a write, ${w.errors} errors`
  const r = f.revert
  const reverted = Number(r.revert.result.reverted ?? 0)
  const conflicts = (r.revert.result.conflicts as unknown[] | undefined)?.length ?? 0
  const latencyRow = (name: string, inFlight: number, l: Latency, cpuUs: number | undefined, target: string) =>
    `| ${name} | ${inFlight} | ${fmt(l.requests)} | ${l.p50} | ${l.p95} | ${l.p99} | ${l.max} | ${cpuUs === undefined || Number.isNaN(cpuUs) ? '' : fmt(cpuUs)} | ${l.errors} | ${target} |`
  const first = f.pages[0]!
  const w = f.writes
  const n = fmt(w.latency.requests)
  return [
    `# Record history at scale ${f.scale} on the embedded store, ${new Date().toISOString().slice(0, 10)}`,
    '',
    `${f.machine}; ${f.options.connections} connections where a load is driven; CACHE=off.`,
    '',
    `Seed: ${f.seed.summary}${f.seed.reused ? ' (kept from an earlier run)' : ''}. Ready after ${fmt(f.readyMs)} ms, RSS ${mb(f.rssAtReadyMb)} at ready.`,
    '',
    '| what | figure | target |',
    '|---|---|---|',
    `| ${personWriteName}, ${fmt(w.people)} people, ${f.options.connections} connections, after 3 s of the same writes unmeasured | ${writes(w, ` (${fmt(w.revisions)} revisions written, by the histories' totals)`)} | |`,
    `| RSS settled before the writes | ${memoryFigure(f.memoryBefore)} | |`,
    `| RSS right after the writes | ${mb(f.rssAfterWritesMb)} | |`,
    `| RSS settled after the writes | ${memoryFigure(f.memoryAfter)}; ${signed(growth(f.memoryAfter))} | ≤ +${percent(t.rssGrowth)}: ${verdict(growth(f.memoryAfter) <= t.rssGrowth)} |`,
    `| ${n} writes more | ${writes(f.again, '')} | |`,
    `| RSS settled after them | ${memoryFigure(f.memoryAfterAgain)}; ${signed(growth(f.memoryAfterAgain))} of the RSS before the first ${n} | |`,
    `| the campus sync run reverted: ${fmt(r.people)} people renamed | ${job(r.update)}; the first run, creating them, ${job(r.create)} | |`,
    `| its revert, dry run | ${job(r.dryRun)}: ${fmt(Number(r.dryRun.result.reverted ?? 0))} records it would revert | |`,
    `| its revert | ${job(r.revert)}: ${fmt(reverted)} records reverted, ${conflicts} conflicts; ${fmt(r.restored)} of the ${fmt(r.named)} named read back as before the run | ` +
    `≤ ${t.revertS} s: ${verdict(r.revert.seconds <= t.revertS && r.restored === r.people)} |`,
    `| peak RSS, as it stood after the writes, after the histories, after the revert | ${mb(f.peakRssMb.writes)}, ${mb(f.peakRssMb.histories)}, ${mb(f.peakRssMb.revert)} | |`,
    '',
    `Histories of ${f.person.id} (one of the people written) and of a publication given as many revisions one at a time, as an admin, each request timed ` +
    'from send to the end of the body; a person\'s history is read from its revisions\' patches, a publication\'s (its records may name students) ' +
    'worked out per caller from states rebuilt by walking back from the record as it is now:',
    '',
    '| request | in flight | requests | p50 ms | p95 ms | p99 ms | max ms | server CPU µs/req | errors | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...f.pages.map((p) => latencyRow(p.name, 1, p.latency, p.cpuUs, p === first ? `p95 ≤ ${t.pageP95} ms: ${verdict(p.latency.p95 <= t.pageP95)}` : '')),
    latencyRow('bare Fastify: GET / (timed the same way)', 1, f.bare.latency, f.bare.cpuUs, ''),
    latencyRow(`${first.name}, the median of ${f.options.rounds} rounds of ${f.options.durationSeconds} s`, f.options.connections, f.loadedPage.latency, f.loadedPage.cpuUs, ''),
    '',
    `Under ${f.options.connections} connections the first page served ${fmt(f.loadedPage.rps)} req/s (${percent(f.loadedPage.ratio)} of the bare Fastify's ${fmt(f.loadedPage.bare.rps)} in the same round).`,
    '',
  ].join('\n')
}

export async function benchHistory(scale: number): Promise<void> {
  await run('npm', ['run', 'build', '--silent'])
  const env = benchEnv()
  const { dir: seeded, seed, reused } = await cachedSeed(scale, env)
  const work = await mkdtemp(join(tmpdir(), 'adks-bench-history-'))
  const running: Started[] = []
  try {
    const dataDir = join(work, 'data')
    await cp(seeded, dataDir, { recursive: true })
    const memoryFile = join(work, 'memory.json')
    const serviceEnv = { ...env, DATA_DIR: dataDir, CACHE: 'off', BENCH_MEMORY_FILE: memoryFile }

    const bareServer = await startServer('node', ['--import', 'tsx', 'scripts/bench/bare-server.ts'], {}, await freePort(), '/')
    running.push(bareServer)
    const bare: Target = { url: `${bareServer.url}/`, headers: {}, pid: bareServer.child.pid }

    const port = await freePort()
    const service = await startServer('node', [...collectableArgs, ...serviceArgs], serviceEnv, port, '/ready', undefined, 3000)
    running.push(service)
    const pid = service.child.pid!
    const atReady = await memory(pid)
    const admin = await auth(serviceEnv, port)
    const base = service.url

    const people = await facultyToWrite(base, admin, writtenPeople)
    const writer = personWrites(base, admin, people, options.connections, pid)
    await warmUp(writer, options, 3)
    const memoryBefore = await settledMemory(pid, memoryFile)
    const revisionsBefore = await revisionsOfAll(base, admin, people)
    console.error(`history: ${fmt(revisionWrites)} writes on ${people.length} people, twice`)
    const writes = await timedAmount(personWriteName, writer, options.connections, revisionWrites)
    const rssAfterWritesMb = (await memory(pid)).rssMb
    const memoryAfter = await settledMemory(pid, memoryFile)
    const revisions = await revisionsOfAll(base, admin, people) - revisionsBefore
    // As many again: a resident set that grows with the revisions grows again; a cache that filled does not.
    const again = await timedAmount(personWriteName, writer, options.connections, revisionWrites)
    const memoryAfterAgain = await settledMemory(pid, memoryFile)
    const peakAfterWrites = (await memory(pid)).peakRssMb

    const person = people[0]!
    const personRevisions = await revisionsOf(base, admin, person)
    const pages = await historyPages(base, '/api/people', person, admin, pid, `${fmt(personRevisions)} revisions`)
    const publication = await revisePublication(base, admin, personRevisions - 1)
    const publicationRevisions = await revisionsOf(base, admin, publication, '/api/publications')
    pages.push(...await historyPages(base, '/api/publications', publication, admin, pid, `${fmt(publicationRevisions)} revisions, redacted per caller`))
    const bareLatency = await oneAtATime(bare.url, {}, bare.pid)
    const firstPage = `${base}/api/people/${encodeURIComponent(person)}/history?limit=${pageLimit}`
    const loadedPage = await pairedTimed(pages[0]!.name, bare, { url: firstPage, headers: admin, pid }, options)

    const peakAfterHistories = (await memory(pid)).peakRssMb

    console.error('history: a campus sync run of 1,000 people, and its revert')
    const revert = await benchRunRevert(base, admin, pid)
    const peakRssMb = { writes: peakAfterWrites, histories: peakAfterHistories, revert: (await memory(pid)).peakRssMb }

    const figures: HistoryFigures = {
      machine: machine(), options, scale, seed: { ...seed, reused }, readyMs: service.readyMs, rssAtReadyMb: atReady.rssMb,
      writes: { ...writes, people: people.length, revisions }, memoryBefore, rssAfterWritesMb, memoryAfter, again, memoryAfterAgain,
      person: { id: person, revisions: personRevisions }, pages, bare: bareLatency, loadedPage, revert, peakRssMb,
    }
    const text = report(figures)
    console.log(text)
    await mkdir('bench-results', { recursive: true })
    await writeFile(`bench-results/history-scale-${scale}.md`, text)
    await writeFile(`bench-results/history-scale-${scale}.json`, JSON.stringify(figures, null, 2))
  } finally {
    for (const s of running) await stop(s.child)
    await rm(work, { recursive: true, force: true })
  }
}
