/**
 * npm run bench:search: seeds the sample department at BENCH_SCALE (default 10) into a temporary data
 * directory (`scripts/seed.ts --scale`), measures the memory the search index takes for it, starts the service as
 * its own process and measures /api/search/all latency as a faculty member (students filtered out) and
 * as an admin, one request at a time and then BENCH_CONCURRENCY in flight, beside the signed-in request
 * path without search. Results go to stdout and bench-results/search.md and .json. The issue's target:
 * p95 at most 10 ms.
 *
 * Run with --expose-gc (the npm script does) so the index's heap size is measured after collection.
 * BENCH_CONCURRENCY (default 4) and BENCH_ROUNDS (default 40) tune the load. Another benchmark can measure
 * a service it started itself with `benchSearch` from ./search.js.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { signingKeys } from '../../src/auth/keys.js'
import { signIdToken, userIdForEmail } from '../../src/auth/tokens.js'
import { loadConfig } from '../../src/config.js'
import { SearchIndex } from '../../src/domain/search/search-index.js'
import { RecordService } from '../../src/records/service.js'
import { compileSchema, type CompiledSchema } from '../../src/schema/index.js'
import { documentOf, searchKinds } from '../../src/search/documents.js'
import { openStore } from '../../src/store/open.js'
import { freePort, memory, run, startServer, stop } from './processes.js'
import { benchSearch, measureLatency, searchPrefixes, summarize, type Latency } from './search.js'

const scale = Number(process.env.BENCH_SCALE ?? 10)
const options = { concurrency: Number(process.env.BENCH_CONCURRENCY ?? 4), rounds: Number(process.env.BENCH_ROUNDS ?? 40) }

function heapMb(): number {
  globalThis.gc?.()
  return process.memoryUsage().heapUsed / 2 ** 20
}

/** The index as the service builds it; the records read on the way are garbage once this returns. */
async function indexOf(records: RecordService, schema: CompiledSchema): Promise<SearchIndex> {
  const documents = []
  for (const kind of searchKinds(schema)) {
    for (const record of await records.find(kind.root, {})) documents.push(documentOf(schema, kind.name, record))
  }
  return SearchIndex.of(documents)
}

/** The index's own query time, without HTTP: every benchmark query, as a non-admin sees them. */
function queryTimes(index: SearchIndex, schema: CompiledSchema, rounds: number): Latency {
  const students = new Set([...schema.model.classes.values()].filter((c) => c.metadata.student).map((c) => c.name))
  const accept = (entry: { type: string }) => !students.has(entry.type)
  const times: number[] = []
  for (let i = 0; i < rounds + 5; i++) {
    for (const q of searchPrefixes) {
      const started = performance.now()
      index.search(q, { limit: 10, accept })
      if (i >= 5) times.push(performance.now() - started)
    }
  }
  return summarize(times)
}

interface Prepared {
  readonly seedSeconds: number
  readonly index: { readonly documents: number; readonly words: number; readonly heapMb: number; readonly query: Latency }
}

/** Seeds the department, then measures the heap an index of it holds and its query time, in this process. */
async function prepare(env: Record<string, string>): Promise<Prepared> {
  const started = performance.now()
  await run('node', ['--import', 'tsx', 'scripts/seed.ts', '--scale', String(scale)], env)
  const seedSeconds = (performance.now() - started) / 1000
  const config = loadConfig(env)
  const schema = await compileSchema(config.schemaDir)
  const store = await openStore(config, schema.collections.map((c) => c.name))
  try {
    const records = new RecordService(store, schema)

    const before = heapMb()
    const index = await indexOf(records, schema)
    const after = heapMb()
    const query = queryTimes(index, schema, options.rounds)
    return { seedSeconds, index: { documents: index.size, words: index.vocabularySize, heapMb: after - before, query } }
  } finally {
    await store.close()
  }
}

function line(name: string, concurrency: number, r: Latency, target = true): string {
  return `| ${name} | ${concurrency} | ${r.requests} | ${r.mean} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.max} | ${r.errors} | ${target ? (r.p95 <= 10 ? 'met' : 'missed') : ''} |`
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'adks-search-bench-'))
  const port = await freePort()
  const env = {
    DATA_DIR: dataDir, PORT: String(port), NODE_ENV: 'production', LOG_LEVEL: 'warn',
    JWT_SECRET: `search-bench-${Date.now()}-secret-value-0123456789abcdef`,
    SECRETS_KEY: Buffer.from('bench secrets key, 32 bytes long').toString('base64'),
    // The benchmark measures search, not the per-user limit it would otherwise run into.
    RATE_LIMIT_USER: '100000000',
  }
  try {
    const prepared = await prepare(env)
    const service = await startServer('node', ['--import', 'tsx', 'src/server.ts'], env, port, '/ready')
    const config = loadConfig(env)
    const keys = await signingKeys(config)
    const bearer = (email: string, role: 'faculty' | 'admin') => ({ authorization: `Bearer ${signIdToken(keys, config, { sub: userIdForEmail(email), email, role_grant: role })}` })
    const facultyAuth = bearer('bench-faculty@dept.example.edu', 'faculty')
    const adminAuth = bearer('bench-admin@dept.example.edu', 'admin')
    const runs = []
    for (const concurrency of [...new Set([1, options.concurrency])]) {
      const at = { ...options, concurrency }
      runs.push({
        concurrency,
        faculty: await benchSearch(service.url, facultyAuth, at),
        admin: await benchSearch(service.url, adminAuth, at),
        // The signed-in request path without search, at the same load: what the machine and the stack cost.
        baseline: await measureLatency(searchPrefixes.map(() => `${service.url}/api/auth/me`), facultyAuth, at),
      })
    }
    const mem = await memory(service.child.pid!)
    await stop(service.child)

    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`
    const { seedSeconds, index } = prepared
    const text = [
      `Search benchmark on the sample department at scale ${scale} (seeded in ${seedSeconds.toFixed(0)} s): ${index.documents} people, courses and labs indexed.`,
      `Machine: ${machine}, load average ${loadavg()[0]!.toFixed(1)}. Each of ${searchPrefixes.length} queries sent ${options.rounds} times after warm-up, one at a time and then ${options.concurrency} in flight.`,
      '',
      '| measured | in flight | requests | mean ms | p50 ms | p95 ms | p99 ms | max ms | errors | p95 ≤ 10 ms |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      ...runs.flatMap((run) => [
        line('GET /api/search/all as faculty (students filtered out)', run.concurrency, run.faculty),
        line('GET /api/search/all as admin (everything)', run.concurrency, run.admin),
        line('baseline: GET /api/auth/me as faculty (no search)', run.concurrency, run.baseline, false),
      ]),
      line('the index alone, in process, as faculty', 1, index.query, false),
      '',
      `Index: ${index.documents} documents, ${index.words} distinct words, ${index.heapMb.toFixed(1)} MB of heap${globalThis.gc ? '' : ' (approximate: run with --expose-gc)'}.`,
      `Service RSS after the runs ${mem.rssMb.toFixed(0)} MB (peak ${mem.peakRssMb.toFixed(0)} MB); ready ${service.readyMs.toFixed(0)} ms after start.`,
      '',
      `Matches per query (admin): ${Object.entries(runs[0]!.admin.totals).map(([q, n]) => `${q}=${n}`).join(', ')}`,
    ].join('\n')
    console.log(text)
    await mkdir('bench-results', { recursive: true })
    await writeFile('bench-results/search.md', `${text}\n`)
    await writeFile('bench-results/search.json', JSON.stringify({ scale, machine, seedSeconds, index, options, runs, ...mem, readyMs: service.readyMs }, null, 2))
    if (runs.some((run) => run.faculty.errors || run.admin.errors || run.baseline.errors)) process.exitCode = 1
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
