import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import type { Inject } from '../helpers/records.js'

async function ids(inject: Inject, url: string): Promise<string[]> {
  const answer = await inject({ method: 'GET', url })
  if (answer.statusCode !== 200) throw new Error(`GET ${url}: ${answer.statusCode} ${answer.body}`)
  return answer.json().items.map((item: { _id: string }) => item._id)
}

async function post(inject: Inject, url: string, payload: Record<string, unknown>): Promise<string> {
  const answer = await inject({ method: 'POST', url, payload })
  if (answer.statusCode !== 201) throw new Error(`POST ${url}: ${answer.statusCode} ${answer.body}`)
  return answer.json().id ?? answer.json()._id
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

t.test('people: type filter and accent-, case-insensitive word-prefix search', async (t) => {
  const { as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  // Students are listed to admins only (test/privacy/people-rules.test.ts); the search is the point here.
  const reader = admin
  const person = (type: string, first_name: string, last_name: string, extra: Record<string, unknown> = {}) =>
    post(admin, '/api/people', { type, first_name, last_name, ...extra })
  const emile = await person('Faculty', 'Émile', 'Zola', { email: 'ezola@dept.edu' })
  const jose = await person('Faculty', 'José', 'Álvarez-Núñez')
  const grace = await person('Staff', 'Grace', 'Hopper')
  const alan = await person('GraduateStudent', 'Alan', 'Turing')
  const emily = await person('UndergraduateStudent', 'Emily', 'Zolam')

  const search = (q: string, rest = '') => ids(reader, `/api/people?search=${encodeURIComponent(q)}${rest}`)
  t.same(await search('emile'), [emile], 'unaccented query finds the accented name')
  t.same(await search('ÉMILE'), [emile], 'case does not matter')
  t.same(await search('zol'), [emile, emily], 'word prefix')
  t.same(await search('ola'), [], 'not a substring inside a word')
  t.same(await search('emile zola'), [emile], 'every word must match')
  t.same(await search('zola emile'), [emile], 'in any order')
  t.same(await search('emile hopper'), [], 'a word matching nobody empties the list')
  t.same(await search('nunez'), [jose], 'a hyphenated accented last name is split into words')
  t.same(await search('alvarez-nunez'), [jose])
  t.same(await search('ezola'), [emile], 'email words are searched')

  const faculty = await ids(reader, '/api/people?type=Faculty&limit=200')
  t.same([...faculty].sort(byId), [emile, jose].sort(byId), 'type=Faculty keeps faculty only')
  t.same(await ids(reader, '/api/people?type=Staff'), [grace])
  t.same((await ids(reader, '/api/people?type=Student')).sort(byId), [alan, emily].sort(byId), 'an abstract type means every kind under it')
  t.same(await search('zol', '&type=Faculty'), [emile], 'type and search combine')
  t.same(await ids(reader, '/api/people?type=Faculty&search='), await ids(reader, '/api/people?type=Faculty'), 'an empty search filters nothing')
})

t.test('people: sort both ways with ties broken by id, and paging', async (t) => {
  const { as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const made: { id: string; first: string; last: string }[] = []
  for (const [first, last] of [['Cy', 'Smith'], ['Ada', 'Smith'], ['Bo', 'Jones'], ['Ada', 'Smith'], ['Di', 'Adams'], ['Ed', 'Smith']] as const) {
    made.push({ id: await post(admin, '/api/people', { type: 'Staff', first_name: first, last_name: last }), first, last })
  }
  const order = (fields: [keyof (typeof made)[number], 1 | -1][]) => [...made].sort((a, b) => {
    for (const [field, direction] of fields) if (a[field] !== b[field]) return a[field] < b[field] ? -direction : direction
    return byId(a.id, b.id)
  }).map((p) => p.id)

  t.same(await ids(admin, '/api/people?sort=last_name'), order([['last', 1]]), 'ascending, ties by id')
  t.same(await ids(admin, '/api/people?sort=-last_name'), order([['last', -1]]), 'descending, ties still by id')
  t.same(await ids(admin, '/api/people?sort=last_name,-first_name'), order([['last', 1], ['first', -1]]), 'a second field breaks ties')
  t.same(await ids(admin, '/api/people'), order([['last', 1], ['first', 1]]), 'default sort')

  const expected = order([['last', -1], ['first', 1]])
  const pages = [0, 2, 4].map((offset) => admin({ method: 'GET', url: `/api/people?sort=-last_name,first_name&limit=2&offset=${offset}` }))
  const answers = (await Promise.all(pages)).map((a) => a.json())
  t.same(answers.map((a) => a.items.map((i: { _id: string }) => i._id)), [expected.slice(0, 2), expected.slice(2, 4), expected.slice(4, 6)])
  t.same(answers.map((a) => [a.total, a.limit, a.offset]), [[6, 2, 0], [6, 2, 2], [6, 2, 4]])
  const last = (await admin({ method: 'GET', url: '/api/people?limit=4&offset=4' })).json()
  t.same([last.items.length, last.total], [2, 6], 'the last page holds the rest')
})

t.test('courses: department, term (through sections) and search', async (t) => {
  const { as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const reader = as('reader@dept.edu', 'faculty')
  const course = (course_code: string, title: string, credits?: number) => post(admin, '/api/courses', { course_code, title, ...(credits ? { credits } : {}) })
  const cs101 = await course('CS 101', 'Introduction to Programming', 4)
  const cs201 = await course('CS 201', 'Data Structures', 4)
  const cs350 = await course('cs350', 'Operating Systems', 3)
  const cse310 = await course('CSE 310', 'Embedded Systems', 3)
  const math101 = await course('MATH 101', 'Calculus I', 5)
  const section = (course: string, term: string, section_number: string) => post(admin, '/api/sections', { course, term, section_number })
  await section(cs101, '25F', '01')
  await section(cs101, '25F', '02')
  await section(cs101, '26S', '01')
  await section(cs201, '26S', '01')
  await section(math101, '25F', '01')
  await section(cse310, '24F', '01')

  const courses = (query: string) => ids(reader, `/api/courses?${query}`)
  t.same(await courses('department=cs'), [cs101, cs201, cs350], 'cs matches CS 101 and cs350, not CSE 310')
  t.same(await courses('department=CSE'), [cse310])
  t.same(await courses('department=Math'), [math101])
  t.same(await courses('department=EE'), [])
  t.same(await courses('term=25F'), [cs101, math101], 'a course with two sections in the term is listed once')
  t.same(await courses('term=26S'), [cs101, cs201])
  t.same(await courses('term=23W'), [], 'a term without sections gives nothing')
  t.same(await courses('term=25F&department=cs'), [cs101], 'term and department combine')
  t.same(await courses('level=100'), [cs101, math101], '100-level: numbers 100 to 199')
  t.same(await courses('level=300'), [cse310, cs350], 'cs350 is 300-level, spelled as it is; in course code order')
  t.same(await courses('level=300&department=CS'), [cs350], 'level and department combine')
  t.same(await courses('level=900'), [])
  const page = (await reader({ method: 'GET', url: '/api/courses?term=25F&limit=1' })).json()
  t.same([page.items.length, page.total], [1, 2], 'the term filter counts courses, not sections')

  t.same(await courses('search=cs101'), [cs101], 'a code without its space')
  t.same(await courses(`search=${encodeURIComponent('CS 101')}`), [cs101], 'a code with its space')
  t.same(await courses('search=101'), [cs101, math101], 'the number alone')
  t.same(await courses('search=struct'), [cs201], 'a word prefix of the title')
  t.same((await courses('search=systems')).sort(byId), [cs350, cse310].sort(byId), 'title words')
  t.same(await courses('search=ucture'), [], 'not a substring')
  t.same(await courses('search=systems&department=cs'), [cs350], 'search and department combine')

  t.same(await courses('sort=-credits'), [math101, ...[cs101, cs201].sort(byId), ...[cs350, cse310].sort(byId)], 'credits descending, ties by id')
  t.same(await courses('sort=credits,-title'), [cs350, cse310, cs101, cs201, math101], 'ties broken by the second field')
})

t.test('publications: author, year and search filters', async (t) => {
  const { as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const reader = as('reader@dept.edu', 'user')
  const ada = await post(admin, '/api/people', { type: 'Faculty', first_name: 'Ada', last_name: 'Lovelace' })
  const emile = await post(admin, '/api/people', { type: 'Faculty', first_name: 'Émile', last_name: 'Borel' })
  const paper = (title: string, year: number, dept_authors: string[], abstract?: string) =>
    post(admin, '/api/publications', { title, year, dept_authors, authors: ['Someone'], ...(abstract ? { abstract } : {}) })
  const graphs = await paper('Deep Learning for Graphs', 2020, [emile])
  const theory = await paper('Graph Theory Basics', 2021, [emile, ada])
  const compilers = await paper('Compilers', 2021, [ada], 'A study of parsing techniques')
  const engines = await paper('Analytical Engines', 1843, [])

  const pubs = (query: string) => ids(reader, `/api/publications?${query}`)
  t.same(await pubs(''), [compilers, theory, graphs, engines], 'newest first, then by title')
  t.same(await pubs(`author=${encodeURIComponent(emile)}`), [theory, graphs], 'author filter')
  t.same(await pubs(`author=${ada}`), [compilers, theory], 'author given as a raw id')
  t.same(await pubs('year=2021'), [compilers, theory], 'year filter')
  t.same(await pubs('year=1999'), [])
  t.same(await pubs(`year=2021&author=${emile}`), [theory], 'author and year combine')
  t.same(await pubs('search=graph'), [theory, graphs], 'search matches title words by prefix')
  t.same(await pubs('search=parsing'), [compilers], 'search reaches the abstract')
  t.same(await pubs('search=GRAPH&year=2020'), [graphs])
  t.same(await pubs('sort=year'), [engines, graphs, ...[theory, compilers].sort(byId)], 'ascending year, ties by id')
  t.same(await pubs('sort=-year,-title'), [theory, compilers, graphs, engines])
})
