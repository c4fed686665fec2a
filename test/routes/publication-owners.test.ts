import t, { type Test } from 'tap'
import { OpenAlexClient } from '../../src/publications/openalex/client.js'
import { runPublicationImport } from '../../src/publications/import.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { listen, send } from '../auth/support.js'
import { fixtureServer, sendJson } from '../helpers/fixture-server.js'
import { buildTestApp } from '../helpers/app.js'
import { refused } from '../helpers/refusals.js'
import { testActor } from '../helpers/actor.js'

// docs/privacy.md, "Publications: who may change them": anyone holding write_publications creates a
// publication; changing or deleting one needs the caller among its dept_authors, or manage_profiles, or the
// admin role.

const url = (id: string) => `/api/publications/${encodeURIComponent(id)}`
const patience = 30_000

async function faculty(t: Test) {
  const setup = await buildTestApp(t)
  const admin = setup.as('admin@dept.edu', 'admin')
  const person = async (first: string, email: string) => {
    const res = await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: first, last_name: 'Author', email } })
    t.equal(res.statusCode, 201)
    return res.json().id as string
  }
  const fay = await person('Fay', 'fay@dept.edu')
  const gus = await person('Gus', 'gus@dept.edu')
  return { ...setup, admin, fay, gus }
}

t.test('a faculty member changes and deletes their own publications, not another\'s', async (t) => {
  const { as, admin, fay, gus } = await faculty(t)
  const asFay = as('fay@dept.edu', 'faculty')
  const asGus = as('gus@dept.edu', 'faculty')
  const created = await asFay({ method: 'POST', url: '/api/publications', payload: { title: 'Fay alone', authors: ['F. Author'], dept_authors: [fay] } })
  t.equal(created.statusCode, 201, 'creating is open to write_publications')
  const id = created.json()._id as string

  refused(t, await asGus({ method: 'PUT', url: url(id), payload: { title: 'Retitled by Gus' } }), 403, /dept_authors.*manage_profiles.*admin/, 'Gus retitles Fay\'s publication')
  refused(t, await asGus({ method: 'DELETE', url: url(id) }), 403, /dept_authors/, 'Gus deletes Fay\'s publication')
  refused(t, await asGus({ method: 'PUT', url: url(id), payload: { dept_authors: [fay, gus] } }), 403, /dept_authors/, 'Gus adds himself as an author')
  t.equal((await admin({ method: 'GET', url: url(id) })).json().title, 'Fay alone', 'the refused writes changed nothing')

  const own = await asFay({ method: 'PUT', url: url(id), payload: { title: 'Fay, retitled', dept_authors: [fay, gus] } })
  t.equal(own.statusCode, 200, own.body)
  t.equal(own.json().title, 'Fay, retitled')
  const coauthor = await asGus({ method: 'PUT', url: url(id), payload: { title: 'Now ours' } })
  t.equal(coauthor.statusCode, 200, 'once a department author, Gus may change it too')
  t.equal((await asFay({ method: 'DELETE', url: url(id) })).statusCode, 200, 'an author deletes it')
  t.equal((await admin({ method: 'GET', url: url(id) })).statusCode, 404)
})

t.test('manage_profiles and admins change and delete any publication; a key acts as its owner, as an author only', async (t) => {
  const { app, as, admin, fay } = await faculty(t)
  const port = await listen(app)
  const publication = async (title: string) => (await admin({ method: 'POST', url: '/api/publications', payload: { title, dept_authors: [fay] } })).json()._id as string
  const editors = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Profile editors', permissions: ['manage_profiles'], members: [] } })
  t.equal(editors.statusCode, 201, editors.body)
  const stu = as('stu@dept.edu', 'staff')
  await stu({ method: 'GET', url: '/api/auth/me' })
  t.equal((await admin({ method: 'PUT', url: `/api/groups/${encodeURIComponent(editors.json()._id)}`, payload: { members: [userIdForEmail('stu@dept.edu')] } })).statusCode, 200)

  const first = await publication('For the editor')
  t.equal((await stu({ method: 'PUT', url: url(first), payload: { title: 'Edited by staff' } })).statusCode, 200, 'manage_profiles changes it')
  t.equal((await stu({ method: 'DELETE', url: url(first) })).statusCode, 200, 'and deletes it')
  const second = await publication('For the admin')
  t.equal((await admin({ method: 'PUT', url: url(second), payload: { title: 'Edited by the admin' } })).statusCode, 200, 'an admin changes it')
  t.equal((await admin({ method: 'DELETE', url: url(second) })).statusCode, 200, 'and deletes it')

  const third = await publication('Fay\'s, for keys')
  const keyOf = async (email: string, role: 'faculty' | 'admin') => {
    const res = await as(email, role)({ method: 'POST', url: '/api/api-keys', payload: { name: 'writer', permissions: ['read_publications', 'write_publications'] } })
    t.equal(res.statusCode, 201, res.body)
    return res.json().key as string
  }
  const put = (key: string) => send(port, 'PUT', url(third), { 'X-API-Key': key }, { title: 'Changed with a key' }, patience)
  const gusKey = await put(await keyOf('gus@dept.edu', 'faculty'))
  t.equal(gusKey.status, 403, 'the key of a faculty member who is not an author')
  t.match(gusKey.json().error, /dept_authors/)
  t.equal(gusKey.json().code, 'ADKS_PERMISSION_DENIED')
  const adminKey = await put(await keyOf('admin@dept.edu', 'admin'))
  t.equal(adminKey.status, 403, 'an admin\'s key carries no admin rights: its owner is not an author')
  t.equal((await put(await keyOf('fay@dept.edu', 'faculty'))).status, 200, 'the key of an author changes it')
  t.equal((await admin({ method: 'GET', url: url(third) })).json().title, 'Changed with a key')
})

/** OpenAlex played by a real HTTP server: author A1 has works W1 and W2. */
async function openalex(t: Test) {
  const works = [1, 2].map((n) => ({ id: `https://openalex.org/W${n}`, title: `Work ${n}`, publication_year: 2020, authorships: [{ author: { id: 'https://openalex.org/A1' } }] }))
  const base = await fixtureServer(t, (_request, response, u) => {
    if (u.pathname === '/authors/A1') return sendJson(response, 200, { id: 'https://openalex.org/A1', display_name: 'Ada' })
    const first = (u.searchParams.get('cursor') ?? '*') === '*'
    sendJson(response, 200, { meta: { count: works.length, next_cursor: null }, results: first ? works : [] })
  })
  return new OpenAlexClient({ baseUrl: base, sleep: async () => {}, random: () => 0.5 })
}

t.test('deleting an imported publication writes its rejection first, so a failed removal never lets an import bring it back', async (t) => {
  const { app, as, admin } = await buildTestApp(t).then((s) => ({ ...s, admin: s.as('admin@dept.edu', 'admin') }))
  const { records, schema } = app
  const ada = await records.create('Faculty', { first_name: 'Ada', last_name: 'Author', email: 'ada@dept.edu', bibliography_source_id: 'A1' }, { actor: testActor })
  const client = await openalex(t)
  const deps = { records, schema, openalex: client, invalidate: (c: string) => app.responseCache.invalidate(c) }
  const ctx = { signal: new AbortController().signal, progress: async () => {}, log: { info: () => {}, error: () => {} } }
  t.equal((await runPublicationImport(deps, { personId: ada._id }, ctx)).created, 2)
  const byWork = async (work: string) => (await records.find(schema.class('Publication')!, { source_id: work }))[0]
  const w1 = (await byWork('W1'))!
  const w2 = (await byWork('W2'))!
  const asAda = as('ada@dept.edu', 'faculty')

  // A failure right after the delete's first write, whichever write that is: a change listener (as the
  // cache and the search index are) that fails once. Had the publication been removed first, the failure
  // would leave it gone with no rejection, and the next import would bring it back.
  t.equal((await asAda({ method: 'GET', url: '/api/auth/me' })).statusCode, 200, 'Ada has signed in (her user is written) before')
  let failNextWrite = true
  records.onChange((change) => {
    if (!failNextWrite || !['publications', 'rejected_works'].includes(change.collection)) return
    failNextWrite = false
    throw new Error('failed after the first write')
  })
  const failed = await asAda({ method: 'DELETE', url: url(w1._id) })
  t.equal(failed.statusCode, 500, 'the delete failed after its first write')
  t.ok(await records.get('RejectedWork/W1'), 'the rejection was written before the removal')
  t.ok(await records.get(w1._id), 'the publication is still there')
  const again = await runPublicationImport(deps, { personId: ada._id }, ctx)
  t.same([again.created, again.rejected], [0, 1], 'an import meanwhile leaves the rejected work alone')
  t.equal((await asAda({ method: 'DELETE', url: url(w1._id) })).statusCode, 200, 'deleting it again completes')

  t.equal((await asAda({ method: 'DELETE', url: url(w2._id) })).statusCode, 200, 'an ordinary delete of an imported publication')
  t.equal((await records.get('RejectedWork/W2'))?.work_id, 'W2')
  const after = await runPublicationImport(deps, { personId: ada._id }, ctx)
  t.same([after.created, after.rejected], [0, 2], 'neither deleted work comes back')
  t.same((await admin({ method: 'GET', url: '/api/publications' })).json().total, 0)
})
