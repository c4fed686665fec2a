/**
 * publications.imported (docs/notifications.md): a finished import tells each faculty member it gave new
 * works to review, the co-authors among them. Imports run through their routes on the inline jobs; OpenAlex
 * is a fixture server over real HTTP named by OPENALEX_URL.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import t, { type Test } from 'tap'
import { eventsCollection, type EventRecord } from '../../src/notifications/collections.js'
import { fixtureServer, sendJson } from '../helpers/fixture-server.js'
import { buildTestApp } from '../helpers/app.js'
import { accepted, admin, finished } from '../routes/campus-sync/support.js'
import { ferpaViolations } from './ferpa.js'
import { testActor } from '../helpers/actor.js'

type Caller = (options: InjectOptions) => Promise<LightMyRequestResponse>
const inbox = async (caller: Caller) => (await caller({ method: 'GET', url: '/api/notifications' })).json() as { total: number; items: Record<string, unknown>[] }

const author = (id: string) => ({ author: { id: `https://openalex.org/${id}`, display_name: id } })
const work = (n: number, ...authors: string[]) => ({
  id: `https://openalex.org/W${n}`, title: `Work number ${n}`, publication_year: 2020, cited_by_count: n, authorships: authors.map(author),
})

/** OpenAlex: A1 (Ada) wrote works 1 and 2; A2 (Bob) wrote work 3 with Ada and A4 (Dee); A3 (Cy) has none. */
async function openalex(t: Test): Promise<string> {
  const works: Record<string, object[]> = { A1: [work(1, 'A1'), work(2, 'A1')], A2: [work(3, 'A2', 'A1', 'A4')], A3: [], A4: [] }
  return fixtureServer(t, (_request, response, url) => {
    if (url.pathname.startsWith('/authors/')) {
      const id = url.pathname.slice('/authors/'.length)
      return sendJson(response, 200, { id: `https://openalex.org/${id}`, display_name: id })
    }
    const found = works[(url.searchParams.get('filter') ?? '').replace('author.id:', '')] ?? []
    sendJson(response, 200, { meta: { count: found.length, next_cursor: null }, results: found })
  })
}

t.test('an import tells each faculty member with new works to review, co-authors too, and no one when nothing is new', async (t) => {
  const { app, as } = await buildTestApp(t, { OPENALEX_URL: await openalex(t) })
  const { records } = app
  const people = {
    ada: await records.create('Faculty', { first_name: 'Ada', last_name: 'Author', email: 'ada@dept.example.edu', bibliography_source_id: 'A1' }, { actor: testActor }),
    bob: await records.create('Faculty', { first_name: 'Bob', last_name: 'Builder', email: 'bob@dept.example.edu', bibliography_source_id: 'A2' }, { actor: testActor }),
    cy: await records.create('Faculty', { first_name: 'Cy', last_name: 'Clone', email: 'cy@dept.example.edu', bibliography_source_id: 'A3' }, { actor: testActor }),
  }
  const ops = as(admin, 'admin')
  const ada = as('ada@dept.example.edu', 'faculty')
  const bob = as('bob@dept.example.edu', 'faculty')
  const cy = as('cy@dept.example.edu', 'faculty')
  const types = async (caller: Caller) => (await inbox(caller)).items.map((i) => i.type)

  // Bob imports his own works: work 3 is new to him and to Ada, his co-author.
  const own = await finished(ops, await accepted(t, bob, `/api/publications/import/${people.bob._id}`))
  t.match(own.result, { status: 'completed', people: 1, created: 1 })
  await app.notifications.relay.idle()
  const first = (own.result as { run_id: string }).run_id
  for (const caller of [ada, bob]) {
    const page = await inbox(caller)
    t.equal(page.total, 1)
    t.match(page.items[0], { type: 'publications.imported', subject: first, title: 'Publication import: 1 new work, 0 updated', link: '/publications', read_at: null })
  }
  t.same(await types(cy), [], 'Cy has nothing new')
  t.same(await types(ops), [], 'nor the admin who has no works')

  // Dee joins the department. Everyone's import: works 1 and 2 are new to Ada, and work 3, now linked
  // to Dee, is new on her list; nothing is new to Bob or Cy.
  const dee = await records.create('Faculty', { first_name: 'Dee', last_name: 'Later', email: 'dee@dept.example.edu', bibliography_source_id: 'A4' }, { actor: testActor })
  const all = await finished(ops, await accepted(t, ops, '/api/admin/publications/import'))
  t.match(all.result, { status: 'completed', people: 4, created: 2, updated: 1 })
  await app.notifications.relay.idle()
  const adaPage = await inbox(ada)
  t.same(adaPage.items.map((i) => i.subject), [(all.result as { run_id: string }).run_id, first])
  t.match(adaPage.items[0], { title: 'Publication import: 2 new works, 1 updated' })
  t.same((await inbox(as('dee@dept.example.edu', 'faculty'))).items.map((i) => i.subject), [(all.result as { run_id: string }).run_id])
  t.same([(await inbox(bob)).total, (await inbox(cy)).total], [1, 0])
  t.same((await app.store.collection<EventRecord>(eventsCollection).findById(`${(all.result as { run_id: string }).run_id}/publications.imported`))?.recipients,
    [people.ada._id, dee._id].sort())

  // Nothing new: the run is still an event (for webhooks), to no one in the app.
  const again = await finished(ops, await accepted(t, ops, '/api/admin/publications/import'))
  t.match(again.result, { created: 0, updated: 0, unchanged: 3 })
  await app.notifications.relay.idle()
  t.same([(await inbox(ada)).total, (await inbox(bob)).total, (await inbox(cy)).total], [2, 1, 0])

  const stored = await app.store.collection<EventRecord>(eventsCollection).find({ type: 'publications.imported' })
  t.equal(stored.length, 3, 'one event per finished import')
  t.match(stored.find((e) => e.subject === first), {
    _id: `${first}/publications.imported`, source: '/api/publications', recipients: [people.ada._id, people.bob._id].sort(),
    data: { run: first, person: people.bob._id, status: 'completed', people: 1, created: 1, updated: 0, unchanged: 0 },
  })
  t.same(stored.find((e) => e.subject === (again.result as { run_id: string }).run_id)?.recipients, [])
  const text = JSON.stringify(stored)
  t.notOk(/Work number|Builder|Author/.test(text), 'no title or name of a work or person reaches an event')
  t.same(ferpaViolations(text), [])
})
