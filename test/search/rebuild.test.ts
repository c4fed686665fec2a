import t, { type Test } from 'tap'
import { RecordService } from '../../src/records/service.js'
import { SearchService } from '../../src/search/service.js'
import { buildTestApp } from '../helpers/app.js'
import type { Answer } from './fixtures.js'
import { testActor } from '../helpers/actor.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `read` until it gives `wanted`, for at most 30 s, then answers what it read last. */
async function eventually<T>(read: () => Promise<T>, wanted: T): Promise<T> {
  const started = Date.now()
  let value = await read()
  while (value !== wanted && Date.now() - started < 30_000) {
    await sleep(100)
    value = await read()
  }
  return value
}

/** The admin's search for courses, and a second record service on the same store that stands for another API instance. */
async function twoInstances(t: Test, interval: string) {
  const { app, as } = await buildTestApp(t, { SEARCH_REFRESH_INTERVAL: interval })
  const admin = as('admin@dept.edu', 'admin')
  const elsewhere = new RecordService(app.store, app.schema)
  const total = async (q: string) => ((await admin({ method: 'GET', url: `/api/search/courses?q=${q}` })).json() as Answer).total
  return { elsewhere, total }
}

t.test('without a rebuild, this index hears nothing of writes by another instance sharing the store', async (t) => {
  const { elsewhere, total } = await twoInstances(t, '0')
  await elsewhere.create('Course', { course_code: 'BIO 110', title: 'Marine Ecology' }, { actor: testActor })
  t.equal(await total('marine'), 0, 'not seen')
})

t.test('writes by another instance sharing the store show after the periodic rebuild', async (t) => {
  const { elsewhere, total } = await twoInstances(t, '1s')
  const course = await elsewhere.create('Course', { course_code: 'BIO 110', title: 'Marine Ecology' }, { actor: testActor })
  t.equal(await eventually(() => total('marine'), 1), 1, 'seen after a rebuild')
  await elsewhere.remove(course._id, { actor: testActor })
  t.equal(await eventually(() => total('marine'), 0), 0, 'a delete elsewhere drops out too')
})

t.test('a write while the index is rebuilt is not lost', async (t) => {
  const { app, as } = await buildTestApp(t, { SEARCH_REFRESH_INTERVAL: '0' })
  const admin = as('admin@dept.edu', 'admin')
  for (let i = 0; i < 20; i++) await app.records.create('Course', { course_code: `ECO ${100 + i}`, title: `Economics ${i}` }, { actor: testActor })
  for (const [round, animal] of ['walrus', 'pelican', 'narwhal', 'octopus', 'giraffe'].entries()) {
    const [, created] = await Promise.all([
      app.searchService.rebuild(),
      app.records.create('Course', { course_code: `ZOO ${200 + round}`, title: `Concurrent ${animal}` }, { actor: testActor }),
    ])
    const body = (await admin({ method: 'GET', url: `/api/search/courses?q=${animal}` })).json() as Answer
    t.same(body.results.map((r) => r._id), [created._id], animal)
  }
  const kept = app.searchService.stats()
  t.equal(kept.documents, 25)
  await app.searchService.rebuild()
  t.same(app.searchService.stats(), kept, 'the same as a fresh build: nothing stale, nothing missing')
})

/** A record service whose reads can be held at a gate, to order a rebuild and a change deterministically. */
class GatedRecords extends RecordService {
  /** Held after the read that brings `finds` to `holdAt`. */
  findGate: { promise: Promise<void>; holdAt: number } | undefined
  getGates: Promise<void>[] = []
  finds = 0
  failNextFind = false

  override async find<N extends string>(...args: Parameters<typeof RecordService.prototype.find<N>>) {
    if (this.failNextFind) {
      this.failNextFind = false
      throw new Error('store unreachable')
    }
    const found = await super.find<N>(...args)
    this.finds++
    if (this.findGate && this.finds === this.findGate.holdAt) await this.findGate.promise
    return found
  }

  override async get<N extends string = string>(id: string, className?: N) {
    const found = await super.get(id, className)
    const gate = this.getGates.shift()
    if (gate) await gate
    return found
  }
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => { open = resolve })
  return { promise, open }
}

async function gatedSearch(t: Test) {
  const { app } = await buildTestApp(t, { SEARCH_REFRESH_INTERVAL: '0' })
  const records = new GatedRecords(app.store, app.schema)
  const search = new SearchService(records, app.schema, app.log, 0)
  await search.start()
  t.teardown(() => search.close())
  const ids = async (q: string) => (await search.search({ q, limit: 10, kinds: new Set(['course'] as const), includeStudents: false })).results.map((r) => r._id)
  return { records, search, ids }
}

t.test('a change read into the old index while a rebuild reads the store is applied to the new one', async (t) => {
  const { records, search, ids } = await gatedSearch(t)
  const held = gate()
  const holdAt = records.finds + search.kinds.length
  records.findGate = { promise: held.promise, holdAt }
  const rebuilt = search.rebuild()
  while (records.finds < holdAt) await sleep(5)
  const created = await records.create('Course', { course_code: 'ZOO 300', title: 'Walrus Studies' }, { actor: testActor })
  t.same(await ids('walrus'), [created._id], 'seen in the index in use')
  held.open()
  records.findGate = undefined
  await rebuilt
  t.same(await ids('walrus'), [created._id], 'still seen once the rebuilt index, read before the write, is in place')
})

t.test('of two re-reads of one record, the later one wins even if it finishes first', async (t) => {
  const { records, ids } = await gatedSearch(t)
  const course = await records.create('Course', { course_code: 'ZOO 301', title: 'Pelican Biology' }, { actor: testActor })
  const slow = gate()
  records.getGates = [slow.promise]
  await records.update(course._id, { title: 'Narwhal Biology' }, { actor: testActor })
  await records.update(course._id, { title: 'Octopus Biology' }, { actor: testActor })
  await sleep(20)
  slow.open()
  t.same(await ids('octopus'), [course._id])
  t.same(await ids('narwhal'), [], 'the older read, finishing last, is dropped')
})

t.test('a failed rebuild leaves the index in use as it was', async (t) => {
  const { records, search, ids } = await gatedSearch(t)
  const course = await records.create('Course', { course_code: 'ZOO 302', title: 'Giraffe Ecology' }, { actor: testActor })
  records.failNextFind = true
  await t.rejects(search.rebuild(), /store unreachable/)
  t.same(await ids('giraffe'), [course._id])
  await search.rebuild()
  t.same(await ids('giraffe'), [course._id], 'and the next rebuild succeeds')
})

t.test('a rebuild lets other work run while it indexes many records', async (t) => {
  const { records, search } = await gatedSearch(t)
  await Promise.all(Array.from({ length: 600 }, (_, i) => records.create('Course', { course_code: `BULK ${100 + i}`, title: `Bulk course ${i}` }, { actor: testActor })))
  // Counts turns of the event loop that get in while records are turned into documents (not while read).
  let turns = 0
  let rebuilding = true
  const finds = records.finds
  const spin = () => {
    if (records.finds > finds) turns++
    if (rebuilding) setImmediate(spin)
  }
  setImmediate(spin)
  await search.rebuild()
  rebuilding = false
  t.ok(turns >= 2, `${turns} turns of the event loop during the rebuild`)
  t.equal(search.stats().documents, 600)
})
