import { basename, join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import jsonPatch, { type Operation } from 'fast-json-patch'
import t, { type Test } from 'tap'
import { Random } from '../../scripts/sample/random.js'
import { sweepHistory } from '../../src/history/maintenance.js'
import { diff } from '../../src/history/patch.js'
import { revisionId, revisionsCollection, type Revision } from '../../src/history/revision.js'
import { HistoryWrites, pendingField } from '../../src/history/writes.js'
import { compileSchema } from '../../src/schema/index.js'
import { DuplicateKeyError, type Doc, type Store } from '../../src/store/port.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import { freePort, mintToken, projectRoot, startServer, type ServerProcess } from '../process/server-process.js'
import { testActor } from '../helpers/actor.js'

/**
 * No acknowledged write without its revision, across a SIGKILL (docs/history.md): the real server, on the
 * embedded store or (MONGODB_URL set) on a MongoDB-wire server, is killed right after answering a write
 * while others are on their way, restarted on the same data, and every record's history is checked
 * against the record and the writes it acknowledged. Where a kill cannot aim (between the two writes of
 * the MongoDB outbox), the states it would leave are written directly and the replay checked.
 */

// Eight restarts of the real server, on a loaded machine and on FerretDB, take a few minutes.
t.setTimeout(900_000)

const mongodbUrl = process.env.MONGODB_URL
const seed = Number(process.env.HISTORY_SEED ?? Math.floor(Math.random() * 2 ** 31))
const rounds = 8
const workers = 4
const centersPerWorker = 3
const bookkeeping = ['_version', '_created_at', '_updated_at']
/** What the history's change lists leave out: the bookkeeping, and the record's id and type. */
const unlisted = [...bookkeeping, '_id', 'type']
const centers = 'research_centers'

type State = Record<string, unknown>

interface HistoryItem {
  readonly version: number
  readonly at: string
  readonly op: string
  readonly restored_from?: number
  readonly changes: { path: string; before?: unknown; after?: unknown }[]
}

/** What a record is after a write: absent, or present at a version with a description (undefined: none). */
type Expected = { readonly present: false; readonly version: number } | { readonly present: true; readonly version: number; readonly description: string | undefined }

interface Tracked {
  readonly name: string
  readonly id: string
  /** As last read or acknowledged; undefined before the record was ever made. */
  state?: Expected
  /** The description of each version, for a restore from the trash. */
  readonly descriptions: Map<number, string | undefined>
  /** Every write the server acknowledged: the version it made and what the history must say of it. */
  readonly acked: { version: number; op: 'create' | 'update' | 'delete'; description?: string | undefined; restoredFrom?: number }[]
  /** A write under way when the server died: it may or may not have landed. */
  inFlight?: Expected
}

function without(state: State, fields: readonly string[]): State {
  const copy = { ...state }
  for (const field of fields) delete copy[field]
  return copy
}

/** The history's changes, oldest first, applied from nothing: the record as its history says it is now ({} once deleted). */
function replay(items: readonly HistoryItem[]): State {
  let state: State = {}
  for (const item of [...items].reverse()) {
    for (const change of item.changes) {
      if ('before' in change && !isDeepStrictEqual(jsonPatch.getValueByPointer(state, change.path), change.before)) {
        throw new Error(`version ${item.version}: ${change.path} was ${JSON.stringify(jsonPatch.getValueByPointer(state, change.path))}, not ${JSON.stringify(change.before)}`)
      }
      const operation: Operation = !('before' in change)
        ? { op: 'add', path: change.path, value: change.after }
        : !('after' in change) ? { op: 'remove', path: change.path } : { op: 'replace', path: change.path, value: change.after }
      state = jsonPatch.applyOperation(state, operation, true, true).newDocument
    }
  }
  return state
}

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

/** The store the server ran on, opened by the test itself (the embedded one only once the server is gone). */
async function openStoreOf(env: Record<string, string>): Promise<Store> {
  if (env.MONGODB_URL) {
    const { MongoStore } = await import('../../src/store/mongo/store.js')
    return MongoStore.open(env.MONGODB_URL, env.MONGODB_DB!)
  }
  const { EmbeddedStore } = await import('../../src/store/sqlite/store.js')
  return EmbeddedStore.open(env.DATA_DIR!)
}

t.test(`a server killed right after acknowledging writes keeps one revision per write (${mongodbUrl ? 'MongoDB' : 'embedded'}, seed ${seed})`, async (t) => {
  t.comment(`seed ${seed} (set HISTORY_SEED=${seed} to run the same writes and kills again)`)
  const random = new Random(`history-crash-${seed}`)
  const env = await storeEnv(t)
  const token = await mintToken(env, 'crash@dept.edu', 'admin')
  const headers = { authorization: `Bearer ${token}` }
  const tracked: Tracked[] = Array.from({ length: workers * centersPerWorker }, (_, i) => {
    const name = `Crash ${seed} w${i % workers} c${Math.floor(i / workers)}`
    return { name, id: `ResearchCenter/${name.replace(/ /g, '-')}`, descriptions: new Map(), acked: [] }
  })
  const url = (record: Tracked, suffix = '') => `/api/research-centers/${encodeURIComponent(record.id)}${suffix}`
  let server: ServerProcess
  const totals = { acknowledged: 0, interrupted: 0, kills: 0, contended: 0, carried: 0, cutShort: 0 }
  // On MongoDB the test reads the store beside the server, to see what each kill left.
  const direct = mongodbUrl ? await openStoreOf(env) : null
  t.teardown(() => direct?.close())

  async function call(method: string, path: string, body?: object): Promise<{ status: number; json: Record<string, unknown> }> {
    const response = await fetch(`${server.url}${path}`, {
      method, headers: body ? { ...headers, 'content-type': 'application/json' } : headers, ...(body ? { body: JSON.stringify(body) } : {}),
    })
    return { status: response.status, json: await response.json() as Record<string, unknown> }
  }

  /** The record and its whole history as the server answers them now. */
  async function observe(record: Tracked): Promise<{ record: State | null; items: HistoryItem[]; total: number }> {
    const read = await call('GET', url(record))
    if (read.status !== 200 && read.status !== 404) throw new Error(`GET ${record.id}: ${read.status} ${JSON.stringify(read.json)}`)
    const history = await call('GET', url(record, '/history?limit=200'))
    if (history.status === 404) return { record: null, items: [], total: 0 }
    if (history.status !== 200) throw new Error(`history of ${record.id}: ${history.status} ${JSON.stringify(history.json)}`)
    return { record: read.status === 200 ? read.json : null, items: history.json.items as HistoryItem[], total: history.json.total as number }
  }

  /**
   * Each record agrees with its history and with what was acknowledged: the state is the last acknowledged
   * one or the one the interrupted write would have made; one revision per version 1..n, the newest the
   * record's version (or its deletion), each acknowledged write's among them as written; and the changes,
   * applied in order, make the record.
   */
  async function check(t: Test, when: string): Promise<void> {
    const problems: string[] = []
    for (const record of tracked) {
      const { record: found, items, total } = await observe(record)
      const now: Expected | undefined = found
        ? { present: true, version: found._version as number, description: found.description as string | undefined }
        : items.length ? { present: false, version: items[0]!.version } : undefined
      const label = `${record.id} (${when})`
      if (!isDeepStrictEqual(now, record.state) && !isDeepStrictEqual(now, record.inFlight)) {
        problems.push(`${label} is ${JSON.stringify(now)}; acknowledged ${JSON.stringify(record.state)}, in flight ${JSON.stringify(record.inFlight)}`)
      }
      const versions = items.map((item) => item.version)
      const n = now?.version ?? 0
      if (!isDeepStrictEqual(versions, Array.from({ length: n }, (_, i) => n - i)) || total !== n) {
        problems.push(`${label}: history versions ${JSON.stringify(versions)} (total ${total}) for a record at ${JSON.stringify(now)}`)
        continue
      }
      if (now && now.present === (items[0]!.op === 'delete')) problems.push(`${label}: the newest revision is a ${items[0]!.op} of a record ${now.present ? 'present' : 'gone'}`)
      for (const write of record.acked) {
        const item = items.find((i) => i.version === write.version)
        const described = item?.changes.find((c) => c.path === '/description')
        const fits = item && item.op === write.op && item.restored_from === write.restoredFrom
          && (write.op === 'delete' || (write.description === undefined ? !described || !('after' in described) : described?.after === write.description))
        if (!fits) problems.push(`${label}: the acknowledged ${write.op} of version ${write.version} is in the history as ${JSON.stringify(item)}`)
      }
      try {
        const rebuilt = replay(items)
        if (!isDeepStrictEqual(rebuilt, found ? without(found, unlisted) : {})) problems.push(`${label}: the history makes ${JSON.stringify(rebuilt)}, the record is ${JSON.stringify(found)}`)
      } catch (error) {
        problems.push(`${label}: the history does not replay: ${String(error)}`)
      }
      // What the next round starts from: the record as found.
      if (now) {
        record.state = now
        if (now.present) record.descriptions.set(now.version, now.description)
      }
      delete record.inFlight
    }
    t.same(problems, [], `every record agrees with its history and its acknowledged writes (${when})`)
  }

  server = await startServer(t, env)
  for (let round = 0; round < rounds; round++) {
    const killAfter = random.int(4, 24)
    let acks = 0
    let killed = false

    async function write(record: Tracked, method: string, path: string, body: object | undefined, next: (answer: Record<string, unknown>) => Expected, intended: Expected, note: Omit<Tracked['acked'][number], 'version'>): Promise<void> {
      record.inFlight = intended
      const answer = await call(method, path, body)
      if (method === 'DELETE' && mongodbUrl && answer.status === 409 && answer.json.code === 'ADKS_WRITE_CONTENDED') {
        // A delete a kill cut short left its revision under the id this one needs: it is refused until the sweep
        // takes that back (a minute on), the record unchanged; the check after the next kill shows it is.
        delete record.inFlight
        totals.contended++
        return
      }
      if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.json)}`)
      if (++acks === killAfter) {
        // Nothing between the answer and the kill: no flush, no close, no await.
        server.child.kill('SIGKILL')
        killed = true
      }
      const state = next(answer.json)
      record.state = state
      record.acked.push({ version: state.version, ...note })
      if (state.present) record.descriptions.set(state.version, state.description)
      delete record.inFlight
      totals.acknowledged++
    }

    async function worker(w: number): Promise<void> {
      // A stream of its own: what a worker writes does not depend on how the others' answers interleave.
      const random = new Random(`history-crash-${seed}-${round}-${w}`)
      const mine = tracked.filter((_, i) => i % workers === w)
      while (!killed) {
        const record = random.pick(mine)
        const state = record.state
        const description = `round ${round} ${random.int(0, 1e6)}`
        if (!state || (!state.present && random.chance(0.5))) {
          // Made, or made again under the id it was deleted from: the version goes on from the deletion.
          const version = (state?.version ?? 0) + 1
          await write(record, 'POST', '/api/research-centers', { name: record.name, faculty: [], description },
            (a) => ({ present: true, version: a._version as number, description: a.description as string }),
            { present: true, version, description }, { op: 'create', description })
        } else if (!state.present) {
          const restoredFrom = state.version - 1
          const was = record.descriptions.get(restoredFrom)
          await write(record, 'POST', `/api/admin/trash/${encodeURIComponent(record.id)}/restore`, undefined,
            (a) => ({ present: true, version: a.version as number, description: was }),
            { present: true, version: state.version + 1, description: was }, { op: 'create', description: was, restoredFrom })
        } else if (random.chance(0.25)) {
          await write(record, 'DELETE', url(record), undefined, () => ({ present: false, version: state.version + 1 }), { present: false, version: state.version + 1 }, { op: 'delete' })
        } else {
          // Removing a description the record lacks would change nothing, and make no version.
          const removes = state.description !== undefined && random.chance(0.2)
          await write(record, 'PUT', url(record), { description: removes ? null : description },
            (a) => ({ present: true, version: a._version as number, description: a.description as string | undefined }),
            { present: true, version: state.version + 1, description: removes ? undefined : description }, { op: 'update', description: removes ? undefined : description })
        }
      }
    }

    // A write failing before the kill fails the round; after it, every write under way fails, as it should.
    const failures: string[] = []
    await Promise.all(Array.from({ length: workers }, (_, w) => worker(w).catch((error: unknown) => { if (!killed) failures.push(String(error)) })))
    t.same(failures, [], `round ${round}: no write failed before the kill`)
    if (!killed) server.child.kill('SIGKILL')
    t.same(await server.exited, { code: null, signal: 'SIGKILL' }, `round ${round}: the server died of SIGKILL after ${killAfter} answers`)
    totals.kills++
    totals.interrupted += tracked.filter((r) => r.inFlight).length
    if (direct) {
      // What the kill left between the outbox's two writes, for the restart to settle: shown, not required (a kill cannot aim).
      totals.carried += await direct.collection(centers).count({ [`${pendingField}.version`]: { $exists: true } })
      for (const deletion of await direct.collection<Revision>(revisionsCollection).find({ trashed: true, record: { $in: tracked.map((r) => r.id) } })) {
        const still = await direct.collection(centers).findById(deletion.record)
        if (still && (still._version as number) < deletion.version) totals.cutShort++
      }
    }
    server = await startServer(t, env)
    if (direct) t.equal(await direct.collection(centers).count({ [`${pendingField}.version`]: { $exists: true } }), 0, `after kill ${round + 1}, the restart wrote every revision a record carried`)
    await check(t, `after kill ${round + 1}`)
  }
  t.comment(`${totals.acknowledged} writes acknowledged, ${totals.interrupted} under way at ${totals.kills} kills, ${totals.contended} deletes refused as contended`)
  if (direct) t.comment(`the kills left ${totals.carried} revisions carried by their records and ${totals.cutShort} deletions cut short`)
  t.ok(tracked.filter((r) => r.acked.some((w) => w.op === 'delete')).length >= 2, 'deletes were acknowledged')
  t.ok(tracked.every((r) => r.acked.length), 'every record was written')

  // The store itself: exactly the revisions <id>@1..n of each record, and no record still carrying one.
  server!.child.kill('SIGKILL')
  await server!.exited
  const store = await openStoreOf(env)
  try {
    const schema = await compileSchema(join(projectRoot, 'schema'))
    const history = new HistoryWrites(store)
    if (!history.transactional) {
      // Deletions a kill left before their record went are taken back once a minute old: as a sweep a minute on does.
      const { orphans } = await sweepHistory(store, schema, history, new Date(Date.now() + 61_000))
      t.comment(`${orphans} deletion revisions left by a kill before their delete were taken back`)
    }
    const problems: string[] = []
    for (const record of tracked) {
      const stored = await store.collection(centers).findById(record.id)
      const revisions = await store.collection<Revision>(revisionsCollection).find({ record: record.id }, { sort: [['version', 1]] })
      const n = stored ? stored._version as number : revisions.length
      const ids = revisions.map((r) => r._id)
      if (!isDeepStrictEqual(ids, Array.from({ length: n }, (_, i) => revisionId(record.id, i + 1)))) problems.push(`${record.id} at ${n}: revisions ${JSON.stringify(ids)}`)
      if (stored && pendingField in stored) problems.push(`${record.id} still carries its revision ${JSON.stringify(stored[pendingField])}`)
      if (!stored && revisions.length && revisions.at(-1)!.op !== 'delete') problems.push(`${record.id} is gone, but its last revision is ${JSON.stringify(revisions.at(-1))}`)
    }
    t.same(problems, [], 'the store holds one revision per version of each record, and nothing on its way')
  } finally {
    await store.close()
  }
})

/** A revision as the record service makes it, for writing the states a crash leaves. */
function revisionOf(before: State | null, after: State | null, version: number, at: string): Revision {
  const record = String((after ?? before)!._id)
  return {
    _id: revisionId(record, version), record, collection: centers, type: 'ResearchCenter', version, at, actor: 'crash-test', via: 'test',
    op: !before ? 'create' : !after ? 'delete' : 'update', patch: diff(before ?? {}, after ?? {}),
    ...(after ? {} : { trashed: true as const }),
  }
}

// The outbox is the MongoDB store's; the embedded store writes a record and its revision in one
// transaction instead. Each pass runs the test of its own store.
if (mongodbUrl) t.test('the outbox\'s replay: a revision a record still carries is written once, a deletion whose record stayed is taken back', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const { store, schema } = app
  const history = app.records.history
  const collection = store.collection(centers)
  const revisions = store.collection<Revision>(revisionsCollection)
  const url = (id: string, suffix = '') => `/api/research-centers/${encodeURIComponent(id)}${suffix}`
  const make = async (name: string) => {
    const created = await admin({ method: 'POST', url: '/api/research-centers', payload: { name, faculty: [], description: `${name} v1` } })
    t.equal(created.statusCode, 201, `${name} is made`)
    return created.json()._id as string
  }
  const versionsOf = async (id: string) => (await revisions.find({ record: id }, { sort: [['version', 1]] })).map((r) => `${r.version}:${r.op}`)
  const historyOf = async (id: string) => (await admin({ method: 'GET', url: url(id, '/history') })).json() as { items: HistoryItem[]; total: number }

  // A crash between an update's record write and its revision: the record carries the revision, unwritten.
  const carried = await make('Outbox carried')
  const v1 = (await collection.findById(carried, { omit: ['_search'] }))!
  const stamp = new Date().toISOString()
  const v2 = { ...without(v1, ['_search']), description: 'written, revision on its way', _version: 2, _updated_at: stamp }
  const pending = revisionOf(without(v1, ['_search']), v2, 2, stamp)
  t.ok(await collection.updateOne({ _id: carried, _version: 1 }, { $set: { description: v2.description, _updated_at: stamp, [pendingField]: pending }, $inc: { _version: 1 } }), 'the record is written with its revision on it')
  t.same(await versionsOf(carried), ['1:create'], 'the revision itself is not written yet')
  t.same(await sweepHistory(store, schema, history, new Date()), { settled: 1, orphans: 0 }, 'the sweep writes it')
  t.same(await versionsOf(carried), ['1:create', '2:update'], 'once')
  t.notOk(pendingField in (await collection.findById(carried))!, 'and clears it from the record')
  t.same(await sweepHistory(store, schema, history, new Date()), { settled: 0, orphans: 0 }, 'a second sweep finds nothing to do')
  // The same state, but the revision was written before the crash (between the insert and the clearing).
  await collection.updateOne({ _id: carried }, { $set: { [pendingField]: pending } })
  t.same(await sweepHistory(store, schema, history, new Date()), { settled: 1, orphans: 0 }, 'a revision already written is replayed')
  t.same(await versionsOf(carried), ['1:create', '2:update'], 'without a second copy')
  t.match(await historyOf(carried), { total: 2, items: [{ version: 2, op: 'update', changes: [{ path: '/description', before: 'Outbox carried v1', after: 'written, revision on its way' }] }, { version: 1 }] })

  // The next writer of such a record writes the carried revision before its own replaces it.
  const v3stamp = new Date().toISOString()
  const v2stored = without((await collection.findById(carried))!, ['_search'])
  const v3 = { ...v2stored, description: 'a third', _version: 3, _updated_at: v3stamp }
  await collection.updateOne({ _id: carried, _version: 2 }, { $set: { description: 'a third', _updated_at: v3stamp, [pendingField]: revisionOf(v2stored, v3, 3, v3stamp) }, $inc: { _version: 1 } })
  const next = await admin({ method: 'PUT', url: url(carried), headers: { 'if-match': '"3"' }, payload: { description: 'a fourth' } })
  t.equal(next.statusCode, 200, 'the next update is answered')
  t.same(await versionsOf(carried), ['1:create', '2:update', '3:update', '4:update'], 'the next write wrote the carried revision, then its own')
  t.same(replay((await historyOf(carried)).items), without(next.json(), unlisted), 'and the history replays to the record')

  // A crash between a delete's revision and the delete: a deletion revision whose record is still there.
  const stayed = await make('Outbox stayed')
  const record = without((await collection.findById(stayed))!, ['_search'])
  const old = new Date(Date.now() - 2 * 60_000).toISOString()
  await revisions.insertOne(revisionOf(record, null, 2, old))
  const asOfNow = await admin({ method: 'GET', url: url(stayed, `?as_of=${encodeURIComponent(new Date().toISOString())}`) })
  t.equal(asOfNow.statusCode, 200, 'as_of now answers the record, which was never deleted')
  t.match(await historyOf(stayed), { total: 1, items: [{ version: 1, op: 'create' }] }, 'its history ends at its version')
  t.same(await sweepHistory(store, schema, history, new Date()), { settled: 0, orphans: 1 }, 'the sweep takes the deletion back')
  t.same(await versionsOf(stayed), ['1:create'], 'the record\'s history is its one version')
  const trash = (await admin({ method: 'GET', url: '/api/admin/trash' })).json() as { items: { id: string }[] }
  t.notOk(trash.items.some((item) => item.id === stayed), 'the trash no longer lists it')

  // One younger than a minute may be a delete under way: the sweep leaves it, and a write meanwhile still gets its revision.
  const young = await make('Outbox young')
  const youngRecord = without((await collection.findById(young))!, ['_search'])
  await revisions.insertOne(revisionOf(youngRecord, null, 2, new Date().toISOString()))
  t.same(await sweepHistory(store, schema, history, new Date()), { settled: 0, orphans: 0 }, 'a young deletion is left to its delete')
  const contended = await admin({ method: 'DELETE', url: url(young) })
  t.match({ status: contended.statusCode, body: contended.json() }, { status: 409, body: { code: 'ADKS_WRITE_CONTENDED' } }, 'another delete meanwhile is refused as contended')
  t.same(await versionsOf(young), ['1:create', '2:delete'], 'leaving the deletion as it was')
  const updated = await admin({ method: 'PUT', url: url(young), payload: { description: 'changed after the crash' } })
  t.equal(updated.statusCode, 200, 'an update meanwhile is answered')
  t.same(await versionsOf(young), ['1:create', '2:update'], 'the update\'s revision, not the deletion, is version 2')
  t.match(await historyOf(young), { total: 2, items: [{ version: 2, op: 'update', changes: [{ path: '/description', after: 'changed after the crash' }] }, { version: 1 }] })
  t.same(await sweepHistory(store, schema, history, new Date(Date.now() + 61_000)), { settled: 0, orphans: 0 }, 'nothing is left for a later sweep to take back')
  const removed = await admin({ method: 'DELETE', url: url(young) })
  t.equal(removed.statusCode, 200, 'a delete after it is answered')
  t.same(await versionsOf(young), ['1:create', '2:update', '3:delete'], 'and a delete after it is version 3')

  // A deletion whose record did go stays, however old.
  const gone = await make('Outbox gone')
  t.equal((await admin({ method: 'DELETE', url: url(gone) })).statusCode, 200, 'a delete is answered')
  t.same(await sweepHistory(store, schema, history, new Date(Date.now() + 61_000)), { settled: 0, orphans: 0 }, 'a real deletion is no orphan')
  t.same(await versionsOf(gone), ['1:create', '2:delete'], 'and its deletion stays')
})

if (!mongodbUrl) t.test('on the embedded store a record and its revision land together or not at all', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const history = app.records.history
  t.ok(history.transactional, 'the embedded store writes both in one transaction')
  const collection = app.store.collection(centers)
  const revisions = app.store.collection<Revision>(revisionsCollection)
  const doc = (name: string): Doc => ({ _id: `ResearchCenter/${name}`, type: 'ResearchCenter', name, faculty: [], _version: 1, _created_at: new Date().toISOString(), _updated_at: new Date().toISOString() })
  const at = new Date().toISOString()

  // A batch with a taken id fails whole: neither its records nor their revisions.
  const taken = await admin({ method: 'POST', url: '/api/research-centers', payload: { name: 'Batch-taken', faculty: [] } })
  t.equal(taken.statusCode, 201, 'a record is made through the API')
  const batch = [doc('Batch-a'), doc('Batch-b'), doc('Batch-taken')]
  await t.rejects(history.insertMany(collection, batch, batch.map((d) => revisionOf(null, d, 1, at))), DuplicateKeyError)
  t.same(await collection.find({ _id: { $in: ['ResearchCenter/Batch-a', 'ResearchCenter/Batch-b'] } }), [], 'no record of the batch')
  t.same(await revisions.find({ record: { $in: ['ResearchCenter/Batch-a', 'ResearchCenter/Batch-b'] } }), [], 'no revision of the batch')
  t.same((await revisions.find({ record: 'ResearchCenter/Batch-taken' })).map((r) => r.version), [1], 'the taken record keeps its one revision')

  // A revision id already taken fails the record's write too.
  const lone = doc('Lone')
  await revisions.insertOne({ ...revisionOf(null, lone, 1, at), actor: 'planted' })
  await t.rejects(history.insert(collection, lone, revisionOf(null, lone, 1, at)), DuplicateKeyError)
  t.equal(await collection.findById(lone._id), null, 'the record is not written without its revision')

  // An update whose revision cannot be written leaves the record as it was.
  const before = (await collection.findById('ResearchCenter/Batch-taken'))!
  await revisions.insertOne({ ...revisionOf(null, before, 2, at), actor: 'planted' })
  const after = { ...before, description: 'never', _version: 2 }
  await t.rejects(history.update(collection, before as Doc & { _version: number }, { $set: { description: 'never' }, $inc: { _version: 1 } }, revisionOf(before, after, 2, at)), DuplicateKeyError)
  t.match(await collection.findById(before._id), { _version: 1 }, 'the update did not land')
  t.notOk('description' in (await collection.findById(before._id))!, 'nor any of its fields')

  // Through the record service: a batch with a unique value twice keeps the first, with its revision, and refuses the second, without one.
  const outcomes = await app.records.createMany('Publication', [
    { input: { title: 'First', authors: [], dept_authors: [], doi: '10.5555/crash.1' } },
    { input: { title: 'Second', authors: [], dept_authors: [], doi: '10.5555/crash.1' } },
  ], { actor: testActor })
  t.ok(outcomes[0]!.record, 'the first is written')
  t.equal(outcomes[1]!.error?.statusCode, 409, 'the second is refused')
  const publications = await app.store.collection('publications').find({ doi: '10.5555/crash.1' })
  t.equal(publications.length, 1, 'one publication has the value')
  t.same((await revisions.find({ type: 'Publication' })).map((r) => r.record), publications.map((p) => p._id), 'one revision, the written record\'s')
})
