import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { adapters, courseUrl, department, personUrl } from './department.js'
import { keysUnder, privatePrefix, sharedRedisUrl } from './redis.js'

for (const adapter of adapters) {
  t.test(`${adapter}: the interface's cached reads miss, then hit with the same answer`, async (t) => {
    const { admin, ids } = await department(t, adapter)
    const urls = [
      personUrl(ids.advisor), '/api/people', '/api/people?type=Faculty&search=fay', personUrl(ids.advisor, '/publications'),
      courseUrl(ids.course), '/api/courses', '/api/courses?department=cs', '/api/people/faculty-options',
    ]
    for (const url of urls) {
      const first = await admin({ method: 'GET', url })
      const second = await admin({ method: 'GET', url })
      t.equal(first.statusCode, 200, url)
      t.equal(first.headers['x-cache'], 'miss', `${url} misses first`)
      t.equal(second.headers['x-cache'], 'hit', `${url} hits next`)
      t.equal(second.body, first.body, `${url}: the same body`)
      t.equal(second.headers['content-type'], first.headers['content-type'])
      t.equal(second.headers.etag, first.headers.etag, 'the same etag (or none)')
    }
    t.equal((await admin({ method: 'GET', url: personUrl(ids.advisor) })).headers.etag, '"1"', 'a detail hit carries the record\'s version')
    const options = (await admin({ method: 'GET', url: '/api/people/faculty-options' })).json()
    t.same(options.items, [{ _id: ids.advisor, label: 'Fay Advisor', title: 'Professor' }, { _id: ids.other, label: 'Gus Other' }], 'faculty only, by last name')
  })

  t.test(`${adapter}: keys ignore parameter order, explicit defaults and the id's path form`, async (t) => {
    const { admin, ids } = await department(t, adapter)
    const hit = async (url: string) => (await admin({ method: 'GET', url })).headers['x-cache']
    t.equal(await hit('/api/people?type=Faculty&offset=0'), 'miss')
    t.equal(await hit('/api/people?offset=0&type=Faculty'), 'hit', 'order does not matter')
    t.equal(await hit('/api/people?type=Faculty&limit=50'), 'hit', 'limit=50 is the default')
    t.equal(await hit('/api/people?type=Faculty&limit=49'), 'miss', 'another limit is another answer')
    t.equal(await hit('/api/people?type=Staff'), 'miss', 'another filter value is another answer')
    t.equal(await hit(personUrl(ids.advisor)), 'miss')
    t.equal(await hit(`/api/people/${ids.advisor}`), 'hit', 'the two-segment form of the id is the same record')
    t.equal(await hit(personUrl(ids.other)), 'miss', 'another id is another answer')
  })

  t.test(`${adapter}: uncached routes and failed answers are never stored`, async (t) => {
    const { admin, ids } = await department(t, adapter)
    for (const url of [`/api/publications/${encodeURIComponent(ids.publication)}`, '/api/sections', `/api/courses/${encodeURIComponent(ids.course)}/sections`]) {
      await admin({ method: 'GET', url })
      t.equal((await admin({ method: 'GET', url })).headers['x-cache'], undefined, `${url} is not cached`)
    }
    const missing = personUrl('Faculty/nobody')
    t.equal((await admin({ method: 'GET', url: missing })).statusCode, 404)
    const again = await admin({ method: 'GET', url: missing })
    t.equal(again.statusCode, 404)
    t.equal(again.headers['x-cache'], 'miss', 'a 404 is not stored')
    t.equal((await admin({ method: 'GET', url: '/api/people?limit=500' })).statusCode, 400, 'bad input is still refused')
  })

  t.test(`${adapter}: a header the key leaves out is not reflected in a cached answer`, async (t) => {
    const { admin, ids } = await department(t, adapter)
    const poisoned = await admin({ method: 'GET', url: personUrl(ids.advisor), headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'gopher' } })
    const clean = await admin({ method: 'GET', url: personUrl(ids.advisor) })
    t.equal(clean.headers['x-cache'], 'hit')
    t.notMatch(poisoned.body + clean.body + JSON.stringify(clean.headers), /evil\.example|gopher/)
  })
}

t.test('each route stores its answers for its time to live (24 h, the faculty dropdown 48 h)', async (t) => {
  const { prefix, redis } = await privatePrefix(t)
  // The longest command timeout, so that a busy machine cannot turn the expected hit into a bypass.
  const { as } = await buildTestApp(t, { CACHE_REDIS_URL: sharedRedisUrl, CACHE_KEY_PREFIX: prefix, CACHE_TIMEOUT_MS: '30000' })
  const admin = as('admin@dept.edu', 'admin')
  const created = await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: 'A', last_name: 'B' } })
  /** The entry's time to live, and the whole seconds since it could have been stored, which it may have lost since. */
  const ttlOf = async (url: string, group: string) => {
    const before = new Set(await keysUnder(redis, `${prefix}e:${group}:*`))
    const asked = Date.now()
    t.equal((await admin({ method: 'GET', url })).headers['x-cache'], 'miss', url)
    t.equal((await admin({ method: 'GET', url })).headers['x-cache'], 'hit', url)
    const added = (await keysUnder(redis, `${prefix}e:${group}:*`)).filter((k) => !before.has(k))
    t.equal(added.length, 1, `${url} stored one entry`)
    const ttl = await redis.ttl(added[0]!)
    return { ttl, passed: Math.ceil((Date.now() - asked) / 1000) }
  }
  const day = 86400
  // Bracketed by the time the test took, rather than by a margin a busy machine could exceed.
  const within = ({ ttl, passed }: { ttl: number; passed: number }, expected: number) => ttl >= expected - passed - 1 && ttl <= expected
  for (const url of [personUrl(created.json().id), '/api/people', personUrl(created.json().id, '/publications')]) {
    const ttl = await ttlOf(url, 'people')
    t.ok(within(ttl, day), `${url}: ${ttl.ttl} s`)
  }
  const course = await admin({ method: 'POST', url: '/api/courses', payload: { course_code: 'CS 110', title: 'One' } })
  for (const url of [courseUrl(course.json()._id), '/api/courses']) {
    const ttl = await ttlOf(url, 'courses')
    t.ok(within(ttl, day), `${url}: ${ttl.ttl} s`)
  }
  const dropdown = await ttlOf('/api/people/faculty-options', 'people')
  t.ok(within(dropdown, 2 * day), `faculty-options: ${dropdown.ttl} s`)
})

t.test('CACHE=off serves everything uncached', async (t) => {
  const { prefix, redis } = await privatePrefix(t)
  const { as } = await buildTestApp(t, { CACHE: 'off', CACHE_REDIS_URL: sharedRedisUrl, CACHE_KEY_PREFIX: prefix })
  const admin = as('admin@dept.edu', 'admin')
  const created = await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: 'A', last_name: 'B' } })
  for (let i = 0; i < 2; i++) {
    const res = await admin({ method: 'GET', url: personUrl(created.json().id) })
    t.equal(res.statusCode, 200)
    t.equal(res.headers['x-cache'], undefined, 'no cache header')
  }
  t.same(await keysUnder(redis, `${prefix}*`), [], 'nothing written to Redis')
  t.same((await admin({ method: 'GET', url: '/api/admin/cache/stats' })).json(), { keys: 0, memory: '0 B' })
})
