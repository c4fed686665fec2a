import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'
import t from 'tap'
import { RedisClaims, StoreClaims, type OneTimeClaims } from '../../src/auth/one-time.js'
import { MemorySignInState, RedisSignInState, type SignInState } from '../../src/auth/saml/state.js'
import { connectRequestPathRedis } from '../../src/redis/client.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { tempDir } from '../helpers/temp-dir.js'

// The once-only claim both backends offer, and the short-lived sign-in state.
const prefix = `test-once-${process.pid}-${randomBytes(4).toString('hex')}:`
const redis = new Redis('redis://127.0.0.1:6379')
let store: EmbeddedStore | undefined
const dir = await tempDir(t, async () => store?.close())
store = await EmbeddedStore.open(dir)
t.teardown(async () => {
  const keys = await redis.keys(`${prefix}*`)
  if (keys.length) await redis.del(...keys)
  await redis.quit()
})

const backends: Record<string, OneTimeClaims> = {
  store: new StoreClaims(store),
  redis: new RedisClaims(redis, prefix),
  // A second instance: its own client and process-local state, the same Redis.
  'redis, second client': new RedisClaims(new Redis('redis://127.0.0.1:6379'), prefix),
}
t.teardown(() => (backends['redis, second client'] as unknown as { redis: Redis }).redis.quit())

for (const [name, claims] of Object.entries(backends)) {
  t.test(`${name}: a key is claimed once, per namespace`, async (t) => {
    const key = `k-${randomBytes(6).toString('hex')}`
    t.equal(await claims.isClaimed('test', key), false)
    t.equal(await claims.claim('test', key, 60_000), true)
    t.equal(await claims.claim('test', key, 60_000), false)
    t.equal(await claims.isClaimed('test', key), true)
    t.equal(await claims.claim('other', key, 60_000), true, 'namespaces are separate')
  })

  t.test(`${name}: of 20 concurrent claims exactly one wins`, async (t) => {
    const key = `race-${randomBytes(6).toString('hex')}`
    const results = await Promise.all(Array.from({ length: 20 }, () => claims.claim('test', key, 60_000)))
    t.equal(results.filter(Boolean).length, 1)
  })

  t.test(`${name}: an expired claim frees its key`, async (t) => {
    const key = `ttl-${randomBytes(6).toString('hex')}`
    t.equal(await claims.claim('test', key, 50), true)
    await sleep(120)
    t.equal(await claims.isClaimed('test', key), false)
    t.equal(await claims.claim('test', key, 60_000), true)
  })

  t.test(`${name}: a namespace must be plain`, async (t) => {
    await t.rejects(claims.claim('Bad Namespace', 'k', 1000), TypeError)
  })
}

t.test('the two Redis clients share claims (two instances, one Redis)', async (t) => {
  const key = `shared-${randomBytes(6).toString('hex')}`
  t.equal(await backends.redis!.claim('test', key, 60_000), true)
  t.equal(await backends['redis, second client']!.claim('test', key, 60_000), false)
})

t.test('keys are stored hashed, never as given', async (t) => {
  const secret = `secret-token-${randomBytes(6).toString('hex')}`
  await backends.redis!.claim('test', secret, 60_000)
  await backends.store!.claim('test', secret, 60_000)
  t.same((await redis.keys(`${prefix}*`)).filter((k) => k.includes(secret)), [])
  const docs = await store!.collection(StoreClaims.collection).find({})
  t.ok(docs.length > 0)
  t.notOk(JSON.stringify(docs).includes(secret))
})

t.test('Redis unreachable: a claim fails fast with 503, never hangs', async (t) => {
  const dead = await connectRequestPathRedis('redis://127.0.0.1:1', 'test', {}, 0)
  t.teardown(() => dead.disconnect())
  // A hang fails the test at this bound; what is awaited is the refusal itself.
  t.setTimeout(30_000)
  await t.rejects(new RedisClaims(dead, prefix).claim('test', 'k', 1000), { code: 'ADKS_SHARED_STATE_UNAVAILABLE', statusCode: 503 })
  await t.rejects(new RedisSignInState(dead, prefix).get('k'), { code: 'ADKS_SHARED_STATE_UNAVAILABLE', statusCode: 503 })
})

const states: Record<string, SignInState> = { memory: new MemorySignInState(), redis: new RedisSignInState(redis, prefix) }
for (const [name, state] of Object.entries(states)) {
  t.test(`${name} sign-in state: values expire, and take hands a value out once`, async (t) => {
    await state.put('a', 'one', 60_000)
    t.equal(await state.get('a'), 'one')
    t.equal(await state.take('a'), 'one')
    t.equal(await state.take('a'), null)
    await state.put('b', 'two', 50)
    await sleep(120)
    t.equal(await state.get('b'), null, 'an AuthnRequest id expires')
  })
}
