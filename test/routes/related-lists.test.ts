import t from 'tap'
import type { ApiRecord } from '../../src/records/service.js'
import { buildTestApp } from '../helpers/app.js'
import { Fixtures, recordUrl } from '../helpers/records.js'
import { refused } from '../helpers/refusals.js'

t.test('every related list (people/:id/publications, courses/:id/sections) lists what references the record', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const reader = as('reader@dept.edu', 'user')
  const fx = new Fixtures(app, admin)

  for (const resource of app.schema.resources) {
    for (const related of resource.root.metadata.related) {
      await t.test(`${resource.path}/:id/${related.path}`, async (t) => {
        const owner = await fx.create(resource.classes[0]!)
        const bystander = await fx.create(resource.classes[0]!)
        const prop = fx.cls(related.class).properties.find((p) => p.name === related.field)!
        const many = prop.kind !== 'required' && prop.kind !== 'optional'
        const linked: ApiRecord[] = []
        for (let i = 0; i < 5; i++) {
          const body = await fx.body(related.class)
          linked.push(await fx.create(related.class, { ...body, [related.field]: many ? [owner._id] : owner._id }))
        }
        const other = await fx.create(related.class, { ...await fx.body(related.class), [related.field]: many ? [bystander._id] : bystander._id })

        const suffix = `/${related.path}`
        const encoded = await reader({ method: 'GET', url: recordUrl(resource, owner._id, 'encoded', suffix) })
        const segments = await reader({ method: 'GET', url: recordUrl(resource, owner._id, 'segments', suffix) })
        t.equal(encoded.statusCode, 200)
        t.same(segments.json(), encoded.json(), 'both id forms give the same list')
        const page = encoded.json()
        t.same([page.total, page.limit, page.offset], [5, 50, 0], 'the list envelope')
        t.same(page.items.map((r: { _id: string }) => r._id).sort(), linked.map((r) => r._id).sort(), 'exactly the records that reference it')
        t.notOk(page.items.some((r: { _id: string }) => r._id === other._id), 'not those referencing another record')
        t.same(page.items.find((r: { _id: string }) => r._id === linked[0]!._id), linked[0], 'items are whole records')

        const pieces: ApiRecord[] = []
        for (const offset of [0, 2, 4]) {
          const piece = (await reader({ method: 'GET', url: recordUrl(resource, owner._id, 'segments', `${suffix}?limit=2&offset=${offset}`) })).json()
          t.same([piece.total, piece.limit, piece.offset], [5, 2, offset])
          pieces.push(...piece.items)
        }
        t.same(pieces, page.items, 'paging walks the same order')

        const empty = (await reader({ method: 'GET', url: recordUrl(resource, (await fx.create(resource.classes[0]!))._id, 'encoded', suffix) })).json()
        t.same([empty.items, empty.total], [[], 0], 'a record nothing references has an empty list')

        const missing = `${resource.classes[0]}/nobody-here`
        refused(t, await reader({ method: 'GET', url: recordUrl(resource, missing, 'segments', suffix) }), 404, missing, 'an unknown record')
        refused(t, await reader({ method: 'GET', url: recordUrl(resource, owner._id, 'encoded', `${suffix}?limit=500`) }), 400, /'limit'/, 'limit over 200')
        refused(t, await reader({ method: 'GET', url: recordUrl(resource, owner._id, 'encoded', `${suffix}?sort=title`) }), 400, /'sort'/, 'no sort parameter here')
      })
    }
  }
})

t.test('a person\'s publications, newest first', async (t) => {
  const { as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const reader = as('reader@dept.edu', 'student')
  const create = async (url: string, payload: object) => {
    const answer = await admin({ method: 'POST', url, payload })
    return answer.json().id ?? answer.json()._id as string
  }
  const ada = await create('/api/people', { type: 'Faculty', first_name: 'Ada', last_name: 'Lovelace' })
  const grad = await create('/api/people', { type: 'GraduateStudent', first_name: 'Alan', last_name: 'Turing' })
  const notes = await create('/api/publications', { title: 'Notes on the Engine', year: 1843, dept_authors: [ada] })
  const joint = await create('/api/publications', { title: 'Joint Work', year: 1950, dept_authors: [grad, ada] })
  const solo = await create('/api/publications', { title: 'Computable Numbers', year: 1936, dept_authors: [grad] })
  await create('/api/publications', { title: 'Nobody Here', year: 2000, dept_authors: [] })

  const list = async (url: string) => (await reader({ method: 'GET', url })).json().items.map((p: { _id: string }) => p._id)
  t.same(await list(`/api/people/${ada}/publications`), [joint, notes])
  t.equal((await reader({ method: 'GET', url: `/api/people/${encodeURIComponent(grad)}/publications` })).statusCode, 404,
    'a graduate student\'s list is hidden from an unrelated student')
  const asAdmin = async (url: string) => (await admin({ method: 'GET', url })).json().items.map((p: { _id: string }) => p._id)
  t.same(await asAdmin(`/api/people/${encodeURIComponent(grad)}/publications`), [joint, solo])
  const [faculty, key] = ada.split('/')
  t.same(await list(`/api/people/${faculty}/${key}/publications?limit=1&offset=1`), [notes])
  refused(t, await reader({ method: 'GET', url: '/api/people/Course/CS-101/publications' }), 400, /'id'/, 'a Course id on a people path')
  refused(t, await reader({ method: 'GET', url: `/api/people/${encodeURIComponent(notes)}/publications` }), 400, /'id'/, 'a Publication id on a people path')
})
