import t, { type Test } from 'tap'
import { listen, send } from '../auth/support.js'
import { buildTestApp } from '../helpers/app.js'

// docs/privacy.md, "Students named in public records": references to students inside public records are left
// out for a caller who may not see that student (an undergraduate: admins only; a graduate student: admins,
// the student and their advisors), in lists, details, search results and cached answers alike, API keys
// included.

const enc = encodeURIComponent

/**
 * Fay advises Gina (a graduate student); Una is an undergraduate; Gus is another faculty member. The
 * Graph Lab has all four as members; "Graphs of Students" has Gina, Una and Fay as department authors.
 */
async function department(t: Test) {
  const setup = await buildTestApp(t)
  const admin = setup.as('admin@dept.edu', 'admin')
  const create = async (url: string, payload: object) => {
    const res = await admin({ method: 'POST', url, payload })
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
    return (res.json().id ?? res.json()._id) as string
  }
  const fay = await create('/api/people', { type: 'Faculty', first_name: 'Fay', last_name: 'Advisor', email: 'fay@dept.edu' })
  const gus = await create('/api/people', { type: 'Faculty', first_name: 'Gus', last_name: 'Other', email: 'gus@dept.edu' })
  const gina = await create('/api/people', { type: 'GraduateStudent', first_name: 'Gina', last_name: 'Grad', email: 'gina@dept.edu', advisors: [fay] })
  const una = await create('/api/people', { type: 'UndergraduateStudent', first_name: 'Una', last_name: 'Under', email: 'una@dept.edu', advisors: [fay] })
  const lab = await create('/api/labs', { name: 'Graph Lab', description: 'Graphs and networks', pi: fay, members: [fay, gina, una, gus] })
  const publication = await create('/api/publications', { title: 'Graphs of Students', authors: ['G. Grad', 'U. Under', 'F. Advisor'], dept_authors: [gina, una, fay] })
  return { ...setup, admin, ids: { fay, gus, gina, una, lab, publication } }
}

const students = (body: string, ids: { gina: string; una: string }) => [ids.gina, ids.una].filter((id) => body.includes(JSON.stringify(id)))

t.test('a lab and a publication naming students, read by an admin first, then by a student\'s key, a faculty member and the admin', async (t) => {
  const { app, as, admin, ids } = await department(t)
  const port = await listen(app)
  const gus = as('gus@dept.edu', 'faculty')
  const unaKey = await as('una@dept.edu', 'student')({ method: 'POST', url: '/api/api-keys', payload: { name: 'reader', permissions: ['read_labs', 'read_publications'] } })
  t.equal(unaKey.statusCode, 201, unaKey.body)
  const byKey = (url: string) => send(port, 'GET', url, { 'X-API-Key': unaKey.json().key }, undefined, 30_000)

  const reads = {
    'lab detail': `/api/labs/${enc(ids.lab)}`,
    'lab list': '/api/labs',
    'lab search': '/api/search/labs?q=graph',
    'lab list by search filter': '/api/labs?search=graph',
    'publication detail': `/api/publications/${enc(ids.publication)}`,
    'publication list': '/api/publications',
    "Fay's publications": `/api/people/${enc(ids.fay)}/publications`,
  }
  // The admin reads first, and twice where answers are cached, so an admin's entry is there to be (mis)served.
  for (const [what, url] of Object.entries(reads)) {
    const res = await admin({ method: 'GET', url })
    t.equal(res.statusCode, 200, `admin: ${what}`)
    if (what !== 'lab search') t.same(students(res.body, ids), [ids.gina, ids.una], `admin: ${what} names both students`)
  }
  t.equal((await admin({ method: 'GET', url: reads["Fay's publications"] })).headers['x-cache'], 'hit', "the admin's answer is cached")

  for (const [what, url] of Object.entries(reads)) {
    const res = await gus({ method: 'GET', url })
    t.equal(res.statusCode, 200, `faculty: ${what}`)
    t.same(students(res.body, ids), [], `faculty: ${what} names no student`)
  }
  const shared = await gus({ method: 'GET', url: reads["Fay's publications"] })
  t.equal(shared.headers['x-cache'], 'hit', "the faculty member's answer is cached, apart from the admin's")
  t.same(students(shared.body, ids), [])
  const lab = (await gus({ method: 'GET', url: reads['lab detail'] })).json()
  t.same([...lab.members].sort(), [ids.fay, ids.gus].sort(), 'the lab keeps its other members')
  t.same((await gus({ method: 'GET', url: reads['publication detail'] })).json().dept_authors, [ids.fay])

  for (const what of ['lab list', 'publication list'] as const) {
    const res = await byKey(reads[what])
    t.equal(res.status, 200, `key: ${what}`)
    t.same(students(res.body, ids), [], `the student's key: ${what} names no student, not even its owner`)
  }

  const again = await admin({ method: 'GET', url: reads['lab detail'] })
  t.same([...again.json().members].sort(), [ids.fay, ids.gina, ids.una, ids.gus].sort(), 'the admin still sees every member')
  t.same(students((await admin({ method: 'GET', url: reads["Fay's publications"] })).body, ids), [ids.gina, ids.una])
})

t.test('a graduate student and their advisor see the graduate student, never the undergraduate; their answers are not shared', async (t) => {
  const { as, admin, ids } = await department(t)
  const fay = as('fay@dept.edu', 'faculty')
  const gina = as('gina@dept.edu', 'student')
  const gus = as('gus@dept.edu', 'faculty')
  const mine = `/api/people/${enc(ids.fay)}/publications`
  for (const [who, inject] of [['the advisor', fay], ['the student', gina], ['the advisor again', fay]] as const) {
    const res = await inject({ method: 'GET', url: mine })
    t.equal(res.statusCode, 200)
    t.same(students(res.body, ids), [ids.gina], `${who} sees Gina, not Una`)
    t.equal(res.headers['x-cache'], 'bypass', `${who} neither reads nor stores a shared answer`)
    t.same(students((await inject({ method: 'GET', url: `/api/labs/${enc(ids.lab)}` })).body, ids), [ids.gina], `${who}: the lab too`)
  }
  const other = await gus({ method: 'GET', url: mine })
  t.equal(other.headers['x-cache'], 'miss', 'nothing was stored for another faculty member to be served')
  t.same(students(other.body, ids), [])

  t.equal((await gus({ method: 'GET', url: `/api/labs?member=${enc(ids.una)}` })).json().total, 0, 'a filter naming a hidden student matches nothing')
  t.equal((await gus({ method: 'GET', url: `/api/publications?author=${enc(ids.gina)}` })).json().total, 0)
  t.equal((await fay({ method: 'GET', url: `/api/publications?author=${enc(ids.gina)}` })).json().total, 1, 'the advisor finds her student\'s work')
  t.equal((await admin({ method: 'GET', url: `/api/labs?member=${enc(ids.una)}` })).json().total, 1)

  // Fay sends her publication back as she sees it: the undergraduate she could not see stays an author.
  const seen = (await fay({ method: 'GET', url: `/api/publications/${enc(ids.publication)}` })).json()
  t.same(seen.dept_authors, [ids.gina, ids.fay])
  const put = await fay({ method: 'PUT', url: `/api/publications/${enc(ids.publication)}`, payload: { ...seen, title: 'Graphs of Students, revised' } })
  t.equal(put.statusCode, 200, put.body)
  t.same(put.json().dept_authors, [ids.gina, ids.fay], 'the answer to the update names no hidden student either')
  t.same((await admin({ method: 'GET', url: `/api/publications/${enc(ids.publication)}` })).json().dept_authors, [ids.gina, ids.una, ids.fay], 'Una is still an author')
})
