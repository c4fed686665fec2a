import { Redis } from 'ioredis'
import t from 'tap'
import { MemoryCacheStore } from '../../src/cache/memory.js'
import { unheardMaxAgeMs, WriteNotices } from '../../src/cluster/write-notices.js'
import { decodeEntry, encodeEntry, RedisCacheStore } from '../../src/cache/redis.js'
import { cacheStoreContract } from './contract.js'
import { keysUnder, privatePrefix, sharedRedisUrl } from './redis.js'

t.test('in-process LRU', async (t) => {
  cacheStoreContract(t, async (t) => {
    const store = new MemoryCacheStore(1024 * 1024)
    t.teardown(() => store.close())
    return store
  })

  t.test('the LRU stays within its size, dropping the least recently used', async (t) => {
    const store = new MemoryCacheStore(4096)
    const generations = ['0']
    const put = (n: number) => store.put({ group: 'people', id: String(n) }, { generations, contentType: 'application/json', body: Buffer.alloc(1000, 97) }, 60)
    for (let n = 0; n < 10; n++) await put(n)
    const stats = await store.stats()
    t.ok(stats.bytes <= 4096, `${stats.bytes} bytes`)
    t.ok(stats.keys < 10 && stats.keys > 0)
    t.ok((await store.lookup({ group: 'people', id: '9' }, ['people'])).entry, 'the newest is kept')
    t.equal((await store.lookup({ group: 'people', id: '0' }, ['people'])).entry, undefined, 'the oldest went first')
  })

  t.test('on a shared store, another instance\'s write moves the generation, and unheard writes cap the age', async (t) => {
    let now = 1000
    let hearing = true
    const notices = new WriteNotices(() => hearing)
    const store = new MemoryCacheStore(1024 * 1024, notices, () => now)
    const key = { group: 'people', id: 'p' }
    const stored = async () => {
      const { generations } = store.lookup(key, ['people'])
      await store.put(key, { generations, contentType: 'application/json', body: Buffer.from('{}') }, 86_400)
    }
    const current = () => {
      const { generations, entry } = store.lookup(key, ['people'])
      return entry !== undefined && entry.generations.join() === generations.join()
    }
    await stored()
    now += 60_000
    t.ok(current(), 'while notices are heard, an entry lives until a write')
    notices.heard({ collection: 'courses' })
    t.ok(current(), 'a write to another collection changes nothing')
    notices.heard({ collection: 'people', ids: ['p'] })
    t.notOk(current(), 'another instance\'s write to its collection ends it')
    await stored()
    now += unheardMaxAgeMs
    t.ok(current(), 'an entry older than the short age is served while notices are heard')
    hearing = false
    t.notOk(current(), 'once notices may be missed, an entry older than the short age is not served')
    await stored()
    now += unheardMaxAgeMs - 1
    t.ok(current(), 'one stored meanwhile is served within the short age')
    now += 1
    t.notOk(current(), 'and not beyond it')
    hearing = true
    await stored()
    notices.missed()
    t.notOk(current(), 'a gap in the notices ends every entry')
  })
})

t.test('Redis', async (t) => {
  async function open(t: Parameters<Parameters<typeof cacheStoreContract>[1]>[0]) {
    const { prefix } = await privatePrefix(t)
    const store = new RedisCacheStore(new Redis(sharedRedisUrl), prefix)
    t.teardown(() => store.close())
    return store
  }
  cacheStoreContract(t, open)

  t.test('only keys under the prefix are counted and cleared', async (t) => {
    const { prefix, redis } = await privatePrefix(t)
    const store = new RedisCacheStore(new Redis(sharedRedisUrl), `${prefix}mine:`)
    t.teardown(() => store.close())
    await redis.set(`${prefix}theirs:e:people:x`, 'someone else', 'EX', 60)
    const { generations } = await store.lookup({ group: 'people', id: 'a' }, ['people'])
    await store.put({ group: 'people', id: 'a' }, { generations, contentType: 'application/json', body: Buffer.from('{}') }, 60)
    t.equal((await store.stats()).keys, 1)
    t.equal(await store.clear(), 1)
    t.equal(await redis.get(`${prefix}theirs:e:people:x`), 'someone else', 'a neighbour\'s key is untouched')
    t.same(await keysUnder(redis, `${prefix}mine:g:*`), [`${prefix}mine:g:people`], 'generations survive a clear')
  })

  t.test('entries expire in Redis with the TTL given', async (t) => {
    const { prefix, redis } = await privatePrefix(t)
    const store = new RedisCacheStore(new Redis(sharedRedisUrl), prefix)
    t.teardown(() => store.close())
    await store.put({ group: 'courses', id: 'a' }, { generations: ['x'], contentType: 'application/json', body: Buffer.from('{}') }, 86400)
    const [key] = await keysUnder(redis, `${prefix}e:courses:*`)
    const ttl = await redis.ttl(key!)
    t.ok(ttl > 86000 && ttl <= 86400, `ttl ${ttl}`)
  })

  t.test('a corrupt entry is a miss, not an error', async (t) => {
    const { prefix, redis } = await privatePrefix(t)
    const store = new RedisCacheStore(new Redis(sharedRedisUrl), prefix)
    t.teardown(() => store.close())
    const key = { group: 'people', id: 'a' }
    const { generations } = await store.lookup(key, ['people'])
    await store.put(key, { generations, contentType: 'application/json', body: Buffer.from('{"a":1}') }, 60)
    const [stored] = await keysUnder(redis, `${prefix}e:people:*`)
    for (const garbage of ['no header at all', '{"g":"not a list","t":"x"}\n{}', '{broken json\n{}', '\n{}']) {
      await redis.set(stored!, garbage)
      t.equal((await store.lookup(key, ['people'])).entry, undefined, JSON.stringify(garbage))
    }
    t.equal(decodeEntry(Buffer.from('{"g":[1],"t":"x"}\n{}')), undefined, 'generations must be strings')
    const round = decodeEntry(encodeEntry({ generations: ['a', 'b'], contentType: 'text/x', etag: '"2"', body: Buffer.from('line1\nline2') }))
    t.same(round, { generations: ['a', 'b'], contentType: 'text/x', etag: '"2"', body: Buffer.from('line1\nline2') }, 'a body with newlines round-trips')
    const zipped = { generations: ['a'], contentType: 'text/x', body: Buffer.from('plain\nbody'), gzip: Buffer.from('\x1f\x8b\nzipped') }
    t.same(decodeEntry(encodeEntry(zipped)), zipped, 'a body and its gzip form round-trip')
    t.equal(decodeEntry(Buffer.from('{"g":["a"],"t":"x","z":50}\n{}')), undefined, 'a gzip length beyond the value')
    t.equal(decodeEntry(Buffer.from('{"g":["a"],"t":"x","z":-2}\n{}')), undefined, 'a gzip length that is not a count')
  })

  t.test('a generation lost to eviction comes back different, so old entries never match again', async (t) => {
    const { prefix, redis } = await privatePrefix(t)
    const store = new RedisCacheStore(new Redis(sharedRedisUrl), prefix)
    t.teardown(() => store.close())
    const key = { group: 'people', id: 'a' }
    const { generations } = await store.lookup(key, ['people'])
    await store.put(key, { generations, contentType: 'application/json', body: Buffer.from('{}') }, 60)
    await redis.del(`${prefix}g:people`)
    const after = await store.lookup(key, ['people'])
    t.ok(after.entry, 'the entry is still stored')
    t.not(after.generations[0], generations[0], 'but its generation is no longer current')
  })
})
