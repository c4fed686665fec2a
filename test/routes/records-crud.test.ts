import t from 'tap'
import { internalFields } from '../../src/records/derived.js'
import { keyFields } from '../../src/schema/keys.js'
import { buildTestApp } from '../helpers/app.js'
import { Fixtures, recordUrl, type Body } from '../helpers/records.js'

const stampShape = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const namedPaths = ['/api/people', '/api/courses', '/api/sections', '/api/degrees', '/api/requirement-groups', '/api/requirement-rules',
  '/api/labs', '/api/research-centers', '/api/resources', '/api/publications', '/api/academic-programs']

t.test('the resources the interface names are served', async (t) => {
  const { app } = await buildTestApp(t)
  const served = app.schema.resources.map((r) => r.path)
  for (const path of namedPaths) t.ok(served.includes(path), path)
  const related = app.schema.resources.flatMap((r) => r.root.metadata.related.map((rel) => `${r.path}/:id/${rel.path}`))
  for (const path of ['/api/courses/:id/sections', '/api/people/:id/publications']) t.ok(related.includes(path), path)
})

t.test('every class of every resource: create, read, update, delete', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const fx = new Fixtures(app, admin)

  for (const resource of app.schema.resources) {
    for (const className of resource.classes) {
      await t.test(`${resource.path}: ${className}`, async (t) => {
        const cls = fx.cls(className)
        const body = await fx.body(className, { full: true })

        const created = await admin({ method: 'POST', url: resource.path, payload: body })
        t.equal(created.statusCode, 201, 'created', { body: created.body })
        t.equal(created.headers.etag, '"1"', 'a create answers the first version as ETag')
        let id: string
        if (resource.polymorphic) {
          t.same(Object.keys(created.json()).sort(), ['id', 'message'], 'a polymorphic create answers {id, message}')
          id = created.json().id
          t.match(created.json().message, id)
        } else {
          id = created.json()._id
          t.match(created.json(), { ...body, type: className, _version: 1 }, 'a create answers the record')
        }
        t.match(id, new RegExp(`^${className}/[A-Za-z0-9._~-]+$`))
        t.equal(created.headers.location, recordUrl(resource, id))

        const encoded = await admin({ method: 'GET', url: recordUrl(resource, id, 'encoded') })
        const segments = await admin({ method: 'GET', url: recordUrl(resource, id, 'segments') })
        t.equal(encoded.statusCode, 200)
        t.equal(segments.statusCode, 200)
        t.same(segments.json(), encoded.json(), 'both id forms address the same record')
        const record = encoded.json()
        t.match(record, { ...body, _id: id, type: className, _version: 1, _created_at: stampShape, _updated_at: stampShape })
        t.equal(encoded.headers.etag, '"1"')
        for (const field of internalFields) t.notOk(field in record, `${field} is not shown`)

        const changes = await fx.changes(className)
        const updated = await admin({ method: 'PUT', url: recordUrl(resource, id, 'segments'), headers: { 'if-match': '"1"' }, payload: changes })
        t.equal(updated.statusCode, 200, 'updated', { body: updated.body })
        t.equal(updated.headers.etag, '"2"')
        t.match(updated.json(), { ...changes, _id: id, _version: 2, _created_at: record._created_at })
        for (const field of keyFields(cls)) t.same(updated.json()[field], record[field], `key field ${field} is kept`)
        t.ok(updated.json()._updated_at >= record._updated_at)
        t.same((await fx.read(resource, id)), updated.json(), 'the update is stored')

        const partial = await admin({ method: 'PUT', url: recordUrl(resource, id), payload: {} })
        t.equal(partial.statusCode, 200)
        t.match(partial.json(), { ...changes, _version: 2 }, 'an update leaves fields it does not name alone')
        const same = await admin({ method: 'PUT', url: recordUrl(resource, id), payload: changes })
        t.same(same.json(), updated.json(), 'a write that changes nothing writes nothing: no new version')

        const staleBody = await admin({ method: 'PUT', url: recordUrl(resource, id), payload: { ...changes, _version: 1 } })
        t.equal(staleBody.statusCode, 409)
        t.match(staleBody.json().error, /version 2/, 'the conflict names the current version')
        t.equal(staleBody.json().code, 'ADKS_VERSION_CONFLICT', 'the conflict names the current version')
        t.equal(staleBody.headers.etag, '"2"')
        const staleHeader = await admin({ method: 'PUT', url: recordUrl(resource, id), headers: { 'if-match': 'W/"1"' }, payload: changes })
        t.equal(staleHeader.statusCode, 409)
        t.equal((await fx.read(resource, id))._version, 2, 'a refused update writes nothing')

        const optional = cls.properties.filter((p) => p.kind === 'optional').map((p) => p.name)
        if (optional.length) {
          const removal = Object.fromEntries(optional.map((name) => [name, null]))
          const removed = await admin({ method: 'PUT', url: recordUrl(resource, id), headers: { 'if-match': '"2"' }, payload: removal })
          t.equal(removed.statusCode, 200, 'optional fields removed', { body: removed.body })
          const stored = await fx.read(resource, id)
          for (const name of optional) t.notOk(name in stored, `null removes ${name}`)
          t.equal(stored._version, 3)
        }

        const deleted = await admin({ method: 'DELETE', url: recordUrl(resource, id, 'segments') })
        t.equal(deleted.statusCode, 200)
        t.same(deleted.json(), { id, message: `${id} deleted` })
        t.equal((await admin({ method: 'GET', url: recordUrl(resource, id) })).statusCode, 404)
        t.equal((await admin({ method: 'PUT', url: recordUrl(resource, id), payload: {} })).statusCode, 404)
        t.equal((await admin({ method: 'DELETE', url: recordUrl(resource, id) })).statusCode, 404)
      })
    }
  }
})

t.test('two concurrent updates carrying the same If-Match: exactly one wins', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const fx = new Fixtures(app, admin)
  for (const resource of app.schema.resources) {
    const className = resource.classes[0]!
    const record = await fx.create(className)
    const [first, second] = await Promise.all([fx.changes(className), fx.changes(className)])
    const answers = await Promise.all([first, second].map((payload) =>
      admin({ method: 'PUT', url: recordUrl(resource, record._id), headers: { 'if-match': '"1"' }, payload })))
    const codes = answers.map((a) => a.statusCode).sort()
    t.same(codes, [200, 409], `${resource.path}: one 200 and one 409`)
    const winner = answers.find((a) => a.statusCode === 200)!.json()
    t.same(await fx.read(resource, record._id), winner, `${resource.path}: the stored record is the winner's`)
  }
})

t.test('deleting a record that others reference is a 409 naming them', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const fx = new Fixtures(app, admin)
  for (const resource of app.schema.resources) {
    for (const className of resource.classes) {
      const referrers = app.schema.referrersOf(className).filter((ref) => !ref.field.includes('.') && app.schema.resourceOf(ref.owner))
      for (const ref of referrers) {
        const target = await fx.create(className)
        const owner = fx.cls(ref.owner)
        const prop = owner.properties.find((p) => p.name === ref.field)!
        const body: Body = { ...await fx.body(ref.owner), [ref.field]: prop.kind === 'required' || prop.kind === 'optional' ? target._id : [target._id] }
        const referrer = await fx.create(ref.owner, body)
        const refused = await admin({ method: 'DELETE', url: recordUrl(resource, target._id) })
        const label = `${className} referenced by ${ref.owner}.${ref.field}`
        t.equal(refused.statusCode, 409, label)
        t.match(refused.json().error, referrer._id, `${label}: the referrer is named`)
        t.equal(refused.json().code, 'ADKS_RECORD_REFERENCED', `${label}: the referrer is named`)
        t.same(await fx.read(resource, target._id), target, `${label}: nothing is deleted`)
        const ownerResource = fx.resourceOf(ref.owner)
        t.equal((await admin({ method: 'DELETE', url: recordUrl(ownerResource, referrer._id) })).statusCode, 200)
        t.equal((await admin({ method: 'DELETE', url: recordUrl(resource, target._id) })).statusCode, 200, `${label}: deletable once unreferenced`)

        if (ref.owner !== className || prop.kind === 'required') continue
        const selfish = await fx.create(className)
        const pointed = await admin({ method: 'PUT', url: recordUrl(resource, selfish._id), payload: { [ref.field]: prop.kind === 'optional' ? selfish._id : [selfish._id] } })
        t.equal(pointed.statusCode, 200, `${label}: a record may reference itself`)
        t.equal((await admin({ method: 'DELETE', url: recordUrl(resource, selfish._id) })).statusCode, 200, `${label}: its own reference does not block deleting it`)
      }
    }
  }
})

t.test('a second record with the same natural key or unique field is a 409', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const fx = new Fixtures(app, admin)
  for (const resource of app.schema.resources) {
    for (const className of resource.classes.filter((name) => keyFields(fx.cls(name)).length)) {
      const body = await fx.body(className)
      const first = await admin({ method: 'POST', url: resource.path, payload: body })
      const again = await admin({ method: 'POST', url: resource.path, payload: body })
      t.equal(first.statusCode, 201, `${className}: first create`)
      t.equal(again.statusCode, 409, `${className}: same key again`)
      t.match(again.json().error, /already exists/)
      t.equal(again.json().code, 'ADKS_DUPLICATE_RECORD')
    }
  }
  const person = { type: 'Staff', first_name: 'Ada', last_name: 'Byron', email: 'ada@dept.edu' }
  t.equal((await admin({ method: 'POST', url: '/api/people', payload: person })).statusCode, 201)
  const twin = await admin({ method: 'POST', url: '/api/people', payload: { ...person, type: 'Faculty' } })
  t.equal(twin.statusCode, 409)
  t.match(twin.json().error, /email/, 'the conflict names the unique field')
  t.equal(twin.json().code, 'ADKS_DUPLICATE_RECORD', 'the conflict names the unique field')
  const other = (await admin({ method: 'POST', url: '/api/people', payload: { ...person, email: 'other@dept.edu' } })).json().id
  const taken = await admin({ method: 'PUT', url: `/api/people/${other}`, payload: { email: 'ada@dept.edu' } })
  t.equal(taken.statusCode, 409)
  t.match(taken.json().error, /email/, 'an update into a taken unique value names the field')
  t.equal(taken.json().code, 'ADKS_DUPLICATE_RECORD', 'an update into a taken unique value names the field')
  t.equal((await admin({ method: 'GET', url: `/api/people/${other}` })).json().email, 'other@dept.edu', 'and changes nothing')
})
