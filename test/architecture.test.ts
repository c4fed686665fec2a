import { cruise } from 'dependency-cruiser'
import t from 'tap'

/**
 * The one-way doors of the source tree (docs/architecture.md, "Layout"), checked on every
 * import under src/, type-only and dynamic imports included, as dependency-cruiser reads them.
 */

/** One import: the importing file, and the file (src/…) or package it names. */
export interface Edge {
  readonly from: string
  readonly to: string
}

/**
 * The folder a file belongs to, at the level of a capability: src/<folder>, or src/routes/<folder> and
 * src/domain/<folder> (each capability has one there too); a file directly under src/, src/routes/ or
 * src/domain/ is its own unit.
 */
export function unitOf(file: string): string {
  const parts = file.split('/').slice(1)
  const depth = parts[0] === 'routes' || parts[0] === 'domain' ? 2 : 1
  return parts.slice(0, depth).join('/')
}

const isSource = (to: string) => to.startsWith('src/')
/** What jobs/ may import: the job port's own infrastructure (and who acts, actor.ts), never a capability. */
const jobsMayImport = new Set(['jobs', 'store', 'redis', 'config.ts', 'errors.ts', 'actor.ts'])
const databaseDrivers = new Set(['mongodb', 'better-sqlite3'])

/** Strongly connected groups of more than one node: each is an import circle. */
function circles(edges: readonly (readonly [string, string])[]): string[][] {
  const next = new Map<string, string[]>()
  for (const [a, b] of edges) if (a !== b) next.set(a, [...(next.get(a) ?? []), b])
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = []
      let w: string
      do {
        w = stack.pop()!
        group.push(w)
      } while (w !== v)
      if (group.length > 1) found.push(group.sort())
    }
  }
  for (const v of next.keys()) if (!index.has(v)) visit(v)
  return found
}

/** Every broken door, one line each; none on a sound tree. */
export function violations(edges: readonly Edge[]): string[] {
  const found: string[] = []
  const inner = edges.filter((e) => isSource(e.to))
  for (const group of circles(inner.map((e) => [e.from, e.to]))) found.push(`import circle between files: ${group.join(', ')}`)
  const folders = inner.map((e) => [unitOf(e.from), unitOf(e.to)] as const).filter(([a, b]) => a !== b)
  for (const group of circles(folders)) found.push(`folders import each other: ${group.join(', ')}`)
  for (const { from, to } of edges) {
    const unit = unitOf(from)
    if (unit.startsWith('domain') && !to.startsWith('src/domain/')) found.push(`domain/ imports outside domain/: ${from} -> ${to}`)
    if (unit === 'jobs' && isSource(to) && !jobsMayImport.has(unitOf(to))) found.push(`jobs/ imports a capability: ${from} -> ${to}`)
    if (databaseDrivers.has(to) && unit !== 'store') found.push(`only the store adapters use a database driver: ${from} -> ${to}`)
    if (unit.startsWith('routes') && /^src\/store\/(mongo\/|sqlite\/|open\.ts)/.test(to)) found.push(`routes reach data through services and the store port, never an adapter: ${from} -> ${to}`)
    if (unit === 'store' && isSource(to) && unitOf(to) !== 'store') found.push(`the store knows nothing outside it: ${from} -> ${to}`)
    if (unit === 'schema' && isSource(to) && !['schema', 'store'].includes(unitOf(to))) found.push(`the schema compiler knows nothing of ${unitOf(to)}: ${from} -> ${to}`)
  }
  return found
}

/** The imports of every file under src/, read by dependency-cruiser (a package by its name). */
async function sourceEdges(): Promise<Edge[]> {
  const result = await cruise(['src'], { tsPreCompilationDeps: true, doNotFollow: { path: 'node_modules' }, exclude: { path: 'node_modules' } })
  if (typeof result.output === 'string') throw new Error('dependency-cruiser answered text, not a result')
  const edges: Edge[] = []
  for (const module of result.output.modules) {
    if (!module.source.startsWith('src/')) continue
    for (const dependency of module.dependencies) {
      if (dependency.couldNotResolve) throw new Error(`${module.source} imports ${dependency.module}, which does not resolve`)
      const packageName = dependency.module.startsWith('@') ? dependency.module.split('/').slice(0, 2).join('/') : dependency.module.split('/')[0]!
      edges.push({ from: module.source, to: dependency.resolved.startsWith('src/') ? dependency.resolved : packageName })
    }
  }
  return edges
}

t.test('src/ keeps its one-way doors', async (t) => {
  const edges = await sourceEdges()
  t.ok(edges.length > 500, `every import is read (${edges.length})`)
  t.ok(edges.some((e) => e.from === 'src/app.ts' && e.to === 'src/services.ts'), 'type-only and value imports alike')
  t.same(violations(edges), [])
})

t.test('each door refuses what it should', async (t) => {
  const edge = (from: string, to: string): Edge => ({ from, to })
  const sound = [
    edge('src/app.ts', 'src/routes/records/index.ts'), edge('src/routes/records/index.ts', 'src/records/service.ts'),
    edge('src/records/service.ts', 'src/store/port.ts'), edge('src/store/mongo/store.ts', 'mongodb'), edge('src/degrees/plans.ts', 'src/domain/degrees/audit.ts'),
    edge('src/domain/degrees/audit.ts', 'src/domain/grades.ts'), edge('src/jobs/open.ts', 'src/redis/client.ts'), edge('src/publications/jobs.ts', 'src/jobs/port.ts'),
  ]
  t.same(violations(sound), [], 'a sound tree passes')
  const refused = (extra: Edge[]) => violations([...sound, ...extra])
  t.match(refused([edge('src/records/service.ts', 'src/records/list-query.ts'), edge('src/records/list-query.ts', 'src/records/service.ts')]),
    ['import circle between files: src/records/list-query.ts, src/records/service.ts'])
  t.same(refused([edge('src/store/freeze.ts', 'src/routes/records/schemas.ts')]), [
    'folders import each other: records, routes/records, store',
    'the store knows nothing outside it: src/store/freeze.ts -> src/routes/records/schemas.ts',
  ], 'a circle through three folders, though no file imports itself around it')
  t.match(refused([edge('src/domain/degrees/audit.ts', 'src/records/service.ts')]), [/domain\/ imports outside domain\//])
  t.match(refused([edge('src/domain/grades.ts', 'lru-cache')]), [/domain\/ imports outside domain\//], 'packages too')
  t.match(refused([edge('src/jobs/open.ts', 'src/publications/jobs.ts')]), [/folders import each other: jobs, publications/, /jobs\/ imports a capability/])
  t.match(refused([edge('src/routes/records/index.ts', 'mongodb')]), [/only the store adapters use a database driver/])
  t.match(refused([edge('src/routes/records/index.ts', 'src/store/sqlite/store.ts')]), [/routes reach data through services and the store port, never an adapter/])
  t.match(refused([edge('src/schema/index.ts', 'src/routes/records/index.ts')]), [/the schema compiler knows nothing of routes\/records/])
})
