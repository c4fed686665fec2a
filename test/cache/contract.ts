import type { Test } from 'tap'
import type { CachedResponse, CacheKey, CacheStore } from '../../src/cache/port.js'

const body = (text: string) => Buffer.from(JSON.stringify({ text }))

function entry(generations: readonly string[], text: string, etag?: string): CachedResponse {
  return { generations, contentType: 'application/json; charset=utf-8', ...(etag ? { etag } : {}), body: body(text) }
}

const person: CacheKey = { group: 'people', id: 'member\nGET /api/people/:id\n[["id","Faculty/a"]]\n[]' }
const otherPerson: CacheKey = { group: 'people', id: 'admin\nGET /api/people/:id\n[["id","Faculty/a"]]\n[]' }
const course: CacheKey = { group: 'courses', id: 'member\nGET /api/courses\n[]\n[["limit",50]]' }

/** What both cache adapters must do alike. `open` gives an empty store private to the test and closes it after. */
export function cacheStoreContract(t: Test, open: (t: Test) => Promise<CacheStore>): void {
  t.test('an entry is found under its key only, with its bytes and headers', async (t) => {
    const store = await open(t)
    const empty = await store.lookup(person, ['people'])
    t.equal(empty.entry, undefined)
    t.equal(empty.generations.length, 1)
    t.same((await store.lookup(person, ['people'])).generations, empty.generations, 'generations are stable without writes')
    await store.put(person, entry(empty.generations, 'Ada', '"3"'), 60)
    const found = await store.lookup(person, ['people'])
    t.same(found.entry?.generations, empty.generations)
    t.equal(found.entry?.contentType, 'application/json; charset=utf-8')
    t.equal(found.entry?.etag, '"3"')
    t.same(found.entry?.body, body('Ada'))
    t.equal((await store.lookup(otherPerson, ['people'])).entry, undefined, 'a key differing only in visibility class is another entry')
    await store.put(person, entry(empty.generations, 'Grace'), 60)
    const replaced = await store.lookup(person, ['people'])
    t.same(replaced.entry?.body, body('Grace'), 'a put replaces the entry')
    t.equal(replaced.entry?.etag, undefined)
    t.equal(replaced.entry?.gzip, undefined, 'no gzip form unless one was stored')
    const gzip = Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3])
    await store.put(person, { ...entry(empty.generations, 'Zipped'), gzip }, 60)
    const zipped = (await store.lookup(person, ['people'])).entry
    t.same([zipped?.body, zipped?.gzip], [body('Zipped'), gzip], 'the body and its gzip form are kept apart')
  })

  t.test('an amendment replaces a stored entry, keeps its expiry, and never brings back one that is gone', async (t) => {
    const store = await open(t)
    const { generations } = await store.lookup(person, ['people'])
    const gzip = Buffer.from([0x1f, 0x8b, 8, 0, 4, 5, 6])
    await store.put(person, entry(generations, 'Ada'), 1)
    await store.amend(person, { ...entry(generations, 'Ada'), gzip })
    t.same((await store.lookup(person, ['people'])).entry?.gzip, gzip, 'the gzip form is added')
    await new Promise((r) => setTimeout(r, 1300))
    t.equal((await store.lookup(person, ['people'])).entry, undefined, 'and the entry still expires when it was due')
    await store.put(course, entry(generations, 'c'), 60)
    t.equal(await store.clear(), 1)
    await store.amend(course, { ...entry(generations, 'c'), gzip })
    t.equal((await store.lookup(course, ['courses'])).entry, undefined, 'a cleared entry stays cleared')
    t.equal((await store.stats()).keys, 0)
  })

  t.test('a bump changes the generation of its collection only', async (t) => {
    const store = await open(t)
    const before = (await store.lookup(course, ['courses', 'sections'])).generations
    await store.bump('sections')
    const after = (await store.lookup(course, ['courses', 'sections'])).generations
    t.equal(after[0], before[0], 'courses unchanged')
    t.not(after[1], before[1], 'sections changed')
    await store.bump('sections')
    t.not((await store.lookup(course, ['courses', 'sections'])).generations[1], after[1], 'every bump gives a new generation')
  })

  t.test('entries expire after their time to live', async (t) => {
    const store = await open(t)
    const { generations } = await store.lookup(person, ['people'])
    await store.put(person, entry(generations, 'short'), 1)
    await store.put(course, entry(generations, 'long'), 60)
    t.ok((await store.lookup(person, ['people'])).entry, 'present at first')
    await new Promise((r) => setTimeout(r, 1300))
    t.equal((await store.lookup(person, ['people'])).entry, undefined, 'gone after its TTL')
    t.ok((await store.lookup(course, ['people'])).entry, 'a longer TTL is still there')
  })

  t.test('stats count entries; clearing one group leaves the others', async (t) => {
    const store = await open(t)
    t.same(await store.stats(), { keys: 0, bytes: 0 })
    const { generations } = await store.lookup(person, ['people'])
    await store.put(person, entry(generations, 'a'), 60)
    await store.put(otherPerson, entry(generations, 'b'), 60)
    await store.put(course, entry(generations, 'c'), 60)
    const stats = await store.stats()
    t.equal(stats.keys, 3)
    t.ok(stats.bytes > 0, 'entries take memory')
    t.equal(await store.clear('people'), 2)
    t.equal((await store.lookup(person, ['people'])).entry, undefined)
    t.ok((await store.lookup(course, ['courses'])).entry, 'other groups stay')
    t.equal((await store.stats()).keys, 1)
    t.equal(await store.clear(), 1)
    t.same(await store.stats(), { keys: 0, bytes: 0 })
    t.same((await store.lookup(person, ['people'])).generations, generations, 'clearing entries keeps generations')
  })
}
