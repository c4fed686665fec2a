import t from 'tap'
import { keyClient, narrowedPermissions, searchDepartment, type Answer } from './fixtures.js'

t.test('students are found by admins only; totals never count them for anyone else', async (t) => {
  const { admin, as, ids } = await searchDepartment(t)
  const callers = {
    advisor: as('jnunez@dept.edu', 'faculty'),
    staff: as('sstafford@dept.edu', 'staff'),
    'the student herself': as('gina@dept.edu', 'student'),
    'plain user': as('someone@dept.edu', 'user'),
  }
  for (const [name, inject] of Object.entries(callers)) {
    for (const url of ['/api/search/all?q=gina', '/api/search/people?q=gina', '/api/search/people?q=grad&role=GraduateStudent']) {
      const res = await inject({ method: 'GET', url })
      t.equal(res.statusCode, 200, `${name}: ${url}`)
      t.same(res.json(), { query: new URL(url, 'http://x').searchParams.get('q'), total: 0, results: [] }, `${name} does not find Gina`)
    }
    const under = (await inject({ method: 'GET', url: '/api/search/all?q=under' })).json() as Answer
    t.same([under.total, under.results.map((r) => r._id)], [1, [ids.uma]], `${name}: Una is neither listed nor counted`)
    const everyone = (await inject({ method: 'GET', url: '/api/search/people?q=dept&limit=50' })).json() as Answer
    t.equal(everyone.total, 4, `${name}: four non-students`)
    t.notMatch(JSON.stringify(everyone), /Gina|Una |una@/, `${name}: nothing of a student in the answer`)
  }
  const adminView = (await admin({ method: 'GET', url: '/api/search/all?q=under' })).json() as Answer
  t.same([adminView.total, adminView.results.map((r) => r._id).sort()], [2, [ids.uma, ids.una].sort()])
  const gina = (await admin({ method: 'GET', url: '/api/search/people?q=gina' })).json() as Answer
  t.same(gina.results.map((r) => [r._id, r.detail]), [[ids.gina, 'Graduate student']])
})

t.test('search is not among the endpoints open to API keys, whatever the key holds', async (t) => {
  const { admin, app } = await searchDepartment(t)
  const created = await admin({ method: 'POST', url: '/api/api-keys', payload: { name: 'reads', permissions: ['read_people', 'read_courses', 'read_labs'] } })
  t.equal(created.statusCode, 201)
  const get = await keyClient(app, created.json().key as string)
  t.equal((await get('/api/courses')).statusCode, 200, 'the key itself works where keys are allowed')
  for (const url of ['/api/search/all?q=gina', '/api/search/people?q=gina', '/api/search/courses?q=data', '/api/search/labs?q=graph']) {
    const res = await get(url)
    t.equal(res.statusCode, 403, url)
    t.same(res.json(), { success: false, error: 'Permission denied', statusCode: 403, code: 'ADKS_API_KEY_NOT_ALLOWED' }, `${url}: nothing but the refusal`)
  }
})

t.test('callers see the kinds they may read: /all narrows, the single-kind routes refuse', async (t) => {
  const { as, courses, lab } = await searchDepartment(t)
  const faculty = as('jnunez@dept.edu', 'faculty')
  const holding = (permissions: string) => (url: string) => faculty({ method: 'GET', url, headers: { [narrowedPermissions]: permissions } })
  const ids = (res: { json(): Answer }) => res.json().results.map((r) => r._id)

  t.same(ids(await faculty({ method: 'GET', url: '/api/search/all?q=data' })), [courses.data, lab], 'with every read, both kinds')
  const coursesOnly = holding('read_courses')
  const all = await coursesOnly('/api/search/all?q=data')
  t.equal(all.statusCode, 200)
  t.same([all.json().total, ids(all)], [1, [courses.data]], 'the lab matching "data" is neither listed nor counted')
  t.same((await coursesOnly('/api/search/all?q=jose')).json(), { query: 'jose', total: 0, results: [] }, 'people are left out too')
  for (const [url, needs] of [['/api/search/people?q=jose', 'read_people'], ['/api/search/labs?q=graph', 'read_labs']] as const) {
    const res = await coursesOnly(url)
    t.equal(res.statusCode, 403, url)
    t.equal(res.json().error, `Permission denied: needs ${needs}`)
    t.equal(res.json().code, 'ADKS_PERMISSION_DENIED')
  }
  const labsAndPeople = holding('read_labs,read_people')
  t.same(ids(await labsAndPeople('/api/search/all?q=data')), [lab])
  t.equal(ids(await labsAndPeople('/api/search/all?q=jose')).length, 1)
  t.equal((await labsAndPeople('/api/search/courses?q=data')).statusCode, 403)

  const none = await holding('read_publications')('/api/search/all?q=data')
  t.equal(none.statusCode, 403, 'a caller reading none of the searched kinds is refused')
  t.equal(none.json().error, 'Permission denied: needs one of read_people, read_courses, read_labs')
  t.equal(none.json().code, 'ADKS_PERMISSION_DENIED')
})

t.test('a search after a write on this instance sees the write', async (t) => {
  const { admin, ids } = await searchDepartment(t)
  const found = async (url: string) => ((await admin({ method: 'GET', url })).json() as Answer).results.map((r) => `${r._id} ${r.label} | ${r.detail}`)

  const created = await admin({ method: 'POST', url: '/api/courses', payload: { course_code: 'CS 350', title: 'Quantum Widgets', credits: 3 } })
  t.equal(created.statusCode, 201)
  const id = created.json()._id as string
  t.same(await found('/api/search/courses?q=quantum'), [`${id} CS 350 Quantum Widgets | 3 credits`])

  t.equal((await admin({ method: 'PUT', url: `/api/courses/${encodeURIComponent(id)}`, payload: { title: 'Quantum Gadgets', description: 'Small machines' } })).statusCode, 200)
  t.same(await found('/api/search/courses?q=widgets'), [], 'the old title is gone')
  t.same(await found('/api/search/courses?q=gadgets'), [`${id} CS 350 Quantum Gadgets | Small machines`])

  t.equal((await admin({ method: 'DELETE', url: `/api/courses/${encodeURIComponent(id)}` })).statusCode, 200)
  t.same(await found('/api/search/all?q=quantum'), [])

  t.equal((await admin({ method: 'PUT', url: `/api/people/${encodeURIComponent(ids.sam)}`, payload: { title: 'Lab Manager' } })).statusCode, 200)
  t.same(await found('/api/search/people?q=stafford'), [`${ids.sam} Sam Stafford | Lab Manager`], 'a detail field change shows too')

  const burst = await Promise.all(['Alpha', 'Beta', 'Gamma', 'Delta'].map((word, i) =>
    admin({ method: 'POST', url: '/api/courses', payload: { course_code: `QX ${100 + i}`, title: `Burst ${word}` } })))
  t.ok(burst.every((r) => r.statusCode === 201))
  t.equal(((await admin({ method: 'GET', url: '/api/search/courses?q=burst' })).json() as Answer).total, 4, 'concurrent writes all show')
})
