import t, { type Test } from 'tap'
import { OpenAlexClient } from '../../src/publications/openalex/client.js'
import { runCitationRefresh } from '../../src/publications/citations.js'
import { runPublicationImport, type PublicationDeps } from '../../src/publications/import.js'
import { fixtureServer, sendJson, type Handler } from '../helpers/fixture-server.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { testActor } from '../helpers/actor.js'

const ctx = { signal: new AbortController().signal, progress: async () => {}, log: { info: () => {}, error: () => {} } }
const orcidOnly = '0000-0002-1825-0097'

const work = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `https://openalex.org/W${n}`, title: `Work number ${n}`, publication_year: 2020, cited_by_count: n,
  authorships: [{ author: { id: 'https://openalex.org/A1', display_name: 'Ada Author' } }], ...extra,
})

/** OpenAlex over HTTP: A1 has three cursor pages of works; A9 was merged into A2; an ORCID resolves to A3. */
async function openalex(t: Test, pages: Record<string, { results: object[]; next: string | null }>, extra?: Handler) {
  const requests: URL[] = []
  const sleeps: number[] = []
  let throttled = false
  const url = await fixtureServer(t, (request, response, url) => {
    requests.push(url)
    if (extra && url.searchParams.get('filter')?.startsWith('openalex:')) return extra(request, response, url)
    if (url.pathname === '/authors/A9') return void response.writeHead(301, { location: '/authors/A2' }).end()
    if (url.pathname.startsWith('/authors/')) {
      const id = url.pathname === `/authors/orcid:${orcidOnly}` ? 'A3' : url.pathname.slice('/authors/'.length)
      return sendJson(response, 200, { id: `https://openalex.org/${id}`, display_name: id })
    }
    const cursor = url.searchParams.get('cursor') ?? ''
    if (cursor === 'c2' && !throttled) {
      throttled = true
      return sendJson(response, 429, { error: 'slow down' }, { 'retry-after': '2' })
    }
    const page = pages[`${url.searchParams.get('filter')}|${cursor}`]
    if (!page) return sendJson(response, 200, { meta: { count: 0, next_cursor: null }, results: [] })
    sendJson(response, 200, { meta: { count: 5, next_cursor: page.next }, results: page.results })
  })
  const client = new OpenAlexClient({ baseUrl: url, sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 })
  return { requests, sleeps, client }
}

function deps(test: TestApp, client: OpenAlexClient, invalidated: string[] = []): PublicationDeps {
  return { records: test.app.records, schema: test.app.schema, openalex: client, invalidate: (c) => { invalidated.push(c); test.app.responseCache.invalidate(c) } }
}

const a1Pages = {
  'author.id:A1|*': { results: [work(1, { doi: 'https://doi.org/10.1000/ABC.One' }), work(2)], next: 'c2' },
  'author.id:A1|c2': { results: [work(3), work(4, { title: 'Deep Learning for Rosters!', publication_year: 2021 })], next: 'c3' },
  'author.id:A1|c3': { results: [work(5)], next: null },
}

t.test('an import pages by cursor, waits out a 429, merges duplicates by DOI case and by title, and links the author', async (t) => {
  const test = await buildTestApp(t)
  const { records, schema } = test.app
  const ada = await records.create('Faculty', { first_name: 'Ada', last_name: 'Author', bibliography_source_id: 'A1' }, { actor: testActor })
  const byDoi = await records.create('Publication', { title: 'Typed by hand', authors: ['A. Author'], doi: '10.1000/abc.one', dept_authors: [] }, { actor: testActor })
  const byTitle = await records.create('Publication', { title: 'Deep learning for rosters', year: 2021, authors: ['A. Author'], dept_authors: [] }, { actor: testActor })
  const api = await openalex(t, a1Pages)
  const invalidated: string[] = []
  const result = await runPublicationImport(deps(test, api.client, invalidated), { personId: ada._id }, ctx)
  t.same([result.status, result.created, result.updated, result.errors], ['completed', 3, 2, []])
  t.same(api.requests.filter((u) => u.pathname === '/works').map((u) => u.searchParams.get('cursor')), ['*', 'c2', 'c2', 'c3'])
  t.same(api.sleeps, [2000], 'Retry-After honoured')
  const all = await records.find(schema.class('Publication')!, {})
  t.equal(all.length, 5)
  const doiMatch = (await records.get(byDoi._id))!
  t.same([doiMatch.source_id, doiMatch.dept_authors, (doiMatch.source as { system: string }).system], ['W1', [ada._id], 'openalex'])
  t.equal((await records.get(byTitle._id))!.source_id, 'W4')
  t.ok(['people', 'publications', 'courses'].every((c) => invalidated.includes(c)), 'caches invalidated at the end')
  const again = await runPublicationImport(deps(test, api.client), { personId: ada._id }, ctx)
  t.same([again.created, again.updated, again.unchanged], [0, 0, 5], 'a re-run changes nothing')
  // Each run keeps its record, under the id its result names.
  const runs = await records.find(schema.class('PublicationImportRun')!, {})
  t.match(runs.map((r) => [r._id, r.person_id, r.status, r.created, r.updated, r.unchanged, r.errors]).sort(), [
    [`PublicationImportRun/${result.run_id}`, ada._id, 'completed', 3, 2, 0, 0],
    [`PublicationImportRun/${again.run_id}`, ada._id, 'completed', 0, 0, 5, 0],
  ].sort())
})

t.test('a merged author (301) is followed and the new id stored; an ORCID-only person is resolved', async (t) => {
  const test = await buildTestApp(t)
  const { records } = test.app
  const merged = await records.create('Faculty', { first_name: 'Mer', last_name: 'Ged', bibliography_source_id: 'A9' }, { actor: testActor })
  const orcid = await records.create('Faculty', { first_name: 'Or', last_name: 'Cid', researcher_registry_id: orcidOnly }, { actor: testActor })
  const api = await openalex(t, {
    'author.id:A2|*': { results: [work(20, { authorships: [{ author: { id: 'https://openalex.org/A2' } }] })], next: null },
    'author.id:A3|*': { results: [work(30, { authorships: [{ author: { id: 'https://openalex.org/A3' } }] })], next: null },
  })
  const result = await runPublicationImport(deps(test, api.client), {}, ctx)
  t.same([result.people, result.created, result.errors], [2, 2, []])
  t.equal((await records.get(merged._id))!.bibliography_source_id, 'A2')
  t.ok(api.requests.some((u) => u.pathname === `/authors/orcid:${orcidOnly}`))
  const pubs = await records.find(test.app.schema.class('Publication')!, {})
  t.same(pubs.map((p) => [p.source_id, p.dept_authors]).sort(), [['W20', [merged._id]], ['W30', [orcid._id]]])
})

t.test('a title a person edited is kept, and a work they deleted is not imported again', async (t) => {
  const test = await buildTestApp(t)
  const { records, schema } = test.app
  const ada = await records.create('Faculty', { first_name: 'Ada', last_name: 'Author', bibliography_source_id: 'A1' }, { actor: testActor })
  const api = await openalex(t, a1Pages)
  await runPublicationImport(deps(test, api.client), { personId: ada._id }, ctx)
  const [w2] = await records.find(schema.class('Publication')!, { source_id: 'W2' })
  const [w3] = await records.find(schema.class('Publication')!, { source_id: 'W3' })
  const admin = test.as('pubs-admin@dept.edu', 'admin')
  const put = await admin({ method: 'PUT', url: `/api/publications/${w2!._id}`, payload: { title: 'My better title' } })
  t.equal(put.statusCode, 200, put.body)
  t.same(put.json().edited_fields, ['title'])
  const del = await admin({ method: 'DELETE', url: `/api/publications/${w3!._id}` })
  t.equal(del.statusCode, 200, del.body)
  t.equal((await records.get('RejectedWork/W3'))?.work_id, 'W3')
  const again = await runPublicationImport(deps(test, api.client), { personId: ada._id }, ctx)
  t.same([again.created, again.rejected], [0, 1])
  t.equal((await records.get(w2!._id))!.title, 'My better title')
  t.same((await records.find(schema.class('Publication')!, { source_id: 'W3' })).length, 0)
})

t.test('a citation refresh covers more than 50 publications, 50 ids per request', async (t) => {
  const test = await buildTestApp(t)
  const { records, schema } = test.app
  for (let n = 1000; n < 1060; n++) await records.create('Publication', { title: `Paper ${n}`, authors: [], dept_authors: [], source_id: `W${n}`, citation_count: 0 }, { actor: testActor })
  await records.create('Publication', { title: 'Not from OpenAlex', authors: [], dept_authors: [], citation_count: 7 }, { actor: testActor })
  const asked: string[][] = []
  const api = await openalex(t, {}, (_req, res, url) => {
    const ids = url.searchParams.get('filter')!.slice('openalex:'.length).split('|')
    asked.push(ids)
    sendJson(res, 200, { results: ids.map((id) => ({ id: `https://openalex.org/${id}`, cited_by_count: Number(id.slice(1)) - 990 })) })
  })
  const invalidated: string[] = []
  const result = await runCitationRefresh(deps(test, api.client, invalidated), ctx, testActor)
  t.same([result.publications, result.updated, result.requests], [60, 60, 2])
  t.same(asked.map((ids) => ids.length), [50, 10])
  const pubs = await records.find(schema.class('Publication')!, { source_id: 'W1059' })
  t.equal(pubs[0]!.citation_count, 69)
  t.type(pubs[0]!.citations_updated_at, 'string')
  t.equal((await records.find(schema.class('Publication')!, { title: 'Not from OpenAlex' }))[0]!.citation_count, 7)
  t.ok(invalidated.includes('publications'))
})
