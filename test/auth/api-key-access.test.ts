import t from 'tap'
import { keyGrantable } from '../../src/auth/api-keys/service.js'
import type { Permission } from '../../src/auth/permissions.js'
import { buildTestApp } from '../helpers/app.js'
import { listen, routeRecorder, sampleUrl, send } from './support.js'

/** The spec's "Catalog endpoints open to API keys", with the permission each is under (docs/auth.md, "Permissions, roles and groups"). */
const catalog: ReadonlyArray<{ route: string; permission: Permission }> = [
  { route: '/api/courses', permission: 'read_courses' },
  { route: '/api/people', permission: 'read_people' },
  { route: '/api/people/:id', permission: 'read_people' },
  { route: '/api/labs', permission: 'read_labs' },
  { route: '/api/publications', permission: 'read_publications' },
  { route: '/api/research-centers', permission: 'read_labs' },
  { route: '/api/resources', permission: 'read_resources' },
  { route: '/api/degrees', permission: 'read_courses' },
]
const reads: Permission[] = ['read_people', 'read_courses', 'read_publications', 'read_labs', 'read_resources']

/** Creates and updates of the catalog resources whose records are all public, under their write permission (docs/auth.md, "API keys"). */
const catalogWrites: ReadonlyArray<{ route: string; permission: Permission }> = [
  { route: '/api/courses', permission: 'write_courses' },
  { route: '/api/degrees', permission: 'write_courses' },
  { route: '/api/labs', permission: 'write_labs' },
  { route: '/api/publications', permission: 'write_publications' },
  { route: '/api/research-centers', permission: 'write_labs' },
  { route: '/api/resources', permission: 'write_resources' },
]

t.test('only the spec\'s catalog reads and the catalog writes are open to keys, each under its permission', async (t) => {
  const recorder = routeRecorder()
  const { app, as } = await buildTestApp(t, {}, { plugins: [recorder.plugin] })
  const port = await listen(app)
  const admin = as('admin@dept.example.edu', 'admin')
  const faculty = as('ada@dept.example.edu', 'faculty')

  const keyOpen = recorder.routes.filter((r) => r.policy?.kind === 'permission' && r.policy.apiKeys).map((r) => `${r.method} ${r.url}`)
  const expected = [
    ...catalog.flatMap((c) => [`GET ${c.route}`, `HEAD ${c.route}`]),
    // A record's history is open to keys exactly where its detail is (docs/history.md).
    ...catalog.filter((c) => c.route.endsWith('/:id')).flatMap((c) => [`GET ${c.route}/history`, `HEAD ${c.route}/history`]),
    ...catalogWrites.flatMap((c) => [`POST ${c.route}`, `PUT ${c.route}/:id`]),
  ]
  t.same(keyOpen.sort(), expected.sort(), 'the key-open routes are exactly the spec\'s reads and the catalog creates and updates')
  for (const { route, permission } of catalog) {
    const declared = recorder.routes.find((r) => r.method === 'GET' && r.url === route)?.policy
    t.same(declared, { kind: 'permission', permission, apiKeys: true }, `${route} is under ${permission}`)
  }
  for (const { route, permission } of catalogWrites) {
    for (const [method, url] of [['POST', route], ['PUT', `${route}/:id`]] as const) {
      const declared = recorder.routes.find((r) => r.method === method && r.url === url)?.policy
      t.same(declared, { kind: 'permission', permission, apiKeys: true }, `${method} ${url} is under ${permission}`)
    }
  }
  t.same(keyGrantable(app.schema), [...reads, 'write_courses', 'write_publications', 'write_labs', 'write_resources'],
    'a key may be granted the permissions that open these routes, and no other')

  const create = async (url: string, payload: object) => {
    const res = await admin({ method: 'POST', url, payload })
    t.equal(res.statusCode, 201, `seed ${url}`)
    return res.json()
  }
  const facultyId = (await create('/api/people', { type: 'Faculty', first_name: 'Ada', last_name: 'Lovelace' })).id
  await create('/api/people', { type: 'Staff', first_name: 'Sid', last_name: 'Staffer' })
  await create('/api/courses', { course_code: 'CS 101', title: 'Programming' })
  await create('/api/degrees', { name: 'Computer Science', degree_type: 'BS' })
  await create('/api/labs', { name: 'Systems Lab', pi: facultyId })
  await create('/api/research-centers', { name: 'Center for Computing' })
  await create('/api/resources', { name: 'Cluster', resource_type: 'computing' })
  await create('/api/publications', { title: 'On Engines' })

  const keyWith = async (granted: Permission[]) => (await faculty({ method: 'POST', url: '/api/api-keys', payload: { name: granted.join(' '), permissions: granted } })).json().key as string
  for (const { route, permission } of catalog) {
    const url = route === '/api/people/:id' ? `/api/people/${encodeURIComponent(facultyId)}` : route === '/api/people' ? '/api/people?type=Faculty' : route
    const allowed = await send(port, 'GET', url, { 'X-API-Key': await keyWith([permission]) })
    t.equal(allowed.status, 200, `${url} with ${permission}`)
    if (route === '/api/people/:id') t.equal(allowed.json()._id, facultyId)
    else t.ok(allowed.json().total >= 1, `${url} returns records`)
    if (route === '/api/people') t.same(allowed.json().items.map((p: { type: string }) => p.type), ['Faculty'], 'the type filter applies')

    const denied = await send(port, 'GET', url, { 'X-API-Key': await keyWith(reads.filter((p) => p !== permission)) })
    t.equal(denied.status, 403, `${url} without ${permission}`)
    t.same(denied.json(), { success: false, error: 'Permission denied', statusCode: 403, code: 'ADKS_PERMISSION_DENIED' })
  }
})

t.test('a key holding every permission a key can hold is refused everywhere outside the catalog reads and writes', async (t) => {
  const recorder = routeRecorder()
  const { app, as } = await buildTestApp(t, {}, { plugins: [recorder.plugin] })
  const port = await listen(app)
  const admin = as('admin@dept.example.edu', 'admin')
  const created = await admin({ method: 'POST', url: '/api/api-keys', payload: { name: 'everything', permissions: keyGrantable(app.schema) } })
  t.equal(created.statusCode, 201)
  const key = created.json().key as string

  let refused = 0
  for (const { method, url, policy } of recorder.routes) {
    if (!policy || policy.kind === 'public') continue
    const res = await send(port, method, sampleUrl(url), { 'X-API-Key': key })
    if (policy.kind === 'permission' && policy.apiKeys) {
      t.ok(res.status < 500 && res.status !== 401 && res.status !== 403, `${method} ${url} is open to the key (${res.status})`)
      continue
    }
    refused++
    t.equal(res.status, 403, `${method} ${url}`)
    if (method !== 'HEAD') t.equal(res.json().error, 'Permission denied', `${method} ${url} message`)
    if (method !== 'HEAD') t.equal(res.json().code, 'ADKS_API_KEY_NOT_ALLOWED', `${method} ${url} code`)
  }
  t.ok(refused > 50, `${refused} routes refused`)

  const people = await send(port, 'POST', '/api/people', { 'X-API-Key': key }, { type: 'Faculty', first_name: 'Kay', last_name: 'Key' })
  t.equal(people.status, 403, 'a key cannot write people, whose records are not all public')
  const mint = await send(port, 'POST', '/api/api-keys', { 'X-API-Key': key }, { name: 'child', permissions: ['read_people'] })
  t.equal(mint.status, 403, 'a key cannot make keys')
  t.equal((await admin({ method: 'GET', url: '/api/people' })).json().total, 0, 'no person was written')
  t.equal((await admin({ method: 'GET', url: '/api/api-keys' })).json().total, 1, 'no key was made')
})
