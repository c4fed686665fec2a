import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import { Type } from '@sinclair/typebox'
import t from 'tap'
import { answerSerializers } from '../../src/http/serializers.js'
import { pageOf } from '../../src/routes/shared.js'
import { freezeDeep } from '../../src/store/freeze.js'

const Person = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  tags: Type.Array(Type.String()),
  age: Type.Optional(Type.Integer()),
}, { additionalProperties: false })

const route = (schema: unknown) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' }) as never
/** Our serializer, its answer as text (it may answer with the bytes). */
const ours = (schema: unknown) => {
  const serialize = answerSerializers()!({}, {})(route(schema)) as (value: unknown) => string | Buffer
  return (value: unknown) => serialize(value).toString()
}
const plain = (schema: unknown) => SerializerSelector()({} as never, {} as never)(route(schema)) as unknown as (value: unknown) => string

const people = [
  { _id: 'P/1', name: 'Zoë "Z" Ångström', tags: ['a', 'b'], age: 40, _search: ['internal'] },
  { _id: 'P/2', name: 'Łukasz\nNowak', tags: [] },
]

t.test('a list answer is the same text fast-json-stringify gives, frozen items or not', async (t) => {
  const page = { items: people.map((p) => ({ ...p })), total: 7, limit: 2, offset: 4 }
  const expected = plain(pageOf(Person))(page)
  t.equal(ours(pageOf(Person))(page), expected, 'plain objects')
  const frozen = { ...page, items: page.items.map((p) => freezeDeep({ ...p, tags: [...p.tags] })) }
  const serialize = ours(pageOf(Person))
  t.equal(serialize(frozen), expected, 'frozen items')
  t.equal(serialize(frozen), expected, 'frozen items again, from what was remembered')
  t.same(JSON.parse(serialize(frozen)).items[0], { _id: 'P/1', name: 'Zoë "Z" Ångström', tags: ['a', 'b'], age: 40 }, 'fields outside the schema are left out')
  t.equal(serialize({ ...frozen, items: [] }), plain(pageOf(Person))({ ...page, items: [] }), 'an empty page')
})

t.test('an object that is not frozen is encoded afresh each time', async (t) => {
  const serialize = ours(Person)
  const person = { ...people[0]! }
  const before = serialize(person)
  person.name = 'Changed'
  t.not(serialize(person), before)
  t.equal(JSON.parse(serialize(person)).name, 'Changed')
})

t.test('the envelope keeps its other fields required', async (t) => {
  const serialize = ours(pageOf(Person))
  t.throws(() => serialize({ items: [], limit: 1, offset: 0 }), /total/)
  const itemsOnly = ours(Type.Object({ items: Type.Array(Person), total: Type.Optional(Type.Integer()), limit: Type.Optional(Type.Integer()), offset: Type.Optional(Type.Integer()) }))
  t.same(JSON.parse(itemsOnly({ items: [people[1]] })), { items: [{ _id: 'P/2', name: 'Łukasz\nNowak', tags: [] }] }, 'with nothing besides items it is still JSON')
})

t.test('a schema that is not a list envelope is serialized as a whole', async (t) => {
  const Other = Type.Object({ items: Type.String(), total: Type.Integer() })
  t.equal(ours(Other)({ items: 'x', total: 1 }), plain(Other)({ items: 'x', total: 1 }))
})

t.test('a value frozen with freezeDeep, as a served JSON Schema is, is encoded once and then sent as the same bytes', async (t) => {
  const Open = Type.Object({}, { additionalProperties: true })
  const serialize = answerSerializers()!({}, {})(route(Open)) as (value: unknown) => string | Buffer
  const schema = { $id: 'x', properties: { name: { type: 'string', enum: ['a', 'b'] } }, required: ['name'] }
  const expected = plain(Open)(schema)
  const value = freezeDeep(schema)
  t.equal(value, schema, 'frozen in place')
  t.ok(Object.isFrozen(value.properties.name.enum), 'down to the innermost array')
  t.throws(() => { (value.properties.name.enum as string[]).push('c') }, TypeError, 'so no one can change what was encoded')
  const first = serialize(value)
  t.equal(first.toString(), expected)
  t.equal(serialize(value), first, 'the second answer reuses the first one\'s bytes')
})

t.test('a shallow-frozen object whose nested array changes is sent with its new content', async (t) => {
  const raw = answerSerializers()!({}, {})(route(Person)) as (value: unknown) => string | Buffer
  const list = ours(pageOf(Person))
  const tags = ['a']
  const person = Object.freeze({ _id: 'P/3', name: 'Shallow', tags })
  t.ok(Object.isFrozen(person), 'Object.isFrozen calls it frozen')
  t.same(JSON.parse(raw(person).toString()).tags, ['a'])
  t.same(JSON.parse(list({ items: [person], total: 1, limit: 1, offset: 0 })).items[0].tags, ['a'])
  tags.push('b')
  t.same(JSON.parse(raw(person).toString()).tags, ['a', 'b'], 'alone')
  t.same(JSON.parse(list({ items: [person], total: 1, limit: 1, offset: 0 })).items[0].tags, ['a', 'b'], 'as a list item')
})

t.test('freezeDeep reaches inside what was frozen only at its top level, and only then are the bytes remembered', async (t) => {
  const serialize = answerSerializers()!({}, {})(route(Person)) as (value: unknown) => string | Buffer
  const tags = ['a']
  const person = Object.freeze({ _id: 'P/4', name: 'Deep', tags })
  t.notOk(Buffer.isBuffer(serialize(person)), 'shallow-frozen: encoded afresh, as text')
  freezeDeep(person)
  t.ok(Object.isFrozen(tags), 'the nested array is frozen now')
  const remembered = serialize(person)
  t.ok(Buffer.isBuffer(remembered))
  t.equal(serialize(person), remembered, 'deeply frozen: the same bytes again')
  t.same(JSON.parse(remembered.toString()).tags, ['a'])
})
