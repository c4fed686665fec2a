/**
 * The embedded store across processes: what it acknowledged survives the process being killed, one
 * process at a time holds a data directory (and a killed holder leaves no lock behind), and the cache of
 * parsed documents never shows a document as it was before a write. The writer is a real process
 * (fixtures/store-writer.ts) killed with SIGKILL, so no close or flush of the store's own can run.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { isDeepStrictEqual } from 'node:util'
import t, { type Test } from 'tap'
import { DataDirInUseError, type Doc } from '../../src/store/port.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { tempDir } from '../helpers/temp-dir.js'
import { expectStartupFailure, projectRoot } from '../process/server-process.js'
import { itemsCollection, stateAfter, type Item } from './fixtures/writes.js'

/** Any wait on a child is bounded this generously: it waits for an event, the bound only stops a hang. */
const boundMs = 60_000

interface Exit { readonly code: number | null; readonly signal: NodeJS.Signals | null }

interface Child {
  readonly child: ChildProcess
  /** Every stdout line so far. */
  readonly lines: string[]
  stderr(): string
  /** Resolves once stdout and stderr are closed and the process has exited: every line it wrote is in `lines`. */
  exit(): Promise<Exit>
  /** Resolves at the first line (seen before or after the call) that passes the check; fails if the process ends first. */
  line(check: (line: string) => boolean, what: string): Promise<string>
}

/** `node --import tsx <args>` from the project root, killed at the end of the test if still alive. */
function run(t: Test, args: readonly string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: string[] = []
  const waiters = new Set<() => void>()
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line)
    for (const wake of waiters) wake()
  })
  const closed = new Promise<Exit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })))
  let ended = false
  void closed.then(() => {
    ended = true
    for (const wake of waiters) wake()
  })
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await closed
  })
  const line = (check: (line: string) => boolean, what: string) => new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`no ${what} within ${boundMs / 1000} s; stdout: ${lines.join(' ')}; stderr: ${stderr}`)), boundMs)
    const finish = (outcome: string | Error) => {
      clearTimeout(timer)
      waiters.delete(look)
      if (outcome instanceof Error) reject(outcome)
      else resolve(outcome)
    }
    const look = () => {
      const found = lines.find(check)
      if (found !== undefined) finish(found)
      else if (ended) finish(new Error(`the process ended before ${what}; stdout: ${lines.join(' ')}; stderr: ${stderr}`))
    }
    waiters.add(look)
    look()
  })
  const exit = () => within(closed, `the end of ${args.join(' ')}`)
  return { child, lines, stderr: () => stderr, exit, line }
}

/** The promise's outcome, or a failure naming what did not happen within the bound. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not happen within ${boundMs / 1000} s`)), boundMs)
    promise.then((value) => { clearTimeout(timer); resolve(value) }, (error: unknown) => { clearTimeout(timer); reject(error) })
  })
}

function writer(t: Test, dir: string, writes?: number): Child {
  return run(t, ['test/store/fixtures/store-writer.ts', dir, ...(writes === undefined ? [] : [String(writes)])])
}

/** The numbers of the writes the writer acknowledged. */
function acknowledged(child: Child): number[] {
  return child.lines.filter((line) => /^\d+$/.test(line)).map(Number)
}

async function contents(store: EmbeddedStore): Promise<Record<string, Item>> {
  const docs = await store.collection<Item>(itemsCollection).find({}, { sort: [['_id', 1]] })
  return Object.fromEntries(docs.map((doc) => [doc._id, doc]))
}

/** Opens the store in this process, closed when the test ends (before its directory is removed). */
async function holder(t: Test, dir: string): Promise<EmbeddedStore> {
  const store = await EmbeddedStore.open(dir, [itemsCollection], { log: () => {} })
  t.teardown(() => store.close())
  return store
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

t.test('every write acknowledged before a SIGKILL is there after it, exactly', async (t) => {
  const dir = await tempDir(t)
  const writes = 120
  const child = writer(t, dir, writes)
  await child.line((line) => line === 'done', 'the last write acknowledged')
  // Nothing between the acknowledgement and the kill: no flush, no close.
  child.child.kill('SIGKILL')
  t.same(await child.exit(), { code: null, signal: 'SIGKILL' }, 'it died of SIGKILL')
  t.same(acknowledged(child), Array.from({ length: writes }, (_, i) => i + 1), 'every write was acknowledged, in order')

  const store = await holder(t, dir)
  const expected = stateAfter(writes)
  t.ok(Object.keys(expected).length > 20, 'the writes leave documents of every kind behind')
  t.same(await contents(store), expected, 'inserts, updates, updateManys, upserts, deletes and insertManys, as acknowledged')
})

t.test('killed mid-stream, the writer loses no acknowledged write; only the one in flight is unknown', async (t) => {
  const dir = await tempDir(t)
  const child = writer(t, dir)
  const killAt = 400
  await child.line((line) => line === String(killAt), `write ${killAt} acknowledged`)
  child.child.kill('SIGKILL')
  t.same(await child.exit(), { code: null, signal: 'SIGKILL' }, 'it died of SIGKILL')
  const acked = acknowledged(child)
  const last = acked.at(-1)!
  t.same(acked, Array.from({ length: last }, (_, i) => i + 1), 'the acknowledgements are consecutive')
  t.ok(last >= killAt, `${last} writes acknowledged before the kill`)

  const store = await holder(t, dir)
  const found = await contents(store)
  const landed = [last, last + 1].find((n) => isDeepStrictEqual(found, stateAfter(n)))
  t.not(landed, undefined, `the store is as after write ${last}, or after the one in flight (${last + 1})`)
  if (landed === undefined) t.same(found, stateAfter(last), 'the difference from the last acknowledged state')
  else t.comment(`the write in flight ${landed === last ? 'did not land' : 'landed'}`)
})

t.test('a second process is refused a data directory another holds, and the holder carries on', async (t) => {
  const dir = await tempDir(t)
  const store = await holder(t, dir)
  const things = store.collection<Doc>(itemsCollection)
  await things.insertOne({ _id: 'before' })

  const refused = writer(t, dir, 1)
  t.same(await refused.exit(), { code: 2, signal: null }, 'the second process stops')
  const lines = refused.stderr().trimEnd().split('\n')
  t.equal(lines.length, 1, `one line on stderr: ${refused.stderr()}`)
  t.match(lines[0], new RegExp(`^DataDirInUseError: .*${escaped(dir)}`), 'saying the directory is in use, and naming it')
  t.notOk(refused.lines.includes('open'), 'it never had the store')

  await t.rejects(EmbeddedStore.open(dir), DataDirInUseError, 'a second store in the holder\'s own process is refused as well')

  await things.insertOne({ _id: 'after' })
  await things.updateOne({ _id: 'before' }, { $set: { still: true } })
  t.same(await things.find({}, { sort: [['_id', 1]] }), [{ _id: 'after' }, { _id: 'before', still: true }], 'the holder still writes and reads')
})

t.test('the service and the seed stop with one line naming a data directory another process holds', async (t) => {
  const dir = await tempDir(t)
  const store = await holder(t, dir)
  const things = store.collection<Doc>(itemsCollection)
  await things.insertOne({ _id: 'held' })
  const inUse = new RegExp(`${escaped(dir)}.* in use`)

  await within(expectStartupFailure(t, 'the service', { DATA_DIR: dir, LOG_LEVEL: 'silent', PORT: '0' }, inUse), 'the service\'s exit')

  const seed = run(t, ['scripts/seed.ts', '--if-empty'], { DATA_DIR: dir, LOG_LEVEL: 'silent' })
  t.same(await seed.exit(), { code: 1, signal: null }, 'the seed: exit code 1')
  const lines = seed.stderr().trimEnd().split('\n')
  t.equal(lines.length, 1, `the seed: one line on stderr: ${seed.stderr()}`)
  t.match(lines[0], inUse, 'the seed: the line names the directory')
  t.notMatch(seed.lines.join('\n'), /seeded/, 'the seed wrote nothing')

  await things.updateOne({ _id: 'held' }, { $set: { still: true } })
  t.same(await things.find({}), [{ _id: 'held', still: true }], 'the holder still writes and reads')
  t.same(await store.collection('people').count({}), 0, 'and nothing was seeded beside it')
})

t.test('a data directory opens again at once after its holder was killed', async (t) => {
  const dir = await tempDir(t)
  const child = writer(t, dir, 3)
  await child.line((line) => line === 'done', 'the writer holding the store')
  await t.rejects(EmbeddedStore.open(dir), DataDirInUseError, 'held while the writer lives')
  child.child.kill('SIGKILL')
  t.same(await child.exit(), { code: null, signal: 'SIGKILL' })
  t.ok(existsSync(join(dir, 'adks.lock')), 'the lock file is still there: only the lock on it is gone')

  // No retry: the operating system released the lock with the process.
  const store = await holder(t, dir)
  t.same(await contents(store), stateAfter(3), 'with the killed writer\'s writes')
})

t.test('a cached document follows every kind of write', async (t) => {
  const dir = await tempDir(t)
  const store = await holder(t, dir)
  await store.ensureIndexes('cached', [{ fields: ['name'] }])
  type Named = Doc & { name?: string; n?: number }
  const c = store.collection<Named>('cached')
  const id = 'Doc/1'

  /** Reads the document every way, then leaves it in the cache for the next write to find. */
  async function shows(expected: Named | null, after: string): Promise<void> {
    const viewed = await c.viewById(id)
    t.same(viewed, expected, `${after}: viewById`)
    t.same(await c.findById(id), expected, `${after}: findById`)
    t.same(await c.find({ _id: id }), expected ? [expected] : [], `${after}: find by _id`)
    t.same(await c.view({ _id: id }), expected ? [expected] : [], `${after}: view by _id`)
    if (expected?.name !== undefined) t.same(await c.find({ name: expected.name }), [expected], `${after}: find on the indexed field`)
    if (viewed) t.equal(await c.viewById(id), viewed, `${after}: read again, it comes from the cache`)
  }

  await c.insertOne({ _id: id, name: 'first', n: 1 })
  await shows({ _id: id, name: 'first', n: 1 }, 'insertOne')

  t.ok(await c.updateOne({ _id: id }, { $set: { name: 'second' } }))
  await shows({ _id: id, name: 'second', n: 1 }, 'updateOne')
  t.same(await c.find({ name: 'first' }), [], 'the old value of the indexed field finds nothing')

  t.equal(await c.updateMany({ n: 1 }, { $inc: { n: 1 } }), 1)
  await shows({ _id: id, name: 'second', n: 2 }, 'updateMany')

  await c.upsertOne({ _id: id }, { _id: id, name: 'third', n: 3 })
  await shows({ _id: id, name: 'third', n: 3 }, 'upsertOne over it')

  t.equal(await c.deleteOne({ _id: id }), 1)
  await shows(null, 'deleteOne')

  await c.insertOne({ _id: id, name: 'reborn' })
  await shows({ _id: id, name: 'reborn' }, 'insertOne after the delete')

  t.equal(await c.deleteMany({ name: 'reborn' }), 1)
  await shows(null, 'deleteMany')

  await c.upsertOne({ _id: id }, { _id: id, name: 'upserted' })
  await shows({ _id: id, name: 'upserted' }, 'upsertOne that inserts')

  await t.rejects(c.insertMany([{ _id: 'Doc/2', name: 'other' }, { _id: id, name: 'duplicate' }]), { name: 'DuplicateKeyError' })
  await shows({ _id: id, name: 'upserted' }, 'an insertMany refused for a duplicate')
  t.equal(await c.viewById('Doc/2'), null, 'of which nothing landed')
})
