import t from 'tap'
import type { Principal } from '../../src/auth/principal.js'
import { PrincipalCache, principalSources } from '../../src/auth/principal-cache.js'
import { unheardMaxAgeMs, WriteNotices } from '../../src/cluster/write-notices.js'

const principal: Principal = { kind: 'user', userId: 'User/a', email: 'a@x.edu', role: 'faculty', permissions: new Set(), groups: [] }

function counter() {
  const counts = new Map<string, number>()
  return { of: (name: string) => counts.get(name) ?? 0, bump: (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1) }
}

t.test('a principal is reused until a source collection is written', async (t) => {
  const counts = counter()
  const cache = new PrincipalCache(counts, () => 1000)
  cache.set('bearer x', principal, cache.stamp(), 5000)
  t.equal(cache.get('bearer x'), principal)
  counts.bump('courses')
  t.equal(cache.get('bearer x'), principal, 'a write elsewhere changes nothing')
  for (const source of principalSources) {
    cache.set('bearer x', principal, cache.stamp(), 5000)
    counts.bump(source)
    t.equal(cache.get('bearer x'), undefined, `a write to ${source} drops it`)
  }
})

t.test('a principal built while a source was being written is not reused after the write', async (t) => {
  const counts = counter()
  const cache = new PrincipalCache(counts, () => 1000)
  const stamp = cache.stamp()
  counts.bump('groups')
  cache.set('bearer x', principal, stamp, 5000)
  t.equal(cache.get('bearer x'), undefined)
})

t.test('never past the credential\'s own expiry', async (t) => {
  let now = 1000
  const cache = new PrincipalCache(counter(), () => now)
  cache.set('key k', principal, cache.stamp(), 2000)
  t.equal(cache.get('key k'), principal)
  now = 2000
  t.equal(cache.get('key k'), undefined)
})

t.test('without write counts (a shared store) nothing is cached', async (t) => {
  const cache = new PrincipalCache(undefined)
  cache.set('bearer x', principal, cache.stamp(), Date.now() + 60_000)
  t.equal(cache.get('bearer x'), undefined)
})

t.test('the credential asked about last is remembered apart from the others, and dropped like them', async (t) => {
  let now = 1000
  const counts = counter()
  const cache = new PrincipalCache(counts, () => now)
  const other: Principal = { ...principal, userId: 'User/b' }
  cache.set('bearer a', principal, cache.stamp(), 5000)
  cache.set('bearer b', other, cache.stamp(), 3000)
  t.equal(cache.get('bearer a'), principal)
  t.equal(cache.get('bearer b'), other, 'another credential is not answered with the last one')
  t.equal(cache.get('bearer b'), other)
  t.equal(cache.get('bearer a'), principal)
  t.equal(cache.get('bearer c'), undefined)
  now = 3000
  t.equal(cache.get('bearer b'), undefined, 'the last one expires like any')
  t.equal(cache.get('bearer a'), principal)
  counts.bump('users')
  t.equal(cache.get('bearer a'), undefined, 'and a write drops it')
})

t.test('while other instances\' writes may go unheard, a principal is served for the counts\' short age at most', async (t) => {
  let now = 1000
  let hearing = true
  const notices = new WriteNotices(() => hearing)
  const cache = new PrincipalCache(notices, () => now)
  cache.set('bearer x', principal, cache.stamp(), 60_000)
  now += 30_000
  t.equal(cache.get('bearer x'), principal, 'while every write is heard of, only a write ends it')
  hearing = false
  t.equal(cache.get('bearer x'), undefined, 'once notices may be missed, an entry older than the short age is dropped')
  cache.set('bearer x', principal, cache.stamp(), 60_000)
  now += unheardMaxAgeMs - 1
  t.equal(cache.get('bearer x'), principal, 'one built meanwhile is served within the short age')
  now += 1
  t.equal(cache.get('bearer x'), undefined, 'and not beyond it')
  hearing = true
  cache.set('bearer x', principal, cache.stamp(), 60_000)
  notices.heard({ collection: 'users', ids: ['User/a'] })
  t.equal(cache.get('bearer x'), undefined, 'another instance\'s write to a source drops it')
  cache.set('bearer x', principal, cache.stamp(), 60_000)
  notices.missed()
  t.equal(cache.get('bearer x'), undefined, 'so does a gap in the notices')
})
