/**
 * npm run bench -- --audit-trail [N]: the sample department (scale 1) with a long-lived audit trail of N
 * entries (default 1,000,000), against the same department with an empty trail. Every read of a
 * protected student record appends to the trail and nothing removes an entry, so a service that has
 * run for years holds millions; the question is whether holding them costs the service anything.
 *
 * The trail is written before the service starts (audit-fill.ts: the real AuditLog's chaining, in
 * batches of one transaction each) into a copy of the seeded directory; both are kept in the system's
 * temporary directory while the sources that wrote them are unchanged (seed-cache.ts; BENCH_RESEED=1
 * writes both again), and each run starts its services on copies. The service with the trail starts
 * first and alone; then the one without it. Each is started once, its first start's work awaited (the
 * new maintenance schedules run at once, verify-audit-chain among them, which walks the whole trail;
 * its time is reported) and stopped, then started again and measured from that restart: a service
 * that has run before, as one holding years of entries has.
 *
 * Then, with CACHE=off and 10 connections as in the catalog scenarios: the person read
 * (`GET /api/people/:id`) on both services in alternating rounds, each round after one of the bare
 * Fastify (load.ts, `alternated`); and on each service an audited read
 * (`GET /api/students/:id/enrollments`, one audit entry per request), first 3 s unmeasured, then
 * BENCH_AUDITED_READS requests (default 20,000) in chunks taken in turn between the services, the
 * resident set read from /proc before the first chunk and after the last.
 *
 * Targets, on the service holding the trail: ready (the restart) within 2 s; peak resident set through the person
 * reads at most 200 MB; the person read's throughput within 10% of the empty trail's (the median over
 * rounds of the two measured in the same round); the audited reads growing the resident set by at most
 * 15 MB. BENCH_DURATION, BENCH_ROUNDS and BENCH_CONNECTIONS apply as in run.ts. Results go to stdout and
 * bench-results/audit-trail-N.md and .json.
 */
import autocannon from 'autocannon'
import { constants } from 'node:fs'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fillAuditTrail, type AuditFill } from './audit-fill.js'
import { throughputRatio } from './comparison.js'
import { alternated, warmUp, type PairedResult, type Target } from './load.js'
import { freePort, memory, run, serviceArgs, startServer, stop, type Started } from './processes.js'
import { fmt, percent } from './report.js'
import { cpuTimeUs } from './scale-load.js'
import { summarize, type Latency } from './search.js'
import { benchEnv, cachedSeed, fingerprint, reseed, type SeedFigures } from './seed-cache.js'
import { auth, machine, options } from './setup.js'

export const auditTrailTargets = {
  readyMs: 2000,
  peakRssMb: 200,
  /** The person read's requests per second as a fraction of the same read's with an empty trail. */
  personOfEmpty: 0.9,
  auditedGrowthMb: 15,
} as const

export const defaultAuditTrail = 1_000_000
const auditedReads = Number(process.env.BENCH_AUDITED_READS ?? 20_000)

/** What a kept trail depends on beyond the seed: the log's chaining and entry format, and the fill. */
const fillSources = ['src/privacy/audit-log.ts', 'src/privacy/audit-entry.ts', 'scripts/bench/audit-fill.ts']

interface KeptFill extends AuditFill {
  readonly fingerprint: string
  readonly load: number
}

/**
 * The seeded directory with `entries` audit entries written into a copy of it, unless one from the same
 * sources is kept. A seed written just now is written again from scratch, ids included, so the trail is
 * filled again too: both services must hold the same department.
 */
async function cachedAuditTrail(seeded: string, seed: SeedFigures, seedReused: boolean, entries: number): Promise<{ dir: string; fill: KeptFill; reused: boolean }> {
  const root = join(tmpdir(), `adks-bench-audit-trail-${entries}`)
  const dir = join(root, 'filled')
  const marker = join(root, 'fill.json')
  const print = await fingerprint(fillSources, seed.fingerprint)
  if (seedReused && !reseed()) {
    const kept = await readFile(marker, 'utf8').then((text) => JSON.parse(text) as KeptFill, () => null)
    if (kept?.fingerprint === print && kept.entries === entries) return { dir, fill: kept, reused: true }
  }
  await rm(root, { recursive: true, force: true })
  await mkdir(root, { recursive: true })
  await cp(seeded, dir, { recursive: true })
  const fill = { ...await fillAuditTrail(dir, entries), fingerprint: print, load: loadavg()[0]! }
  await writeFile(marker, JSON.stringify(fill, null, 2))
  return { dir, fill, reused: false }
}

/** A copy for one start; a file system that can share the file's blocks does, which spares a gigabyte's copy. */
async function copyOf(dir: string, to: string): Promise<string> {
  await cp(dir, to, { recursive: true, mode: constants.COPYFILE_FICLONE })
  return to
}

async function json<T>(url: string, headers: Record<string, string>): Promise<T> {
  const response = await fetch(url, { headers })
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`)
  return response.json() as Promise<T>
}

interface JobView { readonly name: string; readonly state: string; readonly started_at: string | null; readonly finished_at: string | null; readonly result: Record<string, unknown> | null }

interface ChainCheck {
  readonly seconds: number
  readonly checked: number | null
  readonly intact: boolean | null
}

/**
 * Waits for the chain verification every start runs (the maintenance schedulers fire at once, then
 * daily) and gives its time. It reads every entry, so on a long trail it is seconds of the service's
 * CPU, which would otherwise be measured as the first scenario's. Null where no such job ran within
 * half a minute (a service whose jobs run elsewhere).
 */
async function startVerification(service: Service): Promise<ChainCheck | null> {
  const appearBy = Date.now() + 30_000
  const finishBy = Date.now() + 30 * 60_000
  for (;;) {
    const { items } = await json<{ items: JobView[] }>(`${service.url}/api/admin/jobs?queue=maintenance&limit=100`, service.headers)
    const verify = items.find((job) => job.name === 'verify-audit-chain')
    const busy = items.some((job) => job.state === 'waiting' || job.state === 'active')
    if (verify && !busy && (verify.state === 'completed' || verify.state === 'failed')) {
      const seconds = verify.started_at && verify.finished_at ? (Date.parse(verify.finished_at) - Date.parse(verify.started_at)) / 1000 : 0
      const checked = typeof verify.result?.checked === 'number' ? verify.result.checked : null
      const intact = typeof verify.result?.intact === 'boolean' ? verify.result.intact : null
      return { seconds, checked, intact }
    }
    if (!verify && Date.now() > appearBy) return null
    if (Date.now() > finishBy) throw new Error(`${service.name}: the start's verify-audit-chain job had not finished after 30 minutes`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** The newest entry's position: read before and after a load, it counts the entries the load appended. */
async function headSeq(service: Service): Promise<number> {
  const { items } = await json<{ items: { seq: number }[] }>(`${service.url}/api/admin/audit?limit=1`, service.headers)
  return items[0]?.seq ?? 0
}

interface Service extends Started {
  readonly name: string
  readonly port: number
  readonly headers: Record<string, string>
}

interface AuditedReads {
  readonly requests: number
  readonly errors: number
  /** Requests over the measured chunks' own time. */
  readonly rps: number
  /** Over every measured response, in milliseconds. */
  readonly latency: Latency
  /** Entries the measured requests appended, as the trail's head moved (the head reads' own entries left out). */
  readonly appended: number
  readonly rssBeforeMb: number
  readonly rssAfterMb: number
  readonly growthMb: number
  readonly cpuUs?: number
}

/** Chunks each service's audited reads are split into, taken in turn between the services. */
const auditedChunks = 4

/** Exactly `amount` requests, each response's time kept for exact percentiles. */
function driveAmount(url: string, headers: Record<string, string>, amount: number, latencies: number[]): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, headers, connections: options.connections, amount }, (error, result) => (error ? reject(error) : resolve(result)))
    instance.on('response', (_client, _status, _bytes, ms) => void latencies.push(ms))
  })
}

/**
 * The audited read on each service: 3 s unmeasured (compiling its paths and settling the heap), then
 * `auditedReads` requests each, in chunks taken in turn (the other service first every other chunk),
 * so that both see the same machine: every append waits for its flush to disk, and the disk is shared
 * with whatever else the machine runs. The resident set is read before the first chunk and after the last.
 */
async function measureAuditedReads(services: readonly Service[], path: string): Promise<AuditedReads[]> {
  const each = services.map((service) => ({ service, url: service.url + path, pid: service.child.pid!, latencies: [] as number[], requests: 0, errors: 0, seconds: 0, cpuUs: 0 }))
  for (const s of each) await warmUp({ url: s.url, headers: s.service.headers, pid: s.pid }, options, 3)
  const before = await Promise.all(each.map(async (s) => ({ head: await headSeq(s.service), rss: (await memory(s.pid)).rssMb })))
  for (let chunk = 0; chunk < auditedChunks; chunk++) {
    const amount = Math.floor(auditedReads * (chunk + 1) / auditedChunks) - Math.floor(auditedReads * chunk / auditedChunks)
    const order = chunk % 2 ? [...each].reverse() : each
    for (const s of order) {
      const cpuBefore = await cpuTimeUs(s.pid)
      // autocannon's own duration is in whole seconds.
      const started = performance.now()
      const result = await driveAmount(s.url, s.service.headers, amount, s.latencies)
      s.seconds += (performance.now() - started) / 1000
      s.cpuUs += await cpuTimeUs(s.pid) - cpuBefore
      s.requests += result.requests.total
      s.errors += result.errors + result.timeouts + result.non2xx
    }
  }
  return Promise.all(each.map(async (s, i) => {
    const rssAfter = (await memory(s.pid)).rssMb
    // The first head read leaves an entry of its own, after its answer.
    const appended = await headSeq(s.service) - before[i]!.head - 1
    return {
      requests: s.requests, errors: s.errors, rps: s.requests / s.seconds, latency: summarize(s.latencies, s.errors), appended,
      rssBeforeMb: before[i]!.rss, rssAfterMb: rssAfter, growthMb: rssAfter - before[i]!.rss,
      ...(s.requests ? { cpuUs: s.cpuUs / s.requests } : {}),
    }
  }))
}

interface Side {
  readonly entries: number
  /** The first start on the directory, which runs the new maintenance schedules at once (the chain check among them). */
  readonly firstStart: { readonly readyMs: number; readonly verification: ChainCheck | null }
  /** The start measured: a restart, as a department's service that has run before starts. */
  readonly readyMs: number
  readonly readyCpuS: number
  readonly rssAtReadyMb: number
  readonly verification: ChainCheck | null
  readonly person: PairedResult
  /** After the person reads, before the audited ones. */
  readonly rssMb: number
  readonly peakRssMb: number
  readonly audited: AuditedReads
  readonly finalPeakRssMb: number
}

interface AuditTrailFigures {
  readonly machine: string
  readonly options: typeof options
  readonly entries: number
  readonly seed: SeedFigures & { readonly reused: boolean }
  readonly fill: KeptFill & { readonly reused: boolean }
  readonly targets: typeof auditTrailTargets
  readonly trail: Side
  readonly empty: Side
  /** The person read's req/s with the trail over without it, the median over rounds. */
  readonly personOfEmpty: number
}

const verdict = (met: boolean) => (met ? 'met' : 'missed')

function report(f: AuditTrailFigures): string {
  const t = f.targets
  const { trail, empty } = f
  const n = fmt(f.entries)
  const chain = (c: ChainCheck | null) => (c ? `${fmt(c.seconds, 1)} s, ${c.checked === null ? '?' : fmt(c.checked)} checked${c.intact === false ? ', BROKEN' : ''}` : 'did not run')
  const person = (name: string, x: PairedResult) =>
    `| ${name} | ${fmt(x.rps)} | ${percent(x.ratio)} | ${fmt(x.bare.rps)} | ${fmt(x.p50, 1)} | ${fmt(x.p99, 1)} | ${x.cpuUs === undefined ? '' : fmt(x.cpuUs)} | ${x.errors} |`
  const audited = (name: string, a: AuditedReads, target: string) =>
    `| ${name} | ${fmt(a.requests)} (${fmt(a.appended)} entries appended) | ${fmt(a.rps)} | ${a.latency.p50} | ${a.latency.p99} | ${a.cpuUs === undefined ? '' : fmt(a.cpuUs)} | ` +
    `${fmt(a.rssBeforeMb, 1)} | ${fmt(a.rssAfterMb, 1)} | ${a.growthMb >= 0 ? '+' : ''}${fmt(a.growthMb, 1)} | ${a.errors} | ${target} |`
  const fill = f.fill
  return [
    `# ${n} audit records on the embedded store, ${new Date().toISOString().slice(0, 10)}`,
    '',
    `${f.machine}; ${f.options.rounds} round(s) of ${f.options.durationSeconds} s, ${f.options.connections} connections; CACHE=off.`,
    '',
    `The sample department (${f.seed.summary}), and a copy of it with ${n} audit entries written before the start through ` +
    `AuditLog.appendMany, ${fmt(fill.batch)} entries a transaction, in ${fmt(fill.seconds, 1)} s (load ${fill.load.toFixed(1)}${fill.reused ? '; kept from an earlier run' : ''}); ` +
    `its adks.sqlite ${fmt(fill.fileMb)} MB, head at ${fmt(fill.head.seq)}. The other service's trail held ${fmt(empty.entries)} entries.`,
    '',
    `| what | ${n} audit records | empty audit trail | target |`,
    '|---|---:|---:|---|',
    `| ready (the restart) | ${fmt(trail.readyMs)} ms (${fmt(trail.readyCpuS, 2)} s CPU) | ${fmt(empty.readyMs)} ms (${fmt(empty.readyCpuS, 2)} s CPU) | ≤ ${fmt(t.readyMs)} ms: ${verdict(trail.readyMs <= t.readyMs)} |`,
    `| RSS at ready | ${fmt(trail.rssAtReadyMb)} MB | ${fmt(empty.rssAtReadyMb)} MB | |`,
    `| the first start on the directory: ready, then its chain verification (verify-audit-chain, which a new daily schedule runs at once), awaited | ${fmt(trail.firstStart.readyMs)} ms, ${chain(trail.firstStart.verification)} | ${fmt(empty.firstStart.readyMs)} ms, ${chain(empty.firstStart.verification)} | |`,
    `| the restart measured: a chain verification run | ${trail.verification?.seconds ? 'yes' : 'none'} | ${empty.verification?.seconds ? 'yes' : 'none'} | |`,
    `| RSS after the person reads | ${fmt(trail.rssMb)} MB | ${fmt(empty.rssMb)} MB | |`,
    `| peak RSS through the person reads | ${fmt(trail.peakRssMb)} MB | ${fmt(empty.peakRssMb)} MB | ≤ ${t.peakRssMb} MB: ${verdict(trail.peakRssMb <= t.peakRssMb)} |`,
    `| peak RSS at the end (after the audited reads) | ${fmt(trail.finalPeakRssMb)} MB | ${fmt(empty.finalPeakRssMb)} MB | |`,
    '',
    `GET /api/people/:id, uncached, ${f.options.connections} connections, both services in each round after the bare Fastify (the median round of each shown):`,
    '',
    '| service | req/s | of bare | bare req/s | p50 ms | p99 ms | server CPU µs/req | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    person(`${n} audit records`, trail.person),
    person('empty audit trail', empty.person),
    '',
    `With ${n} audit records the person read serves ${percent(f.personOfEmpty)} of the requests per second it serves with an empty trail ` +
    `(the median over rounds of the two measured in the same round; target ≥ ${percent(t.personOfEmpty)}: ${verdict(f.personOfEmpty >= t.personOfEmpty)}).`,
    '',
    `Audited reads, GET /api/students/:id/enrollments (one audit entry each), ${f.options.connections} connections, after 3 s of the same read unmeasured, ` +
    `in ${auditedChunks} chunks per service taken in turn; RSS from /proc before the first chunk and after the last:`,
    '',
    '| service | requests | req/s | p50 ms | p99 ms | server CPU µs/req | RSS before MB | RSS after MB | growth MB | errors | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    audited(`${n} audit records`, trail.audited, `growth ≤ ${t.auditedGrowthMb} MB: ${verdict(trail.audited.growthMb <= t.auditedGrowthMb)}`),
    audited('empty audit trail', empty.audited, ''),
    '',
  ].join('\n')
}

export async function benchAuditTrail(entries: number): Promise<void> {
  await run('npm', ['run', 'build', '--silent'])
  const env = benchEnv()
  const { dir: seeded, seed, reused: seedReused } = await cachedSeed(1, env)
  const { dir: filled, fill, reused: fillReused } = await cachedAuditTrail(seeded, seed, seedReused, entries)
  const work = await mkdtemp(join(tmpdir(), 'adks-bench-audit-trail-run-'))
  const running: Started[] = []
  try {
    const dirs = { trail: await copyOf(filled, join(work, 'trail')), empty: await copyOf(seeded, join(work, 'empty')) }

    const bareServer = await startServer('node', ['--import', 'tsx', 'scripts/bench/bare-server.ts'], {}, await freePort(), '/')
    running.push(bareServer)
    const bare: Target = { url: `${bareServer.url}/`, headers: {}, pid: bareServer.child.pid }

    // One after the other, the second once the first's chain verification is over, so that neither's
    // start shares the machine with the other's.
    // Each directory is started once and stopped after that start's work (the new schedules run at
    // once), then started again and measured: the state of a service that has run before.
    const start = async (name: string, dataDir: string) => {
      const serviceEnv = { ...env, DATA_DIR: dataDir, CACHE: 'off' }
      const once = async () => {
        const port = await freePort()
        const started = await startServer('node', [...serviceArgs], serviceEnv, port, '/ready')
        running.push(started)
        const pid = started.child.pid!
        const readyCpuS = await cpuTimeUs(pid) / 1e6
        const { rssMb } = await memory(pid)
        const service: Service = { ...started, name, port, headers: await auth(serviceEnv, port) }
        return { service, readyCpuS, rssAtReadyMb: rssMb, verification: await startVerification(service) }
      }
      const first = await once()
      await stop(first.service.child)
      running.splice(running.indexOf(first.service), 1)
      const measured = await once()
      const ran = measured.verification && first.verification && measured.verification.seconds !== first.verification.seconds
      return { ...measured, verification: ran ? measured.verification : null, firstStart: { readyMs: first.service.readyMs, verification: first.verification } }
    }
    const withTrail = await start(`${fmt(entries)} audit records`, dirs.trail)
    const withoutTrail = await start('empty audit trail', dirs.empty)
    const services = [withTrail, withoutTrail]
    // In turn, never at once: each figure is one service's alone.
    const each = async <T>(f: (service: Service) => Promise<T>): Promise<T[]> => {
      const out: T[] = []
      for (const { service } of services) out.push(await f(service))
      return out
    }
    const held = await each(headSeq)

    // The same records in both (copies of one seed): the same person and student ids serve both.
    const base = withTrail.service
    const person = (await json<{ items: { _id: string }[] }>(`${base.url}/api/people?type=Faculty&limit=1`, base.headers)).items[0]!._id
    const student = (await json<{ items: { _id: string }[] }>(`${base.url}/api/people?type=UndergraduateStudent&limit=1`, base.headers)).items[0]!._id
    const personPath = `/api/people/${encodeURIComponent(person)}`
    const auditedPath = `/api/students/${encodeURIComponent(student)}/enrollments`
    const targets = services.map(({ service }) => ({ name: `GET /api/people/:id, ${service.name}`, target: { url: service.url + personPath, headers: service.headers, pid: service.child.pid } }))

    for (const { target } of targets) await warmUp(target, options, 3)
    const [trailPerson, emptyPerson] = await alternated(bare, targets, options) as [PairedResult, PairedResult]
    const afterPerson = await each((service) => memory(service.child.pid!))
    const audited = await measureAuditedReads(services.map((s) => s.service), auditedPath)
    const finalPeak = await each(async (service) => (await memory(service.child.pid!)).peakRssMb)

    const side = (i: number, personResult: PairedResult): Side => ({
      entries: held[i]!, firstStart: services[i]!.firstStart, readyMs: services[i]!.service.readyMs, readyCpuS: services[i]!.readyCpuS, rssAtReadyMb: services[i]!.rssAtReadyMb,
      verification: services[i]!.verification, person: personResult, rssMb: afterPerson[i]!.rssMb, peakRssMb: afterPerson[i]!.peakRssMb,
      audited: audited[i]!, finalPeakRssMb: finalPeak[i]!,
    })
    const figures: AuditTrailFigures = {
      machine: machine(), options, entries, seed: { ...seed, reused: seedReused }, fill: { ...fill, reused: fillReused }, targets: auditTrailTargets,
      trail: side(0, trailPerson), empty: side(1, emptyPerson),
      personOfEmpty: throughputRatio({ name: personPath, current: trailPerson, ref: emptyPerson }),
    }
    const text = report(figures)
    console.log(text)
    await mkdir('bench-results', { recursive: true })
    await writeFile(`bench-results/audit-trail-${entries}.md`, text)
    await writeFile(`bench-results/audit-trail-${entries}.json`, JSON.stringify(figures, null, 2))
  } finally {
    for (const s of running) await stop(s.child)
    await rm(work, { recursive: true, force: true })
  }
}
