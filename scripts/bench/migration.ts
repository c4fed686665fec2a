/**
 * npm run bench:migration: a schema migration on the embedded store over the ×10 sample
 * (docs/performance.md, "Schema migrations"). The department seeded once (seed-cache.ts), copied, and a
 * schema copy made in which every stored class gains a required property (`migration_note`, on the
 * topmost class of each stored hierarchy), with one migration giving it a default: every record of the
 * store changes. Timed, as children of the built scripts (backup-cli.ts): `schema:plan` (the migration
 * checked in memory against every record; target ≤ 5 s) and `schema:migrate` (a backup first, then every
 * record rewritten with its revision; target ≤ 30 s), each BENCH_MIGRATION_REPEATS times (default 3) on
 * a fresh copy, the median reported. Beside them in the same run, as the machine's measure: a backup of
 * the same copy on its own. Results go to stdout and bench-results/migration.md.
 */
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { compileSchema } from '../../src/schema/index.js'
import { timedBackup, timedNode, type ChildRun } from './backup-cli.js'
import { run } from './processes.js'
import { benchEnv, cachedSeed } from './seed-cache.js'
import { machine } from './setup.js'

const scale = 10
const repeats = Math.max(1, Number(process.env.BENCH_MIGRATION_REPEATS ?? 3))
const property = 'migration_note'

/** A copy of the schema in which the topmost class of every stored hierarchy requires `property`; returns the classes. */
async function schemaWithNewProperty(into: string): Promise<string[]> {
  await cp('schema', into, { recursive: true })
  const schema = await compileSchema('schema')
  const roots = new Set<string>()
  for (const cls of schema.model.classes.values()) {
    if (cls.abstract || cls.subdocument || !cls.metadata.collection) continue
    roots.add(cls.ancestors.at(-1) ?? cls.name)
  }
  for (const file of (await readdir(into)).filter((name) => name.endsWith('.json'))) {
    const definitions = JSON.parse(await readFile(join(into, file), 'utf8')) as Record<string, unknown>[]
    for (const definition of definitions) {
      if (!roots.has(String(definition['@id']))) continue
      definition[property] = 'xsd:string'
      const documentation = (definition['@documentation'] ??= { '@properties': {} }) as { '@properties'?: Record<string, string> }
      documentation['@properties'] = { ...documentation['@properties'], [property]: 'A note the migration gives every record' }
    }
    await writeFile(join(into, file), JSON.stringify(definitions, null, 2))
  }
  await mkdir(join(into, 'migrations'), { recursive: true })
  await writeFile(join(into, 'migrations', '0001-notes.json'), JSON.stringify({
    description: 'Every record gains a note',
    operations: [...roots].map((name) => ({ op: 'create_property', class: name, property, default: 'migrated' })),
  }))
  return [...roots]
}

const median = <T extends { seconds: number }>(runs: T[]): T => [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!
const row = (what: string, r: ChildRun, target: string) => `| ${what} | ${r.seconds.toFixed(2)} s | ${r.cpuSeconds.toFixed(1)} s | ${r.peakRssMb.toFixed(0)} MB | ${target} |`

async function main(): Promise<void> {
  await run('npm', ['run', 'build', '--silent'])
  const env = benchEnv()
  const { dir: seeded, seed } = await cachedSeed(scale, env)
  const work = await mkdtemp(join(tmpdir(), 'adks-bench-migration-'))
  try {
    const schemaDir = join(work, 'schema')
    const classes = await schemaWithNewProperty(schemaDir)
    const plans: ChildRun[] = []
    const migrations: (ChildRun & { records: number })[] = []
    const backups: ChildRun[] = []
    for (let i = 0; i < repeats; i++) {
      const dataDir = join(work, `data-${i}`)
      await cp(seeded, dataDir, { recursive: true })
      // The seed leaves the store's schema to its first start; schema:migrate on the unchanged files records it.
      await timedNode(['dist/scripts/schema-migrate.js'], { ...env, DATA_DIR: dataDir }, 'schema-record')
      const runEnv = { ...env, DATA_DIR: dataDir, SCHEMA_DIR: schemaDir, BACKUP_DIR: join(work, `backups-${i}`) }
      backups.push(await timedBackup(runEnv, join(work, `reference-${i}.backup`)))
      const plan = await timedNode(['dist/scripts/schema-plan.js'], runEnv, 'schema-plan')
      const planned = /: (\d+) records change/.exec(plan.stdout)
      if (!planned) throw new Error(`schema:plan said: ${plan.stdout.trim()}`)
      plans.push(plan)
      const migrate = await timedNode(['dist/scripts/schema-migrate.js'], runEnv, 'schema-migrate')
      if (!/applied 0001-notes/.test(migrate.stdout)) throw new Error(`schema:migrate said: ${migrate.stdout.trim()}`)
      migrations.push({ ...migrate, records: Number(planned[1]) })
      console.error(`run ${i + 1}/${repeats}: plan ${plan.seconds.toFixed(2)} s, migrate ${migrate.seconds.toFixed(2)} s (${planned[1]} records), reference backup ${backups.at(-1)!.seconds.toFixed(2)} s, load ${loadavg()[0]!.toFixed(2)}`)
      await rm(dataDir, { recursive: true, force: true })
    }
    const migrate = median(migrations)
    const report = [
      `# Schema migration, scale ${scale} (${new Date().toISOString().slice(0, 10)})`,
      '',
      `${machine()}; seeded: ${seed.summary.trim()}; median of ${repeats}. A required \`${property}\` with a default on ${classes.length} classes (${classes.join(', ')}): ${migrate.records} records change.`,
      '',
      '| what | wall | CPU | peak RSS | target |',
      '|---|---|---|---|---|',
      row('`schema:plan` (checked in memory)', median(plans), '≤ 5 s'),
      row(`\`schema:migrate\` (backup, then ${migrate.records} records rewritten with revisions)`, migrate, '≤ 30 s'),
      row('reference: `backup` of the same store alone', median(backups), '—'),
      '',
    ].join('\n')
    await mkdir('bench-results', { recursive: true })
    await writeFile('bench-results/migration.md', report)
    console.log(report)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

await main()
