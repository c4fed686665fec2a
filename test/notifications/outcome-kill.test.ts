/**
 * Outcome events under a crash (docs/notifications.md, "Outcome events: jobs, campus syncs, publication
 * imports"): a campus sync's event rides in its SyncRun record's insert, a publication import's in its
 * PublicationImportRun record's. A process running a sync, or an import, is SIGKILLed right after that
 * insert, before the event is published; the service started again on the same data (embedded, or
 * MONGODB_URL) tells the people concerned once in the app and delivers the webhook once, and the sweep,
 * run every second for the check, tells nothing twice. A last test writes the state a kill between the
 * event's publishing and the record's clearing leaves, which a kill from outside cannot aim at, and
 * checks it is told once too.
 */
import { spawn } from 'node:child_process'
import { basename } from 'node:path'
import { createInterface } from 'node:readline'
import t, { type Test } from 'tap'
import { oneRosterSystem } from '../../src/campus-sync/source.js'
import { eventsCollection, inAppCollection, type EventRecord } from '../../src/notifications/collections.js'
import type { Store } from '../../src/store/port.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import { freePort, mintToken, projectRoot, startServer } from '../process/server-process.js'
import { startReceiver } from './receiver.js'
import { fixtureServer, sendJson } from '../helpers/fixture-server.js'
import { twoMoreSweeps, until, type Caller } from './recovery.js'

// Three starts of the service and one of the sync's process, on a busy machine or on FerretDB.
t.setTimeout(600_000)

const mongodbUrl = process.env.MONGODB_URL
/** One database per data directory on the MongoDB-wire server, dropped at the end; nothing on the embedded store. */
async function storeEnv(t: Test): Promise<{ PORT: string; DATA_DIR: string } & Record<string, string>> {
  let database: string | undefined
  const dataDir = await tempDir(t, async () => {
    if (!mongodbUrl || !database) return
    const { MongoStore } = await import('../../src/store/mongo/store.js')
    const store = await MongoStore.open(mongodbUrl, database)
    await store.dropDatabase()
    await store.close()
  })
  if (mongodbUrl) database = `adks_${basename(dataDir)}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 63)
  return { PORT: String(await freePort()), DATA_DIR: dataDir, ...(mongodbUrl && database ? { MONGODB_URL: mongodbUrl, MONGODB_DB: database } : {}) }
}

/** The store the service ran on, opened by the test itself (the embedded one only while no service holds it). */
async function openStoreOf(env: Record<string, string>): Promise<Store> {
  if (env.MONGODB_URL) {
    const { MongoStore } = await import('../../src/store/mongo/store.js')
    return MongoStore.open(env.MONGODB_URL, env.MONGODB_DB!)
  }
  const { EmbeddedStore } = await import('../../src/store/sqlite/store.js')
  return EmbeddedStore.open(env.DATA_DIR!)
}

/** Runs a child (sync-run-child.ts, import-run-child.ts) on the same data and SIGKILLs it on its `landed` line: answers the run record's id. */
function killedAfterItsRecord(script: string, env: Record<string, string>): Promise<{ runId: string | undefined; signal: string | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let runId: string | undefined
  let output = ''
  createInterface({ input: child.stdout }).on('line', (line) => {
    output += `${line}\n`
    const landed = /^landed (\S+)$/.exec(line)
    if (landed) {
      runId = landed[1]
      child.kill('SIGKILL')
    }
  })
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
  return new Promise((resolve) => child.on('exit', (_code, signal) => resolve({ runId, signal, output })))
}

t.test(`a sync killed right after its SyncRun record is written is told once, in the app and by webhook (${mongodbUrl ? 'MongoDB' : 'embedded'})`, async (t) => {
  const receiver = await startReceiver(t)
  const env = { ...await storeEnv(t), WEBHOOK_ALLOW_PRIVATE: 'true' }
  const headers = { authorization: `Bearer ${await mintToken(env, 'ada@dept.edu', 'admin')}`, 'content-type': 'application/json' }
  let server = await startServer(t, env)
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
    return { status: response.status, json: await response.json() as Record<string, unknown> }
  }
  // The admin's first request makes their user, who is then among the admins a sync tells.
  const hook = await admin('POST', '/api/webhooks', { url: `${receiver.url}/in`, events: ['sync.completed'], description: 'kill test' })
  t.equal(hook.status, 201, JSON.stringify(hook.json))
  receiver.secrets = [String(hook.json.secret)]
  server.child.kill('SIGTERM')
  await server.exited

  const killed = await killedAfterItsRecord('test/notifications/sync-run-child.ts', env)
  t.equal(killed.signal, 'SIGKILL', killed.output)
  const runId = killed.runId!
  t.match(runId, /^SyncRun\//)

  const store = await openStoreOf(env)
  try {
    const run = await store.collection('sync_runs').findById(runId)
    t.match(run, { status: 'completed', _events: [{ _id: `${runId}/sync.completed`, type: 'sync.completed', subject: runId }] }, 'the record landed carrying its event')
    t.equal(await store.collection(eventsCollection).count({ subject: runId }), 0, 'and the event was never published')
  } finally {
    await store.close()
  }

  server = await startServer(t, env)
  const inbox = async () => (await admin('GET', '/api/notifications')).json as { total: number; items: { type: string; subject: string }[] }
  await until(async () => (await inbox()).items.some((i) => i.type === 'sync.completed'), 'the admin\'s notification')
  await until(async () => receiver.requests.length >= 1, 'the webhook delivery')
  await twoMoreSweeps(t, admin)

  // The service's own news (a backup made at its start) is left out.
  const told = (await inbox()).items.filter((i) => i.type.startsWith('sync.'))
  t.same(told.map((i) => [i.type, i.subject]), [['sync.completed', runId]], 'the admin is told once')
  t.same(receiver.requests.map((r) => r.headers['webhook-id']), [`${runId}/sync.completed`], 'the webhook is delivered once, under the event\'s id')
  t.same(receiver.requests[0]!.verifiedBy, [0], 'a signed delivery')
  const runs = (await admin('GET', '/api/campus-sync/runs')).json as { items: Record<string, unknown>[] }
  t.same(runs.items.map((r) => [r._id, '_events' in r]), [[runId, false]], 'the record no longer carries it, and never showed it')
})

t.test(`an import killed right after its PublicationImportRun record is written is told once, in the app and by webhook (${mongodbUrl ? 'MongoDB' : 'embedded'})`, async (t) => {
  // OpenAlex: A1 wrote two works.
  const works = [1, 2].map((n) => ({
    id: `https://openalex.org/W${n}`, title: `Work number ${n}`, publication_year: 2020, cited_by_count: n,
    authorships: [{ author: { id: 'https://openalex.org/A1', display_name: 'Ada Author' } }],
  }))
  const openalex = await fixtureServer(t, (_request, response, url) => {
    if (url.pathname.startsWith('/authors/')) return sendJson(response, 200, { id: 'https://openalex.org/A1', display_name: 'Ada Author' })
    sendJson(response, 200, { meta: { count: works.length, next_cursor: null }, results: url.searchParams.get('filter') === 'author.id:A1' ? works : [] })
  })
  const receiver = await startReceiver(t)
  const env = { ...await storeEnv(t), WEBHOOK_ALLOW_PRIVATE: 'true', OPENALEX_URL: openalex }
  const caller = (token: string): Caller => async (method, path, body) => {
    const response = await fetch(`${server.url}${path}`, {
      method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    return { status: response.status, json: await response.json() as Record<string, unknown> }
  }
  const admin = caller(await mintToken(env, 'ops@dept.edu', 'admin'))
  let server = await startServer(t, env)
  const hook = await admin('POST', '/api/webhooks', { url: `${receiver.url}/in`, events: ['publications.imported'], description: 'kill test' })
  t.equal(hook.status, 201, JSON.stringify(hook.json))
  receiver.secrets = [String(hook.json.secret)]
  server.child.kill('SIGTERM')
  await server.exited

  const killed = await killedAfterItsRecord('test/notifications/import-run-child.ts', { ...env, AUTHOR_EMAIL: 'ada@dept.edu' })
  t.equal(killed.signal, 'SIGKILL', killed.output)
  const recordId = killed.runId!
  t.match(recordId, /^PublicationImportRun\//)
  const runId = recordId.slice('PublicationImportRun/'.length)
  const eventId = `${runId}/publications.imported`

  const store = await openStoreOf(env)
  try {
    const run = await store.collection('publication_import_runs').findById(recordId)
    t.match(run, { status: 'completed', people: 1, created: 2, _events: [{ _id: eventId, type: 'publications.imported', subject: runId }] }, 'the record landed carrying its event')
    t.equal(await store.collection(eventsCollection).count({ type: 'publications.imported' }), 0, 'and the event was never published')
  } finally {
    await store.close()
  }

  server = await startServer(t, env)
  const ada = caller(await mintToken(env, 'ada@dept.edu', 'faculty'))
  const inbox = async () => (await ada('GET', '/api/notifications')).json as { total: number; items: { type: string; subject: string }[] }
  await until(async () => (await inbox()).items.some((i) => i.type === 'publications.imported'), 'the author\'s notification')
  await until(async () => receiver.requests.length >= 1, 'the webhook delivery')
  await twoMoreSweeps(t, admin)

  t.same((await inbox()).items.map((i) => [i.type, i.subject]), [['publications.imported', runId]], 'the author is told once')
  t.same(receiver.requests.map((r) => r.headers['webhook-id']), [eventId], 'the webhook is delivered once, under the event\'s id')
  t.same(receiver.requests[0]!.verifiedBy, [0], 'a signed delivery')
  server.child.kill('SIGTERM')
  await server.exited
  const after = await openStoreOf(env)
  try {
    t.notOk('_events' in (await after.collection('publication_import_runs').findById(recordId))!, 'the record no longer carries it')
  } finally {
    await after.close()
  }
})

t.test('a record left carrying an event already published (a kill between the two) is told once', async (t) => {
  const { app, as } = await buildTestApp(t)
  const ops = as('ops@dept.edu', 'admin')
  await ops({ method: 'GET', url: '/api/notifications' })
  const event = { key: 'SyncRun/left-behind', type: 'sync.completed' as const, source: '/api/campus-sync', subject: 'SyncRun/left-behind', title: 'Campus sync of courses: 1 created, 0 updated, 0 deactivated', link: '/admin/sync', data: { run: 'SyncRun/left-behind' } }
  const carried = await app.outcomes.syncs.carry(event)
  const fields = {
    system: oneRosterSystem, kind: 'courses', dry_run: false, status: 'completed', started_at: new Date().toISOString(), finished_at: new Date().toISOString(),
    rows: 1, created: 1, updated: 0, unchanged: 0, deactivated: 0, skipped: 0, accounted: true, errors: [], warnings: [],
  }
  await app.records.create('SyncRun', fields, { actor: { id: 'sync:left-behind', name: 'Campus sync', via: 'campus-sync/courses', run: true }, key: 'left-behind', carry: carried.fields })
  // The event's insert landed; the clearing of the record's field did not.
  await app.store.collection(eventsCollection).insertOne({ ...carried.fields._events[0]! })
  await app.notifications.relay.sweep(new Date())
  await app.notifications.relay.sweep(new Date())
  await app.notifications.relay.idle()
  t.equal(await app.store.collection<EventRecord>(eventsCollection).count({ subject: 'SyncRun/left-behind' }), 1, 'one event')
  t.equal(await app.store.collection(inAppCollection).count({ event_id: 'SyncRun/left-behind/sync.completed' }), 1, 'one notification to the one admin')
  t.notOk('_events' in (await app.store.collection('sync_runs').findById('SyncRun/left-behind'))!, 'the record no longer carries it')
})
