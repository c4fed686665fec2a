import type { ValidateFunction } from 'ajv'
import t from 'tap'
import { isStored } from '../../src/schema/model.js'
import { buildTestApp } from '../helpers/app.js'
import { formAjv } from './form-ajv.js'
import { RecordFactory, idOf, type Body, type JsonSchema, type Outcome } from './record-factory.js'

interface Mutation {
  readonly label: string
  readonly field: string
  readonly body: Body
}

const badEnumValue = 'not_a_listed_value'

/** The non-null branch of an update property (`anyOf: [value, null]` where null removes the field). */
function valueBranch(schema: JsonSchema): JsonSchema {
  return schema.anyOf?.find((s) => s.type !== 'null') ?? schema
}

function isEnum(schema: JsonSchema): boolean {
  return Array.isArray(schema.enum) || Array.isArray(schema.items?.enum)
}

/**
 * Bodies one fault away from a valid one: a required field dropped, an enum given a value it does not
 * list (the record `type` when the class has no enum property), a number where a string belongs, and in
 * updates null for a required field.
 */
function mutations(schema: JsonSchema, valid: Body, variant: 'create' | 'update', required: readonly string[]): Mutation[] {
  const found: Mutation[] = []
  const props = Object.entries(schema.properties ?? {}).map(([name, s]) => [name, valueBranch(s)] as const)
  if (variant === 'create') {
    for (const field of required) {
      const { [field]: _dropped, ...rest } = valid
      found.push({ label: `without required ${field}`, field, body: rest })
    }
  } else {
    for (const field of required.filter((f) => f !== 'type')) found.push({ label: `${field} set to null`, field, body: { ...valid, [field]: null } })
  }
  const enums = props.filter(([name, s]) => name !== 'type' && isEnum(s))
  for (const [field, s] of enums.length ? enums : props.filter(([name]) => name === 'type')) {
    found.push({ label: `${field} outside its enum`, field, body: { ...valid, [field]: s.type === 'array' ? [badEnumValue] : badEnumValue } })
  }
  for (const [field, s] of props) {
    if (s.type === 'string' && !isEnum(s) && s.const === undefined && !field.startsWith('_')) {
      found.push({ label: `a number in string field ${field}`, field, body: { ...valid, [field]: 12345 } })
    }
  }
  return found
}

function errorsOf(validate: ValidateFunction): string {
  return JSON.stringify(validate.errors?.slice(0, 3))
}

t.test('every stored class: served schemas compile strictly and agree with what the API accepts and rejects', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('schema-admin@dept.edu', 'admin')
  const factory = new RecordFactory(app, admin)
  const ajv = formAjv()
  const stored = [...app.schema.model.classes.values()].filter((c) => isStored(c) && !c.abstract)
  t.ok(stored.length >= 15, `the schema has stored classes to walk (${stored.length})`)

  for (const cls of stored) {
    t.test(cls.name, async (t) => {
      const compiled: Partial<Record<'record' | 'create' | 'update', ValidateFunction>> = {}
      for (const variant of ['record', 'create', 'update'] as const) {
        const schema = await factory.schema(cls.name, variant)
        t.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#', `${variant}: draft-07`)
        t.match(schema.$id, new RegExp(`/api/schemas/${cls.name}(\\?variant=${variant})?$`), `${variant}: $id names the type`)
        t.equal(schema.title, cls.name, `${variant}: title`)
        t.equal(schema.description, cls.comment, `${variant}: description from @documentation`)
        t.doesNotThrow(() => { compiled[variant] = ajv.compile(schema) }, `${variant}: compiles with Ajv in strict mode`)
      }
      const { record, create, update } = compiled as Required<typeof compiled>
      const createSchema = await factory.schema(cls.name, 'create')

      for (const fill of ['required', 'full'] as const) {
        const body = await factory.body(cls.name, fill)
        t.ok(create(body), `${fill} body validates against the create schema ${errorsOf(create)}`)
        const created = await factory.create(cls.name, body)
        t.equal(created.status, 201, `${fill} body is accepted: ${JSON.stringify(created.body)}`)
        const read = await factory.read(cls.name, idOf(created))
        t.equal(read.status, 200, `${fill} record reads back`)
        t.ok(record(read.body), `${fill} record validates against the record schema ${errorsOf(record)}`)
        t.has(read.body, body, `${fill} record holds what was sent`)
      }

      const valid = await factory.body(cls.name, 'full')
      for (const mutation of mutations(createSchema, valid, 'create', createSchema.required ?? [])) {
        t.notOk(create(mutation.body), `create schema rejects a body ${mutation.label}`)
        const outcome: Outcome = await factory.create(cls.name, mutation.body)
        t.equal(outcome.status, 400, `the API rejects a body ${mutation.label}`)
        t.match(outcome.body.error, `'${mutation.field}`, `the error names ${mutation.field}`)
        t.equal(outcome.body.code, 'ADKS_VALIDATION_FAILED', `the error names ${mutation.field}`)
      }

      const id = idOf(await factory.create(cls.name, valid))
      const current = (await factory.read(cls.name, id)).body
      t.ok(update(current), `a record as read validates against the update schema ${errorsOf(update)}`)
      const rewritten = await factory.update(cls.name, id, current)
      t.equal(rewritten.status, 200, `a record as read is accepted back as an update: ${JSON.stringify(rewritten.body)}`)
      t.ok(record(rewritten.body), 'the updated record validates against the record schema')
      const change = await factory.body(cls.name, 'required')
      for (const field of cls.key.type === 'Lexical' || cls.key.type === 'Hash' ? cls.key.fields : []) delete change[field]
      t.ok(update(change), `a change of the required fields validates against the update schema ${errorsOf(update)}`)
      const changed = await factory.update(cls.name, id, change)
      t.equal(changed.status, 200, `the change is accepted: ${JSON.stringify(changed.body)}`)
      t.ok(record((await factory.read(cls.name, id)).body), 'the changed record validates against the record schema')

      const updateSchema = await factory.schema(cls.name, 'update')
      for (const mutation of mutations(updateSchema, {}, 'update', createSchema.required ?? [])) {
        t.notOk(update(mutation.body), `update schema rejects ${mutation.label}`)
        const outcome = await factory.update(cls.name, id, mutation.body)
        t.equal(outcome.status, 400, `the API rejects an update with ${mutation.label}`)
        t.match(outcome.body.error, `'${mutation.field}`, `the error names ${mutation.field}`)
        t.equal(outcome.body.code, 'ADKS_VALIDATION_FAILED', `the error names ${mutation.field}`)
      }
    })
  }
})
