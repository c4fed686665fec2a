import t from 'tap'
import type { ApiRecord } from '../../src/records/service.js'
import type { PropertyDef } from '../../src/schema/index.js'
import { keyFields } from '../../src/schema/keys.js'
import { buildTestApp } from '../helpers/app.js'
import { Fixtures, recordUrl, snapshot, type Body } from '../helpers/records.js'
import { refused } from '../helpers/refusals.js'

/** Values of the wrong kind for one item of a property, each with what the refusal should say. */
function wrongItems(fx: Fixtures, prop: PropertyDef): [string, unknown][] {
  const { target, constraints: c } = prop
  const wrong: [string, unknown][] = [['an operator object', { $gt: '' }]]
  switch (target.kind) {
    case 'enum': return [...wrong, ['an unknown enum value', 'not_a_value'], ['a number', 3]]
    case 'reference': {
      const concrete = fx.cls(target.name).concrete[0]!
      return [...wrong, ['a malformed id', 'no-slash'], ['an id of another class', 'Nope/x'], ['a dangling reference', `${concrete}/missing-record`]]
    }
    case 'subdocument': return [...wrong, ['a string', 'x'], ['an unknown field', { bogus: 1 }]]
    case 'scalar': break
  }
  switch (target.scalar) {
    case 'xsd:integer':
      return [...wrong, ['a numeric string', '7'], ['a fraction', 1.5], ...(c.maximum !== undefined ? [['too large', c.maximum + 1] as [string, unknown]] : [])]
    case 'xsd:decimal': return [...wrong, ['a string', 'x'], ...(c.minimum !== undefined ? [['too small', c.minimum - 1] as [string, unknown]] : [])]
    case 'xsd:boolean': return [...wrong, ['a string', 'yes']]
    case 'xsd:dateTime': case 'xsd:date': return [...wrong, ['not a date', 'yesterday']]
    case 'xsd:string':
      return [...wrong, ['a number', 42], ['too long', 'x'.repeat((c.maxLength ?? 1000) + 1)],
        ...(c.pattern || c.format ? [['a value out of shape', 'has spaces!'] as [string, unknown]] : [])]
  }
}

function wrongValues(fx: Fixtures, prop: PropertyDef): [string, unknown][] {
  const items = wrongItems(fx, prop)
  if (prop.kind === 'required' || prop.kind === 'optional') return [...items, ['null in a create', null]]
  return [['not an array', 'x'], ...items.map(([label, value]): [string, unknown] => [`${label} as an item`, [value]])]
}

const asJson = { 'content-type': 'application/json' }

t.test('every resource refuses bad ids, bodies and queries, and changes nothing', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const fx = new Fixtures(app, admin)
  const targets = new Map<string, ApiRecord>()
  const bodies = new Map<string, Body>()
  const keyChanges = new Map<string, Body>()
  for (const resource of app.schema.resources) {
    for (const name of resource.classes) {
      const target = await fx.create(name)
      targets.set(name, target)
      bodies.set(name, await fx.body(name, { full: true }))
      const cls = fx.cls(name)
      const changes: Body = {}
      // A field an admin may correct (a course's code) is no refusal for this admin; test/campus-sync/real-feeds.test.ts covers it.
      for (const field of keyFields(cls).filter((f) => !cls.metadata.correctable_key.includes(f))) {
        const prop = cls.properties.find((p) => p.name === field)!
        do changes[field] = await fx.value(cls, prop, fx.next(), 1)
        while (changes[field] === target[field])
      }
      keyChanges.set(name, changes)
    }
  }
  const before = await snapshot(app)

  for (const resource of app.schema.resources) {
    await t.test(`${resource.path}: ids`, async (t) => {
      const own = resource.classes[0]!
      const foreign = app.schema.resources.find((r) => r !== resource)!.classes[0]!
      const badIds: [string, string][] = [
        ['no type', 'no-slash'],
        ['another resource\'s type', `${foreign}/x`],
        ['an unknown type', 'Nope/x'],
        ['characters outside the key alphabet', `${own}/a b!`],
        ['an overlong key', `${own}/${'k'.repeat(161)}`],
        ['an empty key', `${own}/`],
        ...(resource.root.abstract ? [['an abstract type', `${resource.root.name}/x`] as [string, string]] : []),
      ]
      const routes = [['GET', '', 'GET'], ['PUT', '', 'PUT'], ['DELETE', '', 'DELETE'],
        ...resource.root.metadata.related.map((r) => ['GET', `/${r.path}`, `GET /${r.path}`])] as const
      for (const [method, suffix, route] of routes) {
        // A PUT carries a valid (empty) body, so only the id or query can be at fault.
        const send = (url: string) => admin({ method, url, ...(method === 'PUT' ? { payload: {} } : {}) })
        for (const [label, id] of badIds) {
          refused(t, await send(`${resource.path}/${encodeURIComponent(id)}${suffix}`), 400, /'id'/, `${route} with ${label}`)
        }
        for (const id of [`${foreign}/x`, `${own}/${'k'.repeat(161)}`]) {
          refused(t, await send(`${resource.path}/${id}${suffix}`), 400, /'id'/, `${route} with ${id.slice(0, 40)} as two segments`)
        }
        const missing = `${own}/does-not-exist`
        for (const form of ['encoded', 'segments'] as const) {
          refused(t, await send(recordUrl(resource, missing, form, suffix)), 404, missing, `${route} with a well-formed unknown id, ${form}`)
        }
        refused(t, await send(`${resource.path}/${own}%2F${'k'.repeat(400)}${suffix}`), 414, /long/i, `${route} with an id longer than a path parameter may be`)
        refused(t, await send(`${resource.path}/%E0%A4%A${suffix}`), 400, /URL/, `${route} with broken percent-encoding`)
        const existing = recordUrl(resource, targets.get(own)!._id, 'encoded', suffix)
        refused(t, await send(`${existing}?search%5B%24ne%5D=x`), 400, /search\[\$ne\]/, `${route} with an operator in the query`)
        refused(t, await send(`${existing}?${encodeURIComponent('_id')}=x`), 400, /'_id'/, `${route} with an unknown query parameter`)
      }
    })

    for (const className of resource.classes) {
      await t.test(`${resource.path}: ${className} bodies`, async (t) => {
        const cls = fx.cls(className)
        const valid = bodies.get(className)!
        const url = recordUrl(resource, targets.get(className)!._id)
        const writes = [['POST', resource.path], ['PUT', url]] as const
        for (const prop of cls.properties) {
          for (const [label, value] of wrongValues(fx, prop)) {
            for (const [method, target] of writes) {
              if (method === 'PUT' && label === 'null in a create') continue
              refused(t, await admin({ method, url: target, payload: { ...valid, [prop.name]: value } }), 400, `'${prop.name}`, `${method} ${prop.name} as ${label}`)
            }
          }
        }
        for (const [method, target] of writes) {
          refused(t, await admin({ method, url: target, payload: { ...valid, bogus_field: 1 } }), 400, /'bogus_field'/, `${method} an unknown field`)
          refused(t, await admin({ method, url: target, payload: [valid] }), 400, /body/, `${method} an array body`)
          refused(t, await admin({ method, url: target, payload: 'null', headers: asJson }), 400, /body/, `${method} a null body`)
          refused(t, await admin({ method, url: target, payload: '', headers: asJson }), 400, /empty/i, `${method} an empty body`)
          refused(t, await admin({ method, url: target, payload: '{"title": "x",', headers: asJson }), 400, /JSON/, `${method} invalid JSON`)
          for (const poison of ['{"__proto__": {"admin": true}}', '{"constructor": {"prototype": {"admin": true}}}', '{"bio": {"nested": {"__proto__": {}}}}']) {
            refused(t, await admin({ method, url: target, payload: poison, headers: asJson }), 400, /__proto__|constructor/, `${method} ${poison}`)
          }
          for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', '']) {
            refused(t, await admin({ method, url: target, payload: 'a=b', headers: { 'content-type': type } }), 415, /Content-Type/, `${method} as ${type || 'no content type'}`)
          }
          const huge = JSON.stringify({ ...valid, description: 'x'.repeat(app.config.bodyLimit) })
          refused(t, await admin({ method, url: target, payload: huge, headers: asJson }), 413, /limit/, `${method} a body over the limit`)
        }
        refused(t, await admin({ method: 'POST', url: resource.path, payload: { ...valid, $where: 'sleep(100)' } }), 400, /'\$where'/, 'POST with an operator as a field')
        const strangerType = app.schema.resources.find((r) => r !== resource)!.classes[0]!
        refused(t, await admin({ method: 'POST', url: resource.path, payload: { ...valid, type: strangerType } }), 400, /'type'/, 'POST with another resource\'s type')
        const siblingFields = resource.classes.flatMap((name) => fx.cls(name).properties)
          .filter((p) => !cls.properties.some((q) => q.name === p.name))
        for (const prop of siblingFields) {
          const payload = { [prop.name]: prop.kind === 'optional' || prop.kind === 'required' ? null : [] }
          refused(t, await admin({ method: 'PUT', url, payload }), 400, `'${prop.name}'`, `PUT ${prop.name}, a field of another ${resource.root.name} type`)
        }
        refused(t, await admin({ method: 'POST', url: resource.path, payload: { ...valid, _id: `${className}/chosen` } }), 400, /'_id'/, 'POST with _id')
        refused(t, await admin({ method: 'POST', url: resource.path, payload: { ...valid, _version: 1 } }), 400, /'_version'/, 'POST with _version')
        const required = cls.properties.filter((p) => p.kind === 'required')
        for (const prop of required) {
          const { [prop.name]: _dropped, ...rest } = valid
          refused(t, await admin({ method: 'POST', url: resource.path, payload: rest }), 400, `'${prop.name}'`, `POST without ${prop.name}`)
          refused(t, await admin({ method: 'PUT', url, payload: { [prop.name]: null } }), 400, `'${prop.name}'`, `PUT ${prop.name}: null`)
        }
        for (const [field, changed] of Object.entries(keyChanges.get(className)!)) {
          refused(t, await admin({ method: 'PUT', url, payload: { [field]: changed } }), 400, `'${field}'`, `PUT changing key field ${field}`)
        }
        const other = resource.classes.find((name) => name !== className)
        refused(t, await admin({ method: 'PUT', url, payload: { _id: `${className}/someone-else` } }), 400, /'_id'/, 'PUT with another record\'s _id')
        if (other) refused(t, await admin({ method: 'PUT', url, payload: { type: other } }), 400, /'type'/, 'PUT changing the type')
        refused(t, await admin({ method: 'PUT', url, headers: { 'if-match': '*' }, payload: {} }), 400, /if-match/i, 'PUT with an If-Match that is not a version')
        refused(t, await admin({ method: 'PUT', url, headers: { 'if-match': '"1"' }, payload: { _version: 2 } }), 400, /_version/, 'PUT whose _version and If-Match disagree')
      })
    }

    await t.test(`${resource.path}: list queries`, async (t) => {
      const list = (query: string) => admin({ method: 'GET', url: `${resource.path}?${query}` })
      for (const limit of ['0', '201', '-1', 'abc', '1.5', '', '1e3']) refused(t, await list(`limit=${limit}`), 400, /'limit'/, `limit=${limit}`)
      for (const offset of ['-1', 'x', '1000001']) refused(t, await list(`offset=${offset}`), 400, /'offset'/, `offset=${offset}`)
      refused(t, await list('limit=5&limit=6'), 400, /'limit'/, 'limit given twice')
      refused(t, await list('bogus=1'), 400, /'bogus'/, 'an unknown parameter')
      for (const param of [...Object.keys(resource.root.metadata.filters), 'search', 'sort']) {
        refused(t, await list(`${param}%5B%24ne%5D=x`), 400, `'${param}[$ne]'`, `${param}[$ne]=x`)
        refused(t, await list(`${param}%5B%24gt%5D=`), 400, `'${param}[$gt]'`, `${param}[$gt]=`)
      }
      for (const [param, meaning] of Object.entries(resource.root.metadata.filters)) {
        refused(t, await list(`${param}=a&${param}=b`), 400, `'${param}'`, `${param} given twice`)
        if (meaning === '@search') continue
        refused(t, await list(`${param}=${encodeURIComponent('{"$gt":""}')}`), 400, `'${param}'`, `${param} as JSON text`)
      }
      const cls = resource.root
      const unsortable = cls.properties.find((p) => !cls.metadata.sortable.includes(p.name) && !cls.metadata.default_sort.some((f) => f.replace(/^-/, '') === p.name))
      if (unsortable) refused(t, await list(`sort=${unsortable.name}`), 400, new RegExp(`sort.*'${unsortable.name}'`), `sort=${unsortable.name} (not sortable)`)
      refused(t, await list('sort=no_such_field'), 400, /no_such_field/, 'sort on an unknown field')
      for (const sort of ['$where', 'a,,b', 'NAME', '-', 'a,b,c,d,e,f']) refused(t, await list(`sort=${encodeURIComponent(sort)}`), 400, /'sort'/, `sort=${sort}`)
    })
  }

  await t.test('filters with values out of shape', async (t) => {
    const cases: [string, string][] = [
      ['/api/people?type=Nope', "'type'"], ['/api/people?type=Person', "'type'"], ['/api/people?type=Course', "'type'"],
      ['/api/people?search=' + 'a'.repeat(201), "'search'"],
      ['/api/courses?department=c%24', "'department'"], ['/api/courses?department=CS101', "'department'"],
      ['/api/courses?term=2025', "'term'"], ['/api/courses?term=25X', "'term'"],
      ['/api/courses?level=350', "'level'"], ['/api/courses?level=1000', "'level'"], ['/api/courses?level=abc', "'level'"],
      ['/api/courses?level=%7B%22%24ne%22%3A1%7D', "'level'"],
      ['/api/publications?year=abc', "'year'"], ['/api/publications?year=1700', "'year'"],
      ['/api/publications?author=Course%2FCS-101', "'author'"], ['/api/publications?author=nobody', "'author'"],
      ['/api/degrees?degree_type=XYZ', "'degree_type'"],
    ]
    for (const [url, mention] of cases) refused(t, await admin({ method: 'GET', url }), 400, mention, url)
  })

  t.same(await snapshot(app), before, 'no refused request changed the store')
})
