/**
 * Publication import and citation refresh through their routes: jobs run inline on the embedded driver,
 * OpenAlex is a fixture server over real HTTP named by OPENALEX_URL.
 */
import t, { type Test } from 'tap'
import { listen, send } from '../../auth/support.js'
import { fixtureServer, sendJson } from '../../helpers/fixture-server.js'
import { buildTestApp } from '../../helpers/app.js'
import { accepted, admin, finished } from '../campus-sync/support.js'
import { testActor } from '../../helpers/actor.js'

const ada = 'ada@dept.example.edu'
const bob = 'bob@dept.example.edu'

const work = (n: number, author: string) => ({
  id: `https://openalex.org/W${n}`, title: `Work number ${n}`, publication_year: 2020, cited_by_count: n,
  authorships: [{ author: { id: `https://openalex.org/${author}`, display_name: author } }],
})

/** OpenAlex: A1 has works 1 and 2, A2 has work 3; citation counts are `citations` per work once refreshed. */
async function openalex(t: Test) {
  const state = { citations: 0, worksAsked: [] as string[] }
  const works: Record<string, object[]> = { A1: [work(1, 'A1'), work(2, 'A1')], A2: [work(3, 'A2')] }
  const url = await fixtureServer(t, (_request, response, url) => {
    if (url.pathname.startsWith('/authors/')) {
      const id = url.pathname.slice('/authors/'.length)
      return sendJson(response, 200, { id: `https://openalex.org/${id}`, display_name: id })
    }
    const filter = url.searchParams.get('filter') ?? ''
    if (filter.startsWith('openalex:')) {
      const ids = filter.slice('openalex:'.length).split('|')
      return sendJson(response, 200, { meta: { count: ids.length }, results: ids.map((id) => ({ id: `https://openalex.org/${id}`, cited_by_count: state.citations })) })
    }
    const author = filter.replace('author.id:', '')
    state.worksAsked.push(author)
    sendJson(response, 200, { meta: { count: works[author]?.length ?? 0, next_cursor: null }, results: works[author] ?? [] })
  })
  return { url, state }
}

async function setup(t: Test) {
  const api = await openalex(t)
  const built = await buildTestApp(t, { OPENALEX_URL: api.url })
  const { records } = built.app
  const adaRecord = await records.create('Faculty', { first_name: 'Ada', last_name: 'Author', email: ada, bibliography_source_id: 'A1' }, { actor: testActor })
  const bobRecord = await records.create('Faculty', { first_name: 'Bob', last_name: 'Builder', email: bob, bibliography_source_id: 'A2' }, { actor: testActor })
  return { ...built, api, adaRecord, bobRecord, ops: built.as(admin, 'admin') }
}

const titles = async (app: Awaited<ReturnType<typeof setup>>['app']) =>
  (await app.records.find(app.schema.class('Publication')!, {})).map((p) => p.title).sort()

t.test('a faculty member imports their own works through the route', async (t) => {
  const { app, as, ops, api, adaRecord } = await setup(t)
  const self = as(ada, 'faculty')
  const job = await finished(ops, await accepted(t, self, `/api/publications/import/${adaRecord._id}`))
  t.match(job, { queue: 'publication-import', name: 'import-person', state: 'completed', data: { personId: adaRecord._id }, result: { status: 'completed', people: 1, created: 2, errors: [] } })
  t.same(api.state.worksAsked, ['A1'], 'only her works were asked for')
  t.same(await titles(app), ['Work number 1', 'Work number 2'])
  const [first] = await app.records.find(app.schema.class('Publication')!, { source_id: 'W1' })
  t.same(first!.dept_authors, [adaRecord._id])
  const again = await finished(ops, await accepted(t, self, `/api/publications/import/${adaRecord._id}`))
  t.match(again.result, { created: 0, unchanged: 2 }, 'a second import changes nothing')
})

t.test('someone else\'s import is refused; an unknown person is a 404', async (t) => {
  const { as, ops, adaRecord } = await setup(t)
  const other = as(bob, 'faculty')
  const refused = await other({ method: 'POST', url: `/api/publications/import/${adaRecord._id}` })
  t.equal(refused.statusCode, 403)
  t.match(refused.json().error, /the person themselves/)
  t.equal(refused.json().code, 'ADKS_PERMISSION_DENIED')
  const unknown = await ops({ method: 'POST', url: '/api/publications/import/Faculty/nobody' })
  t.equal(unknown.statusCode, 404)
  t.match(unknown.json().error, /No person Faculty\/nobody/)
  t.equal(unknown.json().code, 'ADKS_RECORD_NOT_FOUND')
  t.equal((await ops({ method: 'POST', url: '/api/publications/import/Course/cs101' })).statusCode, 404, 'an id that is not a person')
  t.equal((await ops({ method: 'POST', url: `/api/publications/import/${adaRecord._id}`, payload: { everyone: true } })).statusCode, 400)
})

t.test('an admin imports every faculty member, then refreshes citation counts', async (t) => {
  const { app, ops, api } = await setup(t)
  const all = await finished(ops, await accepted(t, ops, '/api/admin/publications/import'))
  t.match(all, { name: 'import-all', state: 'completed', result: { people: 2, created: 3 } })
  t.same(await titles(app), ['Work number 1', 'Work number 2', 'Work number 3'])
  api.state.citations = 42
  const refresh = await finished(ops, await accepted(t, ops, '/api/admin/citations/update'))
  t.match(refresh, { queue: 'citation-refresh', name: 'refresh-all', state: 'completed', result: { publications: 3, updated: 3, requests: 1 } })
  const counts = (await app.records.find(app.schema.class('Publication')!, {})).map((p) => p.citation_count)
  t.same(counts, [42, 42, 42])
})

t.test('the admin routes are for holders of manage_jobs, signed in', async (t) => {
  const { app, as, token } = await setup(t)
  const faculty = as(ada, 'faculty')
  for (const url of ['/api/admin/publications/import', '/api/admin/citations/update']) {
    t.equal((await faculty({ method: 'POST', url })).statusCode, 403, `${url} as faculty`)
    t.equal((await app.inject({ method: 'POST', url })).statusCode, 401, `${url} anonymous`)
  }
  const port = await listen(app)
  const created = await send(port, 'POST', '/api/api-keys', { authorization: `Bearer ${await token(admin, 'admin')}`, 'content-type': 'application/json' }, { name: 'k', permissions: ['read_publications'] })
  const { key } = created.json() as { key: string }
  t.equal((await send(port, 'POST', '/api/admin/citations/update', { 'X-API-Key': key })).status, 403, 'an API key is refused')
  const person = (await app.records.find(app.schema.class('Faculty')!, { email: ada }))[0]!
  t.equal((await send(port, 'POST', `/api/publications/import/${person._id}`, { 'X-API-Key': key })).status, 403, 'even its owner\'s key')
})
