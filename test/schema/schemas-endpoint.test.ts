import t from 'tap'
import type { ClassDef } from '../../src/schema/model.js'
import { markDefaults, markSystemFields, titleProperties } from '../../src/schema/titles.js'
import { buildTestApp } from '../helpers/app.js'
import { formAjv } from './form-ajv.js'
import type { JsonSchema } from './record-factory.js'

t.test('/api/schemas', async (t) => {
  const { app, as } = await buildTestApp(t)
  const user = as('reader@dept.edu', 'user')
  const { classes, enums } = app.schema.model
  const get = async (url: string) => {
    const response = await user({ method: 'GET', url })
    return { status: response.statusCode, body: response.json() }
  }
  const served = async (name: string, variant = 'record') => {
    const { status, body } = await get(`/api/schemas/${name}?variant=${variant}`)
    if (status !== 200) throw new Error(`${name} ${variant}: ${status}`)
    return body as JsonSchema
  }

  t.test('needs a signed-in caller', async (t) => {
    t.equal((await app.inject({ method: 'GET', url: '/api/schemas' })).statusCode, 401)
    t.equal((await app.inject({ method: 'GET', url: '/api/schemas/Course' })).statusCode, 401)
  })

  t.test('the list names every class and enum with its place in the hierarchy', async (t) => {
    const { status, body } = await get('/api/schemas')
    t.equal(status, 200)
    t.equal(body.total, body.items.length)
    t.same(body.items.map((i: { name: string }) => i.name).sort(), [...classes.keys(), ...enums.keys()].sort())
    for (const item of body.items) {
      const cls = classes.get(item.name)
      if (!cls) {
        t.same(Object.keys(item).sort(), ['description', 'kind', 'name'], `${item.name}: an enum entry`)
        t.equal(item.kind, 'Enum')
        continue
      }
      t.equal(item.kind, 'Class', `${cls.name}: kind`)
      t.equal(item.abstract, cls.abstract, `${cls.name}: abstract`)
      t.same(item.inherits, cls.parents, `${cls.name}: inherits`)
      t.same(item.subclasses.sort(), [...classes.values()].filter((c) => c.parents.includes(cls.name)).map((c) => c.name).sort(), `${cls.name}: subclasses`)
      t.equal(item.collection, cls.subdocument ? undefined : cls.metadata.collection, `${cls.name}: collection`)
      if (!cls.abstract) t.equal(item.path, app.schema.resourceOf(cls.name)?.path, `${cls.name}: path of the resource serving it`)
    }
    const person = body.items.find((i: { name: string }) => i.name === 'Person')
    t.same(person.subclasses.sort(), ['Faculty', 'Staff', 'Student'])
  })

  t.test('?format=summary gives names, kinds and property names only', async (t) => {
    const { status, body } = await get('/api/schemas?format=summary')
    t.equal(status, 200)
    t.equal(body.items.length, classes.size + enums.size)
    for (const item of body.items) {
      t.same(Object.keys(item).sort(), ['kind', 'name', 'properties'], `${item.name}: compact`)
      t.same(item.properties, classes.get(item.name)?.properties.map((p) => p.name) ?? [], `${item.name}: property names`)
    }
    t.equal((await get('/api/schemas?format=everything')).status, 400)
  })

  t.test('enums are served as string schemas', async (t) => {
    const degreeType = await served('DegreeType')
    t.match(degreeType, { $schema: 'http://json-schema.org/draft-07/schema#', $id: /\/api\/schemas\/DegreeType$/, type: 'string', title: 'DegreeType', description: 'Kind of degree' })
    t.same(degreeType.enum, enums.get('DegreeType')!.values)
    const validate = formAjv().compile(degreeType)
    t.ok(validate('PhD'))
    t.notOk(validate('Doctorate'))
    for (const e of enums.values()) {
      const schema = await served(e.name)
      t.same(schema.enum, e.values, `${e.name}: values`)
      t.equal(schema.description, e.comment, `${e.name}: description`)
    }
  })

  t.test('unknown or malformed names and variants', async (t) => {
    const unknown = await get('/api/schemas/Spaceship')
    t.same(unknown, { status: 404, body: { success: false, error: 'no class or enum named Spaceship', statusCode: 404, code: 'ADKS_SCHEMA_NOT_FOUND' } })
    t.equal((await get('/api/schemas/course')).status, 400, 'lowercase is not a type name')
    const badVariant = await get('/api/schemas/Course?variant=draft')
    t.equal(badVariant.status, 400)
    t.match(badVariant.body.error, 'variant')
    t.equal(badVariant.body.code, 'ADKS_VALIDATION_FAILED')
  })

  t.test('an abstract class is served as the merged schema of its concrete classes', async (t) => {
    const ajv = formAjv()
    for (const name of ['Person', 'Student']) {
      const root = classes.get(name)!
      const record = await served(name)
      t.equal(record.title, name)
      t.equal(record.description, root.comment)
      const properties = record.properties!
      for (const concrete of root.concrete) {
        for (const prop of classes.get(concrete)!.properties) t.ok(properties[prop.name], `${name} has ${concrete}.${prop.name}`)
      }
      t.same(properties.type!.enum, root.concrete, `${name}: type lists the concrete classes`)
      const id = new RegExp(properties._id!.pattern!)
      for (const concrete of root.concrete) t.match(`${concrete}/abc`, id, `${name}: _id admits ${concrete} ids`)
      t.notMatch(`${name}/abc`, id, `${name}: no ids of the abstract class itself`)
      t.doesNotThrow(() => ajv.compile(record))

      const create = await served(name, 'create')
      t.same(create.discriminator, { propertyName: 'type' })
      t.same(create.oneOf!.map((s) => s.title), root.concrete)
      const validate = ajv.compile(create)
      t.ok(validate({ type: root.concrete[0], first_name: 'Ada', last_name: 'Lovelace' }), `${name} create admits a concrete type`)
      t.notOk(validate({ type: name, first_name: 'Ada', last_name: 'Lovelace' }), `${name} create refuses the abstract type`)
      t.notOk(validate({ first_name: 'Ada', last_name: 'Lovelace' }), `${name} create needs a type`)
    }
  })

  t.test('every class schema documents itself and its properties', async (t) => {
    for (const cls of classes.values()) {
      for (const variant of cls.subdocument ? ['record'] : ['record', 'create', 'update']) {
        const schema = await served(cls.name, variant)
        t.ok(schema.title, `${cls.name} ${variant}: title`)
        t.equal(schema.description, cls.abstract && variant === 'create' ? `${cls.comment} The \`type\` field picks the kind of record.` : cls.comment, `${cls.name} ${variant}: description`)
        if (cls.abstract && variant === 'create') continue
        for (const prop of cls.properties) t.equal(schema.properties![prop.name]!.description, prop.description, `${cls.name}.${prop.name} (${variant}): description`)
        for (const [name, property] of Object.entries(schema.properties!)) {
          const title = (property as { title?: unknown }).title
          t.ok(typeof title === 'string' && title.length > 0 && !title.includes('_'), `${cls.name}.${name} (${variant}): a title in words, ${String(title)}`)
        }
      }
    }
  })

  t.test('each schema is sent whole: the typed answer schema drops and changes no keyword, at any depth', async (t) => {
    // What the route derives, built here apart from it; the serializer writes the answer by the response
    // schema, which would leave out a keyword it does not allow, or coerce one it types otherwise.
    const names = [...classes.keys(), ...enums.keys()]
    let compared = 0
    for (const name of names) {
      for (const variant of ['record', 'create', 'update'] as const) {
        const derived = app.schema.schemaOf(name, variant)
        if (!derived) continue
        const id = `${app.config.publicUrl}/api/schemas/${name}${variant === 'record' ? '' : `?variant=${variant}`}`
        const expected = { $schema: 'http://json-schema.org/draft-07/schema#', $id: id, ...JSON.parse(JSON.stringify(derived)) as object }
        titleProperties(expected)
        // And, in the create variant, the fields the class's metadata says the system keeps marked readOnly.
        if (variant === 'create') markSystemFields(expected, (className) => classes.get(className)?.metadata.system_fields ?? [])
        // And in every variant, what an absent field means as its default.
        markDefaults(expected, (className) => classes.get(className)?.metadata.defaults ?? {})
        const response = await user({ method: 'GET', url: `/api/schemas/${name}?variant=${variant}` })
        t.equal(response.statusCode, 200, `${name} ${variant}`)
        const body = response.json() as JsonSchema
        t.strictSame(body, expected, `${name} ${variant}: every keyword, as derived`)
        t.same(Object.keys(body.properties ?? {}), Object.keys((expected as JsonSchema).properties ?? {}), `${name} ${variant}: properties in their order`)
        compared++
      }
    }
    t.equal(compared, 3 * names.length, 'every class and enum, each variant')
    const marked = (await user({ method: 'GET', url: '/api/schemas/Course?variant=create' })).json() as JsonSchema
    t.equal((marked.properties!.source as { readOnly?: unknown }).readOnly, true, 'a field the metadata names as system-kept is marked readOnly')
    const update = (await user({ method: 'GET', url: '/api/schemas/Course?variant=update' })).json() as JsonSchema
    t.equal((update.properties!.active as { default?: unknown }).default, true, 'an absent active means active: its default, for the edit form to show')
    const openapi = (await app.inject({ method: 'GET', url: '/documentation/json' })).json()
    const answer = openapi.paths['/api/schemas/{entityType}'].get.responses['200'].content['application/json'].schema
    t.same(answer, { $ref: '#/components/schemas/JsonSchema' }, 'the OpenAPI document types the answer as a JSON Schema')
    t.match(openapi.components.schemas.JsonSchema, { type: 'object', required: ['$schema', 'title', 'type'], properties: { properties: { additionalProperties: { $ref: '#/components/schemas/JsonSchemaProperty' } } } })
  })

  t.test('a property\'s title is its name in words; its description stays the documentation', async (t) => {
    const course = await served('Course', 'create')
    t.match(course.properties, { course_code: { title: 'Course code' }, credits: { title: 'Credits', description: 'Credit hours' } })
    const student = await served('UndergraduateStudent', 'update')
    t.match(student.properties, { campus_id: { title: 'Campus ID' }, _version: { title: 'Version' } })
    const openapi = (await app.inject({ method: 'GET', url: '/documentation/json' })).json()
    t.notOk(openapi.components.schemas.CourseCode, 'the titles stay out of the OpenAPI document\'s components')
    t.equal(openapi.components.schemas.Course.properties.course_code.title, undefined)
  })

  t.test('Sets are unique arrays; Lists are plain arrays; references carry a pattern and x-reference', async (t) => {
    const valueOf = (schema: JsonSchema) => schema.anyOf?.find((s) => s.type !== 'null') ?? schema
    const concrete = [...classes.values()].filter((c) => !c.abstract && !c.subdocument).map((c) => c.name)
    let sets = 0
    let references = 0
    for (const cls of classes.values() as Iterable<ClassDef>) {
      for (const variant of cls.subdocument ? ['record'] : ['record', 'update']) {
        const schema = await served(cls.name, variant)
        for (const prop of cls.properties) {
          const value = valueOf(schema.properties![prop.name]!)
          const label = `${cls.name}.${prop.name} (${variant})`
          if (prop.kind === 'set' || prop.kind === 'list' || prop.kind === 'array') {
            t.equal(value.type, 'array', `${label}: an array`)
            t.equal(value.uniqueItems, prop.kind === 'set' ? true : undefined, `${label}: uniqueItems only for a Set`)
            if (prop.kind === 'set') sets++
          }
          if (prop.target.kind !== 'reference') continue
          references++
          const item = value.type === 'array' ? value.items! : value
          t.equal(item['x-reference'], prop.target.name, `${label}: x-reference`)
          t.equal(item.type, 'string', `${label}: a string`)
          const pattern = new RegExp(item.pattern!)
          const targets = classes.get(prop.target.name)!.concrete
          for (const name of concrete) {
            t.equal(pattern.test(`${name}/id-1`), targets.includes(name), `${label}: ${name} ids ${targets.includes(name) ? 'admitted' : 'refused'}`)
          }
          t.notMatch('id-1', pattern, `${label}: a bare identifier is refused`)
        }
      }
    }
    t.ok(sets > 10 && references > 10, `Sets (${sets}) and references (${references}) were checked`)
  })
})
