import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { scheduleMaintenanceJobs } from '../../src/jobs/maintenance.js'
import type { SchedulerView } from '../../src/jobs/port.js'
import type { Store } from '../../src/store/port.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'

/**
 * docs/architecture.md's schedule and request hooks, held to what the service registers, as docs/errors.md
 * is held to the error table: a job or hook added without its row, or a row left after its job or hook
 * is gone, fails here.
 */

const doc = await readFile(new URL('../../docs/architecture.md', import.meta.url), 'utf8')

/** The cells of each row of the tables in the `## heading` section, header and rule left out. */
function tableRows(heading: string): string[][] {
  const start = doc.indexOf(`\n## ${heading}\n`)
  if (start === -1) throw new Error(`docs/architecture.md has no section "${heading}"`)
  const section = doc.slice(start + 1).split(/\n## /)[0]!
  return section.split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .map((line) => line.slice(1, -1).split(' | ').map((cell) => cell.trim()))
}

/** The names in a cell's code spans, in order. */
const codeNames = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)

const hour = 3_600_000
const minute = 60_000
/** How the table says an interval: in hours, minutes or seconds, whichever is whole. */
function every(ms: number): string {
  if (ms % hour === 0) return `every ${ms / hour} h`
  if (ms % minute === 0) return `every ${ms / minute} min`
  return `every ${ms / 1000} s`
}

/** What the table's "runs" cell starts with for a scheduler: its interval, or its cron pattern. */
const runs = (s: SchedulerView) => (s.every !== null ? every(s.every) : `\`${s.pattern}\``)

/** The schedulers a started service registers, as the worker and the embedded API process do at start-up (worker.ts, server.ts). */
async function schedulers(app: FastifyInstance): Promise<SchedulerView[]> {
  await scheduleMaintenanceJobs(app.jobs, app.maintenance, app.notifications.schedules)
  await app.backups.schedule()
  return app.jobs.schedulers()
}

/** An embedded store that offers no transactions, as MongoDB's adapter does not: history keeps an outbox on it. */
function withoutTransactions(store: EmbeddedStore): Store {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'atomically') return undefined
      const value = Reflect.get(target, key, target) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

t.test('the schedule: every job a started service registers, with its queue and how often, and no other', async (t) => {
  // WORKERS=off: the schedulers are registered, and nothing runs while the test reads them.
  const { app } = await buildTestApp(t, { WORKERS: 'off' })
  const found = new Map((await schedulers(app)).map((s) => [s.id, s]))
  // A store without transactions adds what history needs there; the jobs of both are documented.
  let store: EmbeddedStore | undefined
  const dir = await tempDir(t, async () => store?.close())
  store = await EmbeddedStore.open(dir)
  const outboxed = await buildTestApp(t, { WORKERS: 'off' }, { store: withoutTransactions(store) })
  for (const s of await schedulers(outboxed.app)) {
    if (found.has(s.id)) t.same(runs(s), runs(found.get(s.id)!), `${s.id}: one schedule on either store`)
    else found.set(s.id, s)
  }
  t.ok(found.size >= 12, `${found.size} scheduled jobs`)

  const documented = new Map(tableRows('Scheduled jobs').slice(1).map(([job = '', queue = '', when = '']) => [codeNames(job)[0] ?? job, { queue, when }]))
  for (const [id, s] of found) {
    const row = documented.get(id)
    t.ok(row, `${id} (${s.queue}, ${runs(s)}) is in docs/architecture.md's schedule`)
    if (!row) continue
    t.equal(row.queue, s.queue, `${id}: its queue`)
    t.ok(row.when.startsWith(runs(s)), `${id}: runs ${runs(s)} (the table says ${row.when})`)
  }
  for (const id of documented.keys()) t.ok(found.has(id), `${id} in docs/architecture.md is scheduled`)
})

/** The request lifecycle's stages, in the order Fastify runs them. */
const stages = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse', 'onError', 'onTimeout', 'onRequestAbort']
/** Fastify's own hook on the HEAD route it adds beside each GET: not one the service installs. */
const fastifysOwn = new Set(['headRouteOnSendHandler'])
/** How the table names a hook with no function name (the rate limiter's). */
const unnamed = '(unnamed)'

t.test('the request hooks: every hook on the built app\'s routes, in the order each stage runs them, and no other', async (t) => {
  // The app alone, without the test helper's own hooks, and with the web app as built, so that its pages'
  // hooks are there as in production.
  const web = await tempDir(t)
  await writeFile(join(web, 'index.html'), '<!doctype html><title>ADKS</title>')
  let app: FastifyInstance | undefined
  const dataDir = await tempDir(t, async () => app?.close())
  app = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, WEB_DIR: web, WORKERS: 'off' }))
  await app.ready()

  // Each stage's hooks on each route, by function name, as Fastify's own route listing gives them.
  const lists: { stage: string; names: string[] }[] = []
  for (const [, stage, names] of app.printRoutes({ includeHooks: true, commonPrefix: false }).matchAll(/• \((\w+)\) (\[.*\])$/gm)) {
    if (!stages.includes(stage!)) continue
    const named = (JSON.parse(names!) as string[]).map((name) => name.replace(/\(\)$/, '')).map((name) => (name === 'anonymous' ? unnamed : name))
    lists.push({ stage: stage!, names: named.filter((name) => !fastifysOwn.has(name)) })
  }
  t.ok(lists.length > 500, `${lists.length} route stages read`)

  const documented = new Map<string, string[]>()
  for (const [stage = '', hook = ''] of tableRows('Requests')) {
    if (!stages.includes(stage)) continue
    documented.set(stage, [...documented.get(stage) ?? [], ...(hook === unnamed ? [unnamed] : codeNames(hook))])
  }
  t.same([...documented.keys()], stages.filter((stage) => documented.has(stage)), 'the table follows the stages in the order Fastify runs them')

  const seen = new Set<string>()
  const faults = new Set<string>()
  for (const { stage, names } of lists) {
    const order = documented.get(stage) ?? []
    let last = -1
    for (const name of names) {
      seen.add(`${stage} ${name}`)
      const at = order.indexOf(name)
      if (at === -1) faults.add(`${stage} ${name}: installed, not in docs/architecture.md${name === unnamed ? ' (give the function a name)' : ''}`)
      else if (at <= last) faults.add(`${stage} ${names.join(', ')}: runs in another order than the table's`)
      last = Math.max(last, at)
    }
  }
  t.same([...faults], [], 'every hook installed is in the table, in its order')
  for (const [stage, names] of documented) {
    for (const name of names) t.ok(seen.has(`${stage} ${name}`), `${stage} ${name} in docs/architecture.md is installed`)
  }
})
