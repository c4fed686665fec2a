import t from 'tap'
import { searchDepartment, type Answer } from './fixtures.js'

t.test('one answer shape, ranked, across people, courses and labs', async (t) => {
  const { admin, ids, courses, lab } = await searchDepartment(t)
  const res = await admin({ method: 'GET', url: '/api/search/all?q=data' })
  t.equal(res.statusCode, 200)
  const body = res.json() as Answer
  t.same(Object.keys(body).sort(), ['query', 'results', 'total'])
  t.equal(body.query, 'data')
  t.same(body.results.map((r) => r._id), [courses.data, lab], 'a title above a description; course descriptions are not searched')
  t.equal(body.total, 2)
  t.same(Object.keys(body.results[0]!).sort(), ['_id', 'detail', 'kind', 'label', 'score'])
  t.same(body.results[0], { kind: 'course', _id: courses.data, label: 'CS 201 Data Structures', detail: '4 credits', score: 1 })
  t.equal(body.results[1]!.kind, 'lab')
  t.match(body.results[1]!.detail, /^Studies large graphs/)

  const jose = (await admin({ method: 'GET', url: '/api/search/all?q=JOSE%20nu' })).json() as Answer
  t.same(jose.results.map((r) => [r.kind, r._id, r.label, r.detail]), [['person', ids.jose, 'José Núñez', 'Associate Professor']])
  const muller = (await admin({ method: 'GET', url: '/api/search/people?q=muller' })).json() as Answer
  t.same(muller.results.map((r) => r.label), ['Anna Müller'])
  t.same((await admin({ method: 'GET', url: '/api/search/courses?q=cs101' })).json().results.map((r: { _id: string }) => r._id), [courses.intro])
  t.same((await admin({ method: 'GET', url: '/api/search/courses?q=strucutres' })).json().results.map((r: { _id: string }) => r._id), [courses.data], 'a swapped pair forgiven')
  t.same((await admin({ method: 'GET', url: '/api/search/labs?q=mining' })).json().results.map((r: { _id: string }) => r._id), [lab])
  t.same((await admin({ method: 'GET', url: '/api/search/labs?q=data%20structures' })).json().results.map((r: { _id: string }) => r._id), [lab], 'only labs on /labs')
})

t.test('query validation: 2 to 200 characters, limit 1 to 50, known role, nothing else', async (t) => {
  const { admin } = await searchDepartment(t)
  const refused: [string, RegExp][] = [
    ['/api/search/all?q=a', /'q'/],
    ['/api/search/all?q=%20a%20%20', /'q' must have at least 2 characters/],
    ['/api/search/all', /'q' is required/],
    ['/api/search/all?q=', /'q'/],
    ['/api/search/people?q=ab&limit=0', /'limit'/],
    ['/api/search/people?q=ab&limit=51', /'limit'/],
    ['/api/search/people?q=ab&limit=ten', /'limit'/],
    ['/api/search/people?q=ab&role=Wizard', /'role' must be one of: .*Faculty/],
    ['/api/search/courses?q=ab&role=Faculty', /unknown parameter 'role'/],
    ['/api/search/all?q=ab&q=cd', /'q'/],
    ['/api/search/all?q[$ne]=1', /'q\[\$ne\]'|'q'/],
    [`/api/search/all?q=${'x'.repeat(10 * 1024)}`, /'q'/],
    [`/api/search/all?q=${'x'.repeat(201)}`, /'q'/],
  ]
  for (const [url, message] of refused) {
    const res = await admin({ method: 'GET', url })
    t.equal(res.statusCode, 400, url.slice(0, 60))
    t.match(res.json().error, message, url.slice(0, 60))
    t.equal(res.json().code, 'ADKS_VALIDATION_FAILED', url.slice(0, 60))
  }
  t.equal((await admin({ method: 'GET', url: `/api/search/all?q=${'x'.repeat(200)}` })).statusCode, 200, '200 characters is allowed')
  t.equal((await admin({ method: 'GET', url: '/api/search/all?q=%20ab%20' })).json().query, 'ab', 'spaces around are trimmed')
})

t.test('regex, operator and quote text in q are searched as plain words, never an error', async (t) => {
  const { admin, courses } = await searchDepartment(t)
  const texts = ['{"$ne":1}', '.*', '(a+)+$', '$where', "'; drop table --", '[a-z]*', '\\u0000', 'a|b|c', '%00', '^cs.*']
  for (const text of texts) {
    const res = await admin({ method: 'GET', url: `/api/search/all?q=${encodeURIComponent(text)}` })
    t.equal(res.statusCode, 200, text)
    const body = res.json() as Answer
    t.equal(body.query, text.trim())
    t.ok(body.results.every((r) => r.score > 0), `${text}: only real matches`)
  }
  const all = (await admin({ method: 'GET', url: `/api/search/all?q=${encodeURIComponent('.*')}` })).json() as Answer
  t.equal(all.total, 0, '".*" matches nothing rather than everything')
  const caret = (await admin({ method: 'GET', url: `/api/search/courses?q=${encodeURIComponent('^cs.*')}` })).json() as Answer
  t.same(caret.results.map((r) => r._id).sort(), [courses.intro, courses.data].sort(), '"^cs.*" is the word cs')
})

t.test('limit bounds the results, never the total', async (t) => {
  const { admin } = await searchDepartment(t)
  const all = (await admin({ method: 'GET', url: '/api/search/all?q=dept' })).json() as Answer
  t.equal(all.total, 6, 'every person, by their email')
  t.equal(all.results.length, 6)
  const one = (await admin({ method: 'GET', url: '/api/search/all?q=dept&limit=1' })).json() as Answer
  t.equal(one.total, 6)
  t.same(one.results, all.results.slice(0, 1))
  const ten = (await admin({ method: 'GET', url: '/api/search/people?q=dept' })).json() as Answer
  t.equal(ten.results.length, 6, 'the default limit is 10')
})

t.test('role keeps people of one type (a type and its subtypes)', async (t) => {
  const { admin, as, ids } = await searchDepartment(t)
  const found = async (inject: typeof admin, query: string) => {
    const body = (await inject({ method: 'GET', url: `/api/search/people?${query}` })).json() as Answer
    return { ids: body.results.map((r) => r._id).sort(), total: body.total }
  }
  t.same(await found(admin, 'q=un'), { ids: [ids.uma, ids.una].sort(), total: 2 })
  t.same(await found(admin, 'q=un&role=Faculty'), { ids: [ids.uma], total: 1 })
  t.same(await found(admin, 'q=un&role=Student'), { ids: [ids.una], total: 1 })
  t.same(await found(admin, 'q=dept&role=GraduateStudent'), { ids: [ids.gina], total: 1 })
  t.same(await found(admin, 'q=dept&role=Staff'), { ids: [ids.sam], total: 1 })
  const faculty = as('jnunez@dept.edu', 'faculty')
  t.same(await found(faculty, 'q=dept&role=GraduateStudent'), { ids: [], total: 0 }, 'a role does not bring students back')
  t.same(await found(faculty, 'q=un&role=Student'), { ids: [], total: 0 })
})

