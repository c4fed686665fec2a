/**
 * Seeded data directories kept in the system's temporary directory between runs, each reused while the
 * sources that wrote it are unchanged: seeding at scale 100 takes minutes, and filling an audit trail of
 * a million records most of one (audit-fill.ts). BENCH_RESEED=1 writes them again.
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.js'
import { output } from './processes.js'

/**
 * The environment the benchmarks' seeds and services share. The secrets key is fixed so that a kept
 * directory's encrypted fields can be read by a later run's service; nothing stored depends on the JWT secret.
 */
export function benchEnv(): Record<string, string> {
  return {
    NODE_ENV: 'production', JWT_SECRET: `bench-${Date.now()}-secret-value-0123456789abcdef`, LOG_LEVEL: 'warn',
    SECRETS_KEY: Buffer.from('bench secrets key, 32 bytes long').toString('base64'),
    // The load comes from one user and one key: at the default limits nearly every answer would be a 429.
    RATE_LIMIT_USER: '1000000000', RATE_LIMIT_KEY_READ: '1000000000',
  }
}

export const reseed = () => process.env.BENCH_RESEED === '1'

/** A hash of the named files and of every file under the named folders, by path and content. */
export async function fingerprint(paths: readonly string[], base = ''): Promise<string> {
  const hash = createHash('sha256').update(base)
  const files: string[] = []
  for (const path of paths) {
    const entries = await readdir(path, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOTDIR') return null
      throw error
    })
    if (entries === null) files.push(path)
    else files.push(...entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort())
  }
  for (const file of files) hash.update(file).update(await readFile(file))
  return hash.digest('hex').slice(0, 16)
}

/**
 * What a seeded directory depends on: the generator, the seed, the schema, the record service (which
 * derives what each stored document holds) and the embedded store, whose files it writes.
 */
function seedSources(): string[] {
  return ['scripts/sample', 'scripts/seed.ts', loadConfig({}).schemaDir, 'src/records', 'src/store/sqlite']
}

export interface SeedFigures {
  readonly scale: number
  readonly fingerprint: string
  readonly seconds: number
  /** What the seed printed. */
  readonly summary: string
  /** The one-minute load average when the seed ended. */
  readonly load: number
}

/**
 * The sample department at this scale, seeded (by the built `dist/scripts/seed.js`) into
 * `<tmp>/adks-bench-scale-<scale>/seeded` unless a directory seeded from the same sources is kept there.
 * Callers work on copies: a service started on it would change it.
 */
export async function cachedSeed(scale: number, env: Record<string, string>): Promise<{ dir: string; seed: SeedFigures; reused: boolean }> {
  const root = join(tmpdir(), `adks-bench-scale-${scale}`)
  const dir = join(root, 'seeded')
  const marker = join(root, 'seed.json')
  const print = await fingerprint(seedSources())
  if (!reseed()) {
    const kept = await readFile(marker, 'utf8').then((text) => JSON.parse(text) as SeedFigures, () => null)
    if (kept?.fingerprint === print && kept.scale === scale) return { dir, seed: kept, reused: true }
  }
  await rm(root, { recursive: true, force: true })
  await mkdir(root, { recursive: true })
  const started = performance.now()
  const summary = (await output('node', ['dist/scripts/seed.js', '--scale', String(scale)], undefined, { ...env, DATA_DIR: dir })).trim()
  const seed = { scale, fingerprint: print, seconds: (performance.now() - started) / 1000, summary, load: loadavg()[0]! }
  // Written last: a seed cut short leaves no marker, and the next run seeds again.
  await writeFile(marker, JSON.stringify(seed, null, 2))
  return { dir, seed, reused: false }
}
