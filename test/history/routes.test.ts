import t from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'
import { Fixtures } from '../helpers/records.js'

const url = (id: string, suffix = '') => `/api/labs/${encodeURIComponent(id)}${suffix}`

t.test('a record\'s history names who changed what, through what; as_of and restore read and write it', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const adminId = userIdForEmail('admin@dept.edu')
  const fx = new Fixtures(app, admin)
  const created = await admin({ method: 'POST', url: '/api/labs', payload: { ...await fx.body('Lab'), name: 'Optics', description: 'The Optics lab' } })
  t.equal(created.statusCode, 201, created.body)
  const id = created.json()._id as string
  const afterCreate = new Date().toISOString()
  const updated = await admin({ method: 'PUT', url: url(id), headers: { 'if-match': '"1"' }, payload: { description: 'Light and lenses' } })
  t.equal(updated.statusCode, 200, updated.body)
  const unchanged = await admin({ method: 'PUT', url: url(id), payload: { description: 'Light and lenses' } })
  t.equal(unchanged.json()._version, 2, 'an unchanged write makes no version')

  const history = await admin({ method: 'GET', url: url(id, '/history') })
  t.equal(history.statusCode, 200, history.body)
  const body = history.json()
  t.equal(body.total, 2, 'one revision per write that changed something')
  t.match(body.items[0], {
    version: 2, op: 'update', actor: adminId, actor_name: 'admin@dept.edu', via: 'PUT /api/labs/:id',
    changes: [{ path: '/description', before: 'The Optics lab', after: 'Light and lenses' }],
  })
  t.match(body.items[1], { version: 1, op: 'create', via: 'POST /api/labs' })
  t.ok(body.items[1].changes.some((c: { path: string; after: unknown }) => c.path === '/name' && c.after === 'Optics'))
  t.notOk(body.items[0].changes.some((c: { path: string }) => c.path === '/_version'), 'bookkeeping is no change')

  const then = await admin({ method: 'GET', url: url(id, `?as_of=${encodeURIComponent(afterCreate)}`) })
  t.equal(then.statusCode, 200, then.body)
  t.match(then.json(), { _id: id, _version: 1, description: 'The Optics lab' }, 'as_of answers the record as it was')
  const before = await admin({ method: 'GET', url: url(id, '?as_of=2000-01-01T00:00:00Z') })
  t.equal(before.statusCode, 404, 'before it was made, it did not exist')

  const restored = await admin({ method: 'POST', url: url(id, '/restore'), headers: { 'if-match': '"2"' }, payload: { version: 1 } })
  t.equal(restored.statusCode, 200, restored.body)
  t.match(restored.json(), { _version: 3, description: 'The Optics lab' })
  const stale = await admin({ method: 'POST', url: url(id, '/restore'), headers: { 'if-match': '"2"' }, payload: { version: 1 } })
  t.equal(stale.statusCode, 409, 'a restore is conditional on If-Match')
  const missing = await admin({ method: 'POST', url: url(id, '/restore'), payload: { version: 9 } })
  t.equal(missing.statusCode, 404, 'a version the record never had')
  const latest = (await admin({ method: 'GET', url: url(id, '/history?limit=1') })).json()
  t.match(latest, { total: 3, items: [{ version: 3, restored_from: 1, op: 'update' }] })

  const removed = await admin({ method: 'DELETE', url: url(id) })
  t.equal(removed.statusCode, 200)
  const trash = await admin({ method: 'GET', url: '/api/admin/trash?type=Lab' })
  t.match(trash.json(), { total: 1, items: [{ id, type: 'Lab', version: 3, deleted_by: adminId, via: 'DELETE /api/labs/:id' }] })
  const gone = await admin({ method: 'GET', url: url(id, '/history') })
  t.match(gone.json(), { total: 4, items: [{ version: 4, op: 'delete' }] }, 'a deleted record\'s history stays readable')
  const back = await admin({ method: 'POST', url: `/api/admin/trash/${encodeURIComponent(id)}/restore` })
  t.equal(back.statusCode, 201, back.body)
  t.match(back.json(), { id, version: 5 })
  const again = await admin({ method: 'GET', url: url(id) })
  t.match(again.json(), { _version: 5, description: 'The Optics lab' })
  t.equal((await admin({ method: 'GET', url: '/api/admin/trash' })).json().total, 0, 'out of the trash')
  const twice = await admin({ method: 'POST', url: `/api/admin/trash/${encodeURIComponent(id)}/restore` })
  t.equal(twice.statusCode, 404)
  // Deleted, then made anew under the same id: the deleted one stays in the trash, its restore refused.
  t.equal((await admin({ method: 'DELETE', url: url(id) })).statusCode, 200)
  const anew = await admin({ method: 'POST', url: '/api/labs', payload: { ...await fx.body('Lab'), name: 'Optics', description: 'A new Optics lab' } })
  t.equal(anew.statusCode, 201, anew.body)
  t.match(anew.json(), { _id: id, _version: 7 }, 'a new record under a deleted id takes the next version')
  t.match((await admin({ method: 'GET', url: '/api/admin/trash' })).json(), { total: 1, items: [{ id, version: 5 }] }, 'the deleted one stays in the trash')
  const taken = await admin({ method: 'POST', url: `/api/admin/trash/${encodeURIComponent(id)}/restore` })
  t.equal(taken.statusCode, 409, 'its restore is refused while the id is taken')
  t.match(taken.json(), { code: 'ADKS_RESTORE_CONFLICT', error: new RegExp(`${id} already exists`) })
  const faculty = as('prof@dept.edu', 'faculty')
  t.equal((await faculty({ method: 'GET', url: '/api/admin/trash' })).statusCode, 403, 'the trash is admins\'')
  t.equal((await faculty({ method: 'GET', url: url(id, '/history') })).statusCode, 200, 'whoever reads the record reads its history')
})
