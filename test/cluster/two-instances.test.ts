import t, { type Test } from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { eventually, mongoUrl, ownRedis, twoInstances, type Instance, type TwoInstances } from './support.js'

const enc = encodeURIComponent
/** Generous bound for what must happen within the short expiry (two seconds, after 1.5 s of silence). */
const shortExpiryBoundMs = 30_000

interface People {
  readonly admin: string
  readonly ada: string
  readonly fay: string
}

async function people(cluster: TwoInstances, t: Test): Promise<People> {
  const found = {
    admin: await cluster.token('admin@cluster.edu', 'admin'),
    ada: await cluster.token('ada@cluster.edu', 'faculty'),
    fay: await cluster.token('fay@cluster.edu', 'faculty'),
  }
  // Each user is created by their first request, on A.
  for (const token of Object.values(found)) t.equal((await cluster.a.call('GET', '/api/auth/me', token)).status, 200)
  return found
}

async function createPerson(on: Instance, admin: string, body: object): Promise<string> {
  const res = await on.call('POST', '/api/people', admin, body)
  if (res.status !== 201) throw new Error(`creating a person: ${res.status} ${JSON.stringify(res.json)}`)
  return res.json.id as string
}

const mongo = mongoUrl(t)

const found = (answer: { json: any }, id: string) => (answer.json?.results ?? []).some((r: { _id: string }) => r._id === id)

t.test('with Redis: a write through A is read, searched and obeyed through B', async (t) => {
  const cluster = await twoInstances(t, await mongo, process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')
  const { a, b } = cluster
  const { admin, ada, fay } = await people(cluster, t)

  t.test('reads: at once, by id and in lists, though B had cached the answers before', async (t) => {
    const before = await b.call('GET', '/api/people', admin)
    t.equal(before.status, 200)
    t.equal((await b.call('GET', '/api/people', admin)).status, 200, 'the list is cached on B')
    const id = await createPerson(a, admin, { type: 'Faculty', first_name: 'Zelda', last_name: 'Quintrell', email: 'zelda@cluster.edu' })
    const byId = await b.call('GET', `/api/people/${enc(id)}`, admin)
    t.equal(byId.status, 200)
    t.equal(byId.json.last_name, 'Quintrell')
    const list = await b.call('GET', '/api/people', admin)
    t.ok(JSON.stringify(list.json).includes(id), 'the list on B holds the new person')
    t.equal((await a.call('PUT', `/api/people/${enc(id)}`, admin, { last_name: 'Quintrell-Oyelaran' })).status, 200)
    t.equal((await b.call('GET', `/api/people/${enc(id)}`, admin)).json.last_name, 'Quintrell-Oyelaran', 'an update, at once')
  })

  t.test('search: found on B once the write through A is announced', async (t) => {
    const query = '/api/search/people?q=Vorontsova'
    t.equal((await b.call('GET', query, admin)).json.total, 0, 'nobody by that name yet')
    const id = await createPerson(a, admin, { type: 'Faculty', first_name: 'Irina', last_name: 'Vorontsova', email: 'irina@cluster.edu' })
    t.ok(await eventually(30_000, async () => found(await b.call('GET', query, admin), id)), 'found on B')
    t.equal((await a.call('DELETE', `/api/people/${enc(id)}`, admin)).status, 200)
    t.ok(await eventually(30_000, async () => !found(await b.call('GET', query, admin), id)), 'and gone once it is deleted')
  })

  t.test('a role change through A counts on B\'s next request', async (t) => {
    const adaId = userIdForEmail('ada@cluster.edu')
    for (const round of ['first', 'again, from B\'s principal cache']) t.equal((await b.call('GET', '/api/users', ada)).status, 403, round)
    t.equal((await a.call('PUT', `/api/users/${enc(adaId)}`, admin, { role: 'admin' })).status, 200)
    t.equal((await b.call('GET', '/api/users', ada)).status, 200, 'promoted: admitted on B at once')
    t.equal((await a.call('PUT', `/api/users/${enc(adaId)}`, admin, { role: 'faculty' })).status, 200)
    t.equal((await b.call('GET', '/api/users', ada)).status, 403, 'demoted: refused on B at once')
  })

  t.test('a group change through A counts on B\'s next request', async (t) => {
    for (const round of ['first', 'again']) t.equal((await b.call('GET', '/api/admin/jobs', fay)).status, 403, round)
    const group = await a.call('POST', '/api/groups', admin, { name: 'Operators', permissions: ['manage_jobs'], members: [userIdForEmail('fay@cluster.edu')] })
    t.equal(group.status, 201)
    t.equal((await b.call('GET', '/api/admin/jobs', fay)).status, 200, 'a member: admitted on B at once')
    t.equal((await a.call('PUT', `/api/groups/${enc(group.json._id)}`, admin, { members: [] })).status, 200)
    t.equal((await b.call('GET', '/api/admin/jobs', fay)).status, 403, 'left the group: refused on B at once')
  })

  t.test('a key revoked through A is refused on B\'s next request', async (t) => {
    const created = await a.call('POST', '/api/api-keys', ada, { name: 'Site', permissions: ['read_people'] })
    t.equal(created.status, 201)
    const key = { key: created.json.key as string }
    for (const round of ['first', 'again']) t.equal((await b.call('GET', '/api/people', key)).status, 200, round)
    t.equal((await a.call('POST', `/api/api-keys/${enc(created.json.id)}/revoke`, ada)).status, 200)
    t.equal((await b.call('GET', '/api/people', key)).status, 401, 'revoked: refused on B at once')
  })

  t.test('an advisor change through A counts on B\'s next request', async (t) => {
    const advisor = await createPerson(a, admin, { type: 'Faculty', first_name: 'Fay', last_name: 'Advisor', email: 'fay@cluster.edu' })
    const gina = await createPerson(a, admin, { type: 'GraduateStudent', first_name: 'Gina', last_name: 'Grad', email: 'gina@cluster.edu' })
    const read = () => b.call('GET', `/api/people/${enc(gina)}`, fay)
    for (const round of ['first', 'again']) t.not((await read()).status, 200, `${round}: not her advisee`)
    t.equal((await a.call('PUT', `/api/people/${enc(gina)}`, admin, { advisors: [advisor] })).status, 200)
    t.equal((await read()).status, 200, 'her advisee now: readable on B at once')
    t.equal((await a.call('PUT', `/api/people/${enc(gina)}`, admin, { advisors: [] })).status, 200)
    t.not((await read()).status, 200, 'no longer: refused on B at once')
  })
})

t.test('with Redis stopped: B holds no access decision past the short expiry, and hears again once it is back', async (t) => {
  const redis = await ownRedis(t)
  const cluster = await twoInstances(t, await mongo, redis.url)
  const { a, b } = cluster
  const { admin, ada } = await people(cluster, t)
  const created = await a.call('POST', '/api/api-keys', ada, { name: 'Site', permissions: ['read_people'] })
  const key = { key: created.json.key as string }
  const adaId = userIdForEmail('ada@cluster.edu')
  for (const round of ['first', 'again']) {
    t.equal((await b.call('GET', '/api/people', key)).status, 200, `${round}: the key works on B`)
    t.equal((await b.call('GET', '/api/users', ada)).status, 403, `${round}: Ada is no admin on B`)
  }

  redis.pause()
  t.teardown(() => redis.resume())
  t.equal((await a.call('POST', `/api/api-keys/${enc(created.json.id)}/revoke`, ada)).status, 200, 'A revokes the key, Redis or not')
  t.equal((await a.call('PUT', `/api/users/${enc(adaId)}`, admin, { role: 'admin' })).status, 200, 'and promotes Ada')
  t.ok(await eventually(shortExpiryBoundMs, async () => (await b.call('GET', '/api/people', key)).status === 401), 'B refuses the revoked key within the short expiry')
  t.ok(await eventually(shortExpiryBoundMs, async () => (await b.call('GET', '/api/users', ada)).status === 200), 'B admits Ada as admin within the short expiry')

  redis.resume()
  // Back to hearing: the listener's pings are answered again within a second or two.
  await new Promise((resolve) => setTimeout(resolve, 3000))
  for (const round of ['first', 'again']) t.equal((await b.call('GET', '/api/users', ada)).status, 200, `${round}: still admin on B`)
  t.equal((await a.call('PUT', `/api/users/${enc(adaId)}`, admin, { role: 'faculty' })).status, 200)
  t.equal((await b.call('GET', '/api/users', ada)).status, 403, 'with Redis back, a demotion through A counts on B\'s next request')
})

t.test('on MongoDB with no Redis at all: no answer on B is older than a few seconds', async (t) => {
  const cluster = await twoInstances(t, await mongo)
  const { a, b } = cluster
  const { admin, ada } = await people(cluster, t)
  const id = await createPerson(a, admin, { type: 'Faculty', first_name: 'Oskar', last_name: 'Lindqvist', email: 'oskar@cluster.edu' })
  for (const round of ['first', 'again, from B\'s response cache']) {
    t.equal((await b.call('GET', `/api/people/${enc(id)}`, admin)).json.last_name, 'Lindqvist', round)
  }
  t.equal((await a.call('PUT', `/api/people/${enc(id)}`, admin, { last_name: 'Lindqvist-Berg' })).status, 200)
  t.ok(await eventually(shortExpiryBoundMs, async () => (await b.call('GET', `/api/people/${enc(id)}`, admin)).json.last_name === 'Lindqvist-Berg'),
    'B answers with the update within a few seconds, not from a day-long cache')

  const query = '/api/search/people?q=Tchaikovskaya'
  t.equal((await b.call('GET', query, admin)).json.total, 0)
  const found2 = await createPerson(a, admin, { type: 'Faculty', first_name: 'Vera', last_name: 'Tchaikovskaya', email: 'vera@cluster.edu' })
  t.ok(await eventually(shortExpiryBoundMs, async () => found(await b.call('GET', query, admin), found2)), 'B\'s search finds her within a few seconds')

  const created = await a.call('POST', '/api/api-keys', ada, { name: 'Site', permissions: ['read_people'] })
  const key = { key: created.json.key as string }
  for (const round of ['first', 'again']) t.equal((await b.call('GET', '/api/people', key)).status, 200, round)
  t.equal((await a.call('POST', `/api/api-keys/${enc(created.json.id)}/revoke`, ada)).status, 200)
  t.ok(await eventually(shortExpiryBoundMs, async () => (await b.call('GET', '/api/people', key)).status === 401), 'B refuses the revoked key within a few seconds')
})
