/**
 * What `npm run bench` and its comparison of two checkouts share: the load options and scenario filter
 * from the environment, a built checkout seeded with the sample department, the token its service
 * accepts, the 10x search run and the machine's description.
 */
import { cp, readFile } from 'node:fs/promises'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { signingKeys } from '../../src/auth/keys.js'
import { signIdToken, userIdForEmail } from '../../src/auth/tokens.js'
import { loadConfig } from '../../src/config.js'
import type { LoadOptions } from './load.js'
import { run } from './processes.js'
import type { SearchFigures } from './report.js'

const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
export const wanted = (name: string) => !only || only.test(name)

export const options: LoadOptions = {
  durationSeconds: Number(process.env.BENCH_DURATION ?? 5),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
}

export interface Seeded {
  /** The services' environment, on the seeded data directory. */
  readonly env: Record<string, string>
  /**
   * A copy of the seeded directory for one start: the degree-progress scenario adds records and appends
   * an audit record per request (tens of thousands in a run), and the cached reads must not depend on how
   * long that scenario ran.
   */
  fresh(): Promise<{ DATA_DIR: string }>
}

/** Builds the checkout at `cwd` (this one by default) and seeds `dataDir` with its sample department. */
export async function seed(dataDir: string, cwd?: string): Promise<Seeded> {
  await run('npm', ['run', 'build', '--silent'], {}, cwd)
  const seeded = join(dataDir, 'seeded')
  // The load comes from one user and one key: at the default limits nearly every answer would be a 429.
  const env = {
    DATA_DIR: seeded, NODE_ENV: 'production', JWT_SECRET: `bench-${Date.now()}-secret-value-0123456789abcdef`, LOG_LEVEL: 'warn',
    SECRETS_KEY: Buffer.from('bench secrets key, 32 bytes long').toString('base64'),
    RATE_LIMIT_USER: '1000000000', RATE_LIMIT_KEY_READ: '1000000000',
  }
  await run('node', ['dist/scripts/seed.js'], env, cwd)
  let starts = 0
  const fresh = async () => {
    const dir = join(dataDir, `start-${++starts}`)
    await cp(seeded, dir, { recursive: true })
    return { DATA_DIR: dir }
  }
  return { env, fresh }
}

/** An admin's bearer token for a service on `port`: the token's issuer and audience name the port. */
export async function auth(env: Record<string, string>, port: number): Promise<Record<string, string>> {
  const config = loadConfig({ ...env, PORT: String(port) })
  const token = signIdToken(await signingKeys(config), config, { sub: userIdForEmail('bench@dept.example.edu'), email: 'bench@dept.example.edu', role_grant: 'admin' })
  return { authorization: `Bearer ${token}` }
}

/** The node arguments `npm start` of the checkout at `root` serves with: its last command, less `node`. */
export async function startArgs(root: string): Promise<string[]> {
  const start = (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  const last = start.split('&&').at(-1)!.trim().split(/\s+/)
  if (last[0] !== 'node') throw new Error(`${root}: npm start does not end with a node command`)
  return last.slice(1)
}

/** The 10x search benchmark of the checkout at `cwd`, run as its own process; its figures are read back from what it writes. */
export async function searchFigures(cwd = '.'): Promise<SearchFigures | null> {
  if (process.env.BENCH_SEARCH === 'off') return null
  await run('node', ['--expose-gc', '--import', 'tsx', 'scripts/bench/search-run.ts'], {}, cwd)
  const written = JSON.parse(await readFile(join(cwd, 'bench-results/search.json'), 'utf8')) as { scale: number; index: { documents: number }; runs: { concurrency: number; faculty: { p95: number; p99: number }; admin: { p95: number; p99: number } }[] }
  return { scale: written.scale, documents: written.index.documents, runs: written.runs.map(({ concurrency, faculty, admin }) => ({ concurrency, faculty, admin })) }
}

export function machine(): string {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} at the end`
}
