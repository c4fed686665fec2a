/**
 * Works as OpenAlex really answers them: old-style (SICI) DOIs with brackets and `<` `>`, resolver URLs
 * in upper case, landing pages a publisher left unencoded. Through the routes, jobs inline, OpenAlex a
 * fixture server over HTTP. Fast enough to run on both store adapters (scripts/ferretdb.sh).
 */
import t, { type Test } from 'tap'
import { fixtureServer, sendJson } from '../helpers/fixture-server.js'
import { buildTestApp } from '../helpers/app.js'
import { accepted, admin, finished } from '../routes/campus-sync/support.js'
import { testActor } from '../helpers/actor.js'

const ada = 'ada@dept.example.edu'
const bob = 'bob@dept.example.edu'
const sici = '10.1659/0276-4741(2005)025[0206:PFBCS]2.0.CO;2'
const angled = '10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O'

const work = (n: number, extra: Record<string, unknown>) => ({
  id: `https://openalex.org/W${n}`, title: `Work number ${n}`, publication_year: 2005, cited_by_count: n,
  authorships: [{ author: { id: 'https://openalex.org/A1', display_name: 'Ada Author' } }], ...extra,
})

async function openalex(t: Test): Promise<string> {
  const works = [
    work(1, { doi: `https://doi.org/${sici}`, primary_location: { landing_page_url: `https://doi.org/${sici}`, source: { display_name: 'Mountain Research' } } }),
    work(2, { doi: `https://doi.org/${angled}`, primary_location: null }),
    work(3, { doi: null, primary_location: { landing_page_url: 'https://repository.example.org/paper%zz', source: null } }),
  ]
  return fixtureServer(t, (_request, response, url) => {
    if (url.pathname.startsWith('/authors/')) return sendJson(response, 200, { id: `https://openalex.org/${url.pathname.slice('/authors/'.length)}` })
    const mine = url.searchParams.get('filter') === 'author.id:A1'
    sendJson(response, 200, { meta: { count: mine ? works.length : 0, next_cursor: null }, results: mine ? works : [] })
  })
}

t.test('3. any DOI imports: stored lower-cased as given, its URL percent-encoded; an unusable field is left out with a warning the person reads', async (t) => {
  const built = await buildTestApp(t, { OPENALEX_URL: await openalex(t) })
  const { app, as } = built
  const adaRecord = await app.records.create('Faculty', { first_name: 'Ada', last_name: 'Author', email: ada, bibliography_source_id: 'A1' }, { actor: testActor })
  const bobRecord = await app.records.create('Faculty', { first_name: 'Bob', last_name: 'Builder', email: bob }, { actor: testActor })
  const self = as(ada, 'faculty')
  const ops = as(admin, 'admin')
  const resultUrl = `/api/publications/import/${encodeURIComponent(adaRecord._id)}`
  t.equal((await self({ method: 'GET', url: resultUrl })).statusCode, 404, 'no import yet')

  const job = await finished(ops, await accepted(t, self, `/api/publications/import/${adaRecord._id}`))
  t.match(job, { state: 'completed', result: { created: 3, errors: [], warnings: [{ person: adaRecord._id, work: 'W3', message: "'url' must be a valid uri; imported without it" }] } })
  const stored = await app.records.find(app.schema.class('Publication')!, {}, { sort: [['source_id', 1]] })
  t.same(stored.map((p) => [p.source_id, p.doi, p.url]), [
    ['W1', sici.toLowerCase(), 'https://doi.org/10.1659/0276-4741(2005)025%5B0206%3Apfbcs%5D2.0.co%3B2'],
    ['W2', angled.toLowerCase(), 'https://doi.org/10.1002/(sici)1097-4571(199806)49%3A8%3C693%3A%3Aaid-asi4%3E3.0.co%3B2-o'],
    ['W3', undefined, undefined],
  ], 'every work is in; the one unusable field is left out')
  t.equal(stored[0]!.venue, 'Mountain Research')
  t.equal(new URL(stored[1]!.url as string).pathname.split('/').map(decodeURIComponent).slice(1).join('/'), angled.toLowerCase(), 'the URL decodes back to the DOI')

  const mine = await self({ method: 'GET', url: resultUrl })
  t.equal(mine.statusCode, 200, mine.body)
  t.match(mine.json(), { person_id: adaRecord._id, status: 'completed', created: 3, updated: 0, unchanged: 0, rejected: 0, errors: [] })
  t.same(mine.json().warnings, [{ work: 'W3', message: "'url' must be a valid uri; imported without it" }], 'the person reads their own warnings')
  t.equal((await as(bob, 'faculty')({ method: 'GET', url: resultUrl })).statusCode, 403, "another faculty member does not read Ada's")
  t.equal((await ops({ method: 'GET', url: `/api/publications/import/${encodeURIComponent(bobRecord._id)}` })).statusCode, 404)

  // Everyone's import: the same works again are unchanged, and the warning is still said, to Ada and the admin.
  const all = await finished(ops, await accepted(t, ops, '/api/admin/publications/import'))
  t.match(all, { state: 'completed', result: { created: 0, unchanged: 3, warnings: [{ person: adaRecord._id, work: 'W3' }] } })
  t.match((await ops({ method: 'GET', url: resultUrl })).json(), { created: 0, unchanged: 3, warnings: [{ work: 'W3' }] })
  t.equal((await app.records.find(app.schema.class('Publication')!, {})).length, 3, 'no work twice')
})
