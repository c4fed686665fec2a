import { cruise } from 'dependency-cruiser'
import t from 'tap'

/**
 * The one-way doors of the source tree (docs/architecture.md, "Layout"), checked on every
 * import under src/, type-only and dynamic imports included, as dependency-cruiser reads them; and
 * those of the web app under web/src/ (docs/web.md, "Where it lives").
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

/**
 * The imports of every file under `root` (src or web/src), read by dependency-cruiser: a file of the
 * repository by its path, a package by its name. The web app's packages live in web/node_modules,
 * which the cruise does not resolve; a relative import that does not resolve is an error either way.
 */
async function sourceEdges(root = 'src', tsConfig?: string): Promise<Edge[]> {
  const result = await cruise([root], {
    tsPreCompilationDeps: true, doNotFollow: { path: 'node_modules' }, exclude: { path: 'node_modules' },
    ...(tsConfig ? { tsConfig: { fileName: tsConfig } } : {}),
  })
  if (typeof result.output === 'string') throw new Error('dependency-cruiser answered text, not a result')
  const edges: Edge[] = []
  for (const module of result.output.modules) {
    if (!module.source.startsWith(`${root}/`)) continue
    for (const dependency of module.dependencies) {
      const relative = dependency.module.startsWith('.')
      if (dependency.couldNotResolve && (relative || !tsConfig)) throw new Error(`${module.source} imports ${dependency.module}, which does not resolve`)
      const packageName = dependency.module.startsWith('@') ? dependency.module.split('/').slice(0, 2).join('/') : dependency.module.split('/')[0]!
      const inRepository = relative || dependency.resolved.startsWith('src/') || dependency.resolved.startsWith('web/')
      edges.push({ from: module.source, to: inRepository && !dependency.couldNotResolve ? dependency.resolved : packageName })
    }
  }
  return edges
}

/**
 * The web app's parts: a folder directly under web/src/, or a file there (main.tsx, pages.ts, style.css).
 * The frame (the router, the table of pages and the shell) is the top; below it, the shared layers,
 * each importing only those before it: lib/ (logic free of React and the DOM, tested with tap), api/
 * (the client and the token it sends), session/ (the signed-in user), hooks/, components/. Every other
 * folder is a capability's pages, named by the server's capability.
 */
export function webUnitOf(file: string): string {
  // The generated API types import nothing: every layer may name them, lib/ included.
  return file === 'web/src/api/schema.d.ts' ? 'api/schema.d.ts' : file.split('/')[2]!
}

const frame = new Set(['main.tsx', 'pages.ts', 'style.css', 'shell'])
const layers = ['api/schema.d.ts', 'lib', 'api', 'session', 'hooks', 'components']
const isWeb = (to: string) => to.startsWith('web/src/')

/** Every broken door of web/src, one line each; none on a sound tree. */
export function webViolations(edges: readonly Edge[]): string[] {
  const found: string[] = []
  const inner = edges.filter((e) => isWeb(e.to))
  for (const group of circles(inner.map((e) => [e.from, e.to]))) found.push(`import circle between files: ${group.join(', ')}`)
  const folders = inner.map((e) => [webUnitOf(e.from), webUnitOf(e.to)] as const).filter(([a, b]) => a !== b)
  for (const group of circles(folders)) found.push(`folders import each other: ${group.join(', ')}`)
  for (const { from, to } of edges) {
    const unit = webUnitOf(from)
    const layer = layers.indexOf(unit)
    if (to.startsWith('src/') && !to.startsWith('src/domain/')) found.push(`the web app takes nothing of the server but src/domain/: ${from} -> ${to}`)
    if (unit === 'lib' && !isWeb(to) && !to.startsWith('src/domain/')) found.push(`lib/ uses no package, so it runs under tap: ${from} -> ${to}`)
    if (!isWeb(to)) continue
    const target = webUnitOf(to)
    if (unit === target) continue
    if (unit === 'lib' && target !== 'api/schema.d.ts') found.push(`lib/ imports only lib/ and the API's types: ${from} -> ${to}`)
    else if (frame.has(target) && !frame.has(unit)) found.push(`only the frame imports the frame (main.tsx, pages.ts, shell/): ${from} -> ${to}`)
    else if (layer >= 0 && unit !== 'lib' && layers.indexOf(target) > layer) found.push(`${unit}/ imports only the layers below it (${layers.slice(1, layer).join(', ')}): ${from} -> ${to}`)
    else if (layer >= 0 && layers.indexOf(target) < 0 && !frame.has(target)) found.push(`${unit}/ is shared and imports no capability's pages: ${from} -> ${to}`)
    else if (layer < 0 && !frame.has(unit) && layers.indexOf(target) < 0 && !/^web\/src\/[^/]+\/index\.ts$/.test(to)) found.push(`a capability's pages reach another capability only through its index.ts: ${from} -> ${to}`)
  }
  return found
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

t.test('web/src keeps its one-way doors', async (t) => {
  const edges = await sourceEdges('web/src', 'web/tsconfig.json')
  t.ok(edges.length > 300, `every import is read (${edges.length})`)
  t.ok(edges.some((e) => e.from === 'web/src/pages.ts' && e.to === 'web/src/home/dashboard.tsx'), 'the lazily loaded pages too')
  t.ok(edges.some((e) => e.from === 'web/src/records/form.tsx' && e.to === '@rjsf/core'), 'packages by name')
  t.same(webViolations(edges), [])
})

t.test('each web door refuses what it should', async (t) => {
  // A file has an extension, a package none.
  const edge = (from: string, to: string): Edge => ({ from: `web/src/${from}`, to: to.includes('.') ? `web/src/${to}` : to })
  const sound = [
    edge('main.tsx', 'pages.ts'), edge('main.tsx', 'shell/shell.tsx'), edge('main.tsx', 'session/me.ts'), edge('shell/shell.tsx', 'pages.ts'),
    edge('shell/shell.tsx', 'session/me.ts'), edge('pages.ts', 'home/dashboard.tsx'), edge('pages.ts', 'records/form.tsx'),
    edge('home/dashboard.tsx', 'session/me.ts'), edge('home/dashboard.tsx', 'workflows/index.ts'), edge('workflows/index.ts', 'workflows/own-requests.ts'),
    edge('records/form.tsx', 'history/index.ts'), edge('records/form.tsx', '@rjsf/core'), edge('history/index.ts', 'history/panel.tsx'),
    edge('history/panel.tsx', 'components/ui.tsx'), edge('components/ui.tsx', 'hooks/use-load.ts'), edge('hooks/use-load.ts', 'lib/errors.ts'),
    edge('session/me.ts', 'api/client.ts'), edge('api/client.ts', 'api/token.ts'), edge('api/token.ts', 'lib/session.ts'), edge('lib/domains.ts', 'api/schema.d.ts'),
    { from: 'web/src/degrees/plan-board.ts', to: 'src/domain/terms.ts' },
  ]
  t.same(webViolations(sound), [], 'a sound tree passes')
  const refused = (extra: Edge[]) => webViolations([...sound, ...extra])
  const refuses = (extra: Edge[], ...patterns: RegExp[]) => {
    const found = refused(extra)
    for (const pattern of patterns) t.ok(found.some((line) => pattern.test(line)), `${pattern} among ${JSON.stringify(found)}`)
  }
  t.same(refused([edge('home/dashboard.tsx', 'shell/shell.tsx')]), [
    'import circle between files: web/src/home/dashboard.tsx, web/src/pages.ts, web/src/shell/shell.tsx',
    'folders import each other: home, pages.ts, shell',
    'only the frame imports the frame (main.tsx, pages.ts, shell/): web/src/home/dashboard.tsx -> web/src/shell/shell.tsx',
  ], 'the signed-in user read from the shell, as it once was: shell -> pages.ts -> a page -> shell')
  refuses([edge('components/ui.tsx', 'records/catalog.ts')], /components\/ is shared and imports no capability's pages/)
  refuses([edge('hooks/use-load.ts', 'components/ui.tsx')], /folders import each other/, /hooks\/ imports only the layers below it/)
  refuses([edge('lib/domains.ts', 'react')], /lib\/ uses no package/)
  refuses([edge('lib/domains.ts', 'api/client.ts')], /lib\/ imports only lib\/ and the API's types/)
  refuses([edge('records/form.tsx', 'history/panel.tsx')], /a capability's pages reach another capability only through its index.ts/)
  refuses([edge('history/panel.tsx', 'records/index.ts'), edge('records/index.ts', 'records/form.tsx')], /folders import each other: history, records/)
  refuses([{ from: 'web/src/degrees/plan-board.ts', to: 'src/degrees/plans.ts' }], /takes nothing of the server but src\/domain\//)
})
