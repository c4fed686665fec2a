/**
 * npm run bench:sync: campus sync and publication import at department scale, on the embedded store.
 * A OneRoster REST feed of 10,000 users, 2,000 classes and 40,000 enrollments, served over HTTP on
 * 127.0.0.1, synced in one complete pass (courses, sections, people) onto an empty store (target 20 s),
 * then again with nothing changed (target 5 s), after which the audit log's hash chain must verify;
 * then 2,000 works of 40 faculty imported from an OpenAlex played the same way (target 10 s). Each run
 * reports when it started writing, so a missed target shows whether reading and planning or writing
 * took the time. Figures go to stdout and bench-results/sync-latest.json.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { OpenAlexClient } from '../../src/publications/openalex/client.js'
import { runPublicationImport } from '../../src/publications/import.js'
import type { CampusSyncConfig } from '../../src/campus-sync/config.js'
import { runCampusSync, syncKinds, type SyncDeps } from '../../src/campus-sync/runner.js'
import { campusFeed, oneRosterServer, openAlexServer } from './sync-feeds.js'
import type { Actor } from '../../src/actor.js'

/** The benchmark's own set-up writes, as their revisions name them. */
const benchActor: Actor = { id: 'bench', name: 'Benchmark set-up', via: 'bench' }

const size = { users: 10_000, classes: 2_000, enrollments: 40_000 }
const faculty = 40
const worksEach = 50
const targets = { first: 20, unchanged: 5, publications: 10 }

interface Step { kind: string; seconds: number; readingSeconds: number; counts: Record<string, number> }

const seconds = (ms: number) => Math.round(ms) / 1000
const log = { info: () => {}, error: () => {} }

/** One complete pass; each run's reading-and-planning time is until it reports its first write. */
async function fullPass(deps: SyncDeps): Promise<{ seconds: number; steps: Step[] }> {
  const steps: Step[] = []
  const start = performance.now()
  for (const kind of syncKinds) {
    const began = performance.now()
    let writing: number | undefined
    const progress = async (_percent: number, message?: string) => { if (writing === undefined && message?.startsWith('writing')) writing = performance.now() }
    const result = await runCampusSync(deps, { kind }, { signal: new AbortController().signal, progress, log })
    if (result.status !== 'completed') throw new Error(`the ${kind} run ${result.status}: ${result.message ?? ''}`)
    const ended = performance.now()
    steps.push({
      kind, seconds: seconds(ended - began), readingSeconds: seconds((writing ?? ended) - began),
      counts: { created: result.created, updated: result.updated, unchanged: result.unchanged, deactivated: result.deactivated, errors: result.errors.length },
    })
  }
  return { seconds: seconds(performance.now() - start), steps }
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'adks-bench-sync-'))
  const feed = campusFeed(size)
  const oneRoster = await oneRosterServer(feed)
  const openAlex = await openAlexServer(faculty, worksEach)
  const app = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, WORKERS: 'off' }))
  try {
    await app.ready()
    const config: CampusSyncConfig = {
      source: { type: 'oneroster-rest', url: oneRoster.url, tokenUrl: `${oneRoster.url}/token`, clientId: 'bench', clientSecret: 'bench' },
      terms: [], deletePolicy: 'deactivate', maxDeactivatePercent: 10,
    }
    // As the campus-sync job runs it, with the source's default page size (100).
    const deps: SyncDeps = { records: app.records, schema: app.schema, enrollments: app.enrollments, auditLog: app.auditLog, secrets: app.secrets, config }
    const first = await fullPass(deps)
    const firstRequests = oneRoster.requests
    const unchanged = await fullPass(deps)
    // Enrollment writes are audited a page of entries at a time; the figures count only if the chain holds.
    const chain = await app.auditLog.verify()
    if (!chain.intact) throw new Error(`the audit chain breaks at entry ${chain.firstBrokenAt}: ${chain.reason}`)

    for (let n = 1; n <= faculty; n++) await app.records.create('Faculty', { first_name: `Author${n}`, last_name: 'Bench', bibliography_source_id: `A${n}` }, { actor: benchActor })
    const importStart = performance.now()
    const imported = await runPublicationImport(
      { records: app.records, schema: app.schema, openalex: new OpenAlexClient({ baseUrl: openAlex.url }), invalidate: (c) => app.responseCache.invalidate(c) },
      {}, { signal: new AbortController().signal, progress: async () => {}, log },
    )
    const publications = { seconds: seconds(performance.now() - importStart), people: imported.people, created: imported.created, errors: imported.errors.length }

    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end`
    const figures = { machine, size, feedRequests: { first: firstRequests, unchanged: oneRoster.requests - firstRequests }, first, unchanged, auditChain: { intact: true, entries: chain.checked }, publications, targets }
    const mark = (value: number, target: number) => `${value.toFixed(2)} s (target ${target} s${value <= target ? '' : ', missed'})`
    console.log(`Machine: ${machine}`)
    console.log(`First sync of ${size.users} users, ${size.classes} classes, ${size.enrollments} enrollments: ${mark(first.seconds, targets.first)}`)
    for (const step of first.steps) console.log(`  ${step.kind}: ${step.seconds} s (reading and planning ${step.readingSeconds} s) ${JSON.stringify(step.counts)}`)
    console.log(`Unchanged re-run: ${mark(unchanged.seconds, targets.unchanged)}`)
    for (const step of unchanged.steps) console.log(`  ${step.kind}: ${step.seconds} s (reading and planning ${step.readingSeconds} s) ${JSON.stringify(step.counts)}`)
    console.log(`Audit log after both passes: ${chain.checked} entries, hash chain intact`)
    console.log(`Import of ${faculty * worksEach} works for ${faculty} faculty: ${mark(publications.seconds, targets.publications)} ${JSON.stringify(publications)}`)
    await mkdir('bench-results', { recursive: true })
    await writeFile('bench-results/sync-latest.json', `${JSON.stringify(figures, null, 2)}\n`)
  } finally {
    await app.close()
    await oneRoster.close()
    await openAlex.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
