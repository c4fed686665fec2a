import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { compileSchema, SchemaError } from '../../src/schema/index.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'

type Definition = Record<string, unknown>

/** A small schema that compiles: one stored, routed class and an enum. */
function thing(overrides: Definition = {}): Definition {
  return {
    '@type': 'Class', '@id': 'Thing', '@key': { '@type': 'Random' },
    '@documentation': { '@comment': 'A thing', '@properties': { name: 'Name', kind: 'Kind of thing', size: 'Size' } },
    '@metadata': { collection: 'things', path: '/api/things', permissions: { read: 'read_labs', write: 'write_labs' } },
    name: 'xsd:string',
    kind: { '@type': 'Optional', '@class': 'ThingKind' },
    size: { '@type': 'Optional', '@class': 'xsd:integer' },
    ...overrides,
  }
}

const thingKind: Definition = { '@type': 'Enum', '@id': 'ThingKind', '@documentation': { '@comment': 'Kind of thing' }, '@value': ['big', 'small'] }

function documented(id: string, comment: string, properties: Record<string, string> = {}) {
  return { '@documentation': { '@comment': comment, '@properties': properties }, '@id': id }
}

interface Case {
  readonly fault: string
  /** File name to contents: definitions, or raw text. */
  readonly files: Record<string, Definition[] | string>
  readonly file: string
  readonly definition?: string
  readonly detail: RegExp
}

const cases: Case[] = [
  {
    fault: 'unknown class in a property',
    files: { 'things.json': [thing({ owner: 'Owner', '@documentation': { '@comment': 'A thing', '@properties': { name: 'Name', kind: 'Kind', size: 'Size', owner: 'Owner' } } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /property owner: unknown type Owner/,
  },
  {
    fault: 'unknown scalar type',
    files: { 'things.json': [thing({ size: { '@type': 'Optional', '@class': 'xsd:float' } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /property size: unknown type xsd:float/,
  },
  {
    fault: 'bad kind',
    files: { 'things.json': [thing({ size: { '@type': 'Maybe', '@class': 'xsd:integer' } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /property size: @type must be Optional, Set, List or Array/,
  },
  {
    fault: 'cycle in @inherits',
    files: {
      'things.json': [thing(), thingKind],
      'cycle.json': [
        { '@type': 'Class', '@abstract': [], '@inherits': 'Beta', ...documented('Alpha', 'First') },
        { '@type': 'Class', '@abstract': [], '@inherits': 'Alpha', ...documented('Beta', 'Second') },
      ],
    },
    file: 'cycle.json', definition: 'Beta', detail: /@inherits cycle: Alpha -> Beta -> Alpha/,
  },
  {
    fault: 'unknown class in @inherits',
    files: { 'things.json': [thing({ '@inherits': 'Gadget' }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /@inherits names unknown class Gadget/,
  },
  {
    fault: 'enum without @value',
    files: { 'things.json': [thing(), { ...thingKind, '@value': undefined }] },
    file: 'things.json', definition: 'ThingKind', detail: /an Enum needs @value/,
  },
  {
    fault: 'unknown @metadata key',
    files: { 'things.json': [thing({ '@metadata': { collection: 'things', colour: 'red' } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /@metadata\/colour: Unexpected property/,
  },
  {
    fault: 'system_fields naming no property',
    files: { 'things.json': [thing({ '@metadata': { collection: 'things', path: '/api/things', permissions: { read: 'read_labs', write: 'write_labs' }, system_fields: ['colour'] } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /@metadata system_fields names colour, which is not a property/,
  },
  {
    fault: 'defaults naming a required property',
    files: { 'things.json': [thing({ '@metadata': { collection: 'things', path: '/api/things', permissions: { read: 'read_labs', write: 'write_labs' }, defaults: { name: 'x' } } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /defaults name name, which is not an optional property/,
  },
  {
    fault: 'a default of the wrong type',
    files: { 'things.json': [thing({ '@metadata': { collection: 'things', path: '/api/things', permissions: { read: 'read_labs', write: 'write_labs' }, defaults: { size: 'large' } } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /defaults on size: "large" is not a value of xsd:integer/,
  },
  {
    fault: 'a default outside its enum',
    files: { 'things.json': [thing({ '@metadata': { collection: 'things', path: '/api/things', permissions: { read: 'read_labs', write: 'write_labs' }, defaults: { kind: 'huge' } } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /defaults on kind: "huge" is not a value of ThingKind/,
  },
  {
    fault: 'a default its constraints refuse',
    files: { 'things.json': [thing({ '@metadata': { collection: 'things', path: '/api/things', permissions: { read: 'read_labs', write: 'write_labs' }, constraints: { size: { minimum: 1 } }, defaults: { size: 0 } } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /defaults on size: 0 is not a value of xsd:integer/,
  },
  {
    fault: 'property name not snake_case',
    files: { 'things.json': [thing({ shelfLife: { '@type': 'Optional', '@class': 'xsd:integer' } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /property name shelfLife must be snake_case/,
  },
  {
    fault: 'class without @documentation',
    files: { 'things.json': [thing({ '@documentation': undefined, name: undefined, kind: undefined, size: undefined }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /@documentation\.@comment is required/,
  },
  {
    fault: 'property without @documentation',
    files: { 'things.json': [thing({ '@documentation': { '@comment': 'A thing', '@properties': { name: 'Name', kind: 'Kind' } } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /property size has no @documentation/,
  },
  {
    fault: 'enum without @documentation',
    files: { 'things.json': [thing(), { ...thingKind, '@documentation': undefined }] },
    file: 'things.json', definition: 'ThingKind', detail: /@documentation\.@comment is required/,
  },
  {
    fault: 'string constraint on a number',
    files: { 'things.json': [thing({ '@metadata': { collection: 'things', constraints: { size: { pattern: '^[0-9]+$' } } } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /constraints on size: pattern, format and lengths apply to strings only/,
  },
  {
    fault: 'number constraint on a string',
    files: { 'things.json': [thing({ '@metadata': { collection: 'things', constraints: { name: { minimum: 1 } } } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /constraints on name: minimum and maximum apply to numbers only/,
  },
  {
    fault: 'maxItems on a single value',
    files: { 'things.json': [thing({ '@metadata': { collection: 'things', constraints: { name: { maxItems: 3 } } } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /constraints on name: maxItems applies to Set, List and Array only/,
  },
  {
    fault: 'a path without permissions',
    files: { 'things.json': [thing({ '@metadata': { collection: 'things', path: '/api/things' } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /a class with a path needs @metadata\.permissions/,
  },
  {
    fault: 'a reference to an unstored class',
    files: {
      'things.json': [thing({ idea: 'Idea', '@documentation': { '@comment': 'A thing', '@properties': { name: 'Name', kind: 'Kind', size: 'Size', idea: 'The idea' } } }), thingKind],
      'ideas.json': [{ '@type': 'Class', '@abstract': [], ...documented('Idea', 'An idea nobody stores') }],
    },
    file: 'things.json', definition: 'Thing', detail: /property idea references Idea, which is not stored in a collection/,
  },
  {
    fault: 'conflicting property types within one collection',
    files: {
      'things.json': [thing(), thingKind],
      'gizmos.json': [{
        '@type': 'Class', '@key': { '@type': 'Random' }, '@metadata': { collection: 'things' }, size: 'xsd:string',
        ...documented('Gizmo', 'A gizmo kept with the things', { size: 'Size as text' }),
      }],
    },
    file: 'things.json', definition: 'Thing', detail: /property size differs from Gizmo\.size in collection things/,
  },
  {
    fault: 'a concrete class without a collection',
    files: { 'things.json': [thing({ '@metadata': undefined }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /a concrete class needs @metadata\.collection/,
  },
  {
    fault: 'the same @id twice',
    files: { 'things.json': [thing(), thingKind], 'more.json': [thingKind] },
    file: 'things.json', definition: 'ThingKind', detail: /also defined in more\.json/,
  },
  {
    fault: 'a Lexical key on an optional field',
    files: { 'things.json': [thing({ '@key': { '@type': 'Lexical', '@fields': ['size'] } }), thingKind] },
    file: 'things.json', definition: 'Thing', detail: /@key field size must be a required property/,
  },
  {
    fault: 'invalid JSON',
    files: { 'things.json': [thing(), thingKind], 'broken.json': '[{ "@type": "Class", "@id": "Broken", }]' },
    file: 'broken.json', detail: /not valid JSON/,
  },
  {
    fault: 'a file that is not an array',
    files: { 'things.json': [thing(), thingKind], 'object.json': '{ "@type": "Class" }' },
    file: 'object.json', detail: /must hold a JSON array of definitions/,
  },
]

async function schemaDir(t: Test, files: Record<string, Definition[] | string>): Promise<string> {
  const dir = await tempDir(t)
  for (const [name, contents] of Object.entries(files)) {
    await writeFile(join(dir, name), typeof contents === 'string' ? contents : JSON.stringify(contents, null, 2))
  }
  return dir
}

t.test('the base schema of these cases compiles', async (t) => {
  const compiled = await compileSchema(await schemaDir(t, { 'things.json': [thing(), thingKind] }))
  t.same(compiled.resources.map((r) => r.path), ['/api/things'])
})

for (const c of cases) {
  t.test(c.fault, async (t) => {
    const dir = await schemaDir(t, c.files)
    const error = await compileSchema(dir).then(() => undefined, (e: unknown) => e)
    t.type(error, SchemaError, 'a SchemaError stops the build')
    const { message, file, definition } = error as SchemaError
    t.equal(file, c.file, 'it names the file')
    t.equal(definition, c.definition, 'it names the definition')
    const head = `schema error in ${c.file}${c.definition ? `, definition ${c.definition}` : ''}: `
    t.ok(message.startsWith(head), `the message starts with "${head}": ${message}`)
    t.match(message.slice(head.length), c.detail)
    t.notMatch(message, /\n/, 'one line')
  })
}

t.test('a permission the service does not know stops start-up with a schema error', async (t) => {
  const metadata = { collection: 'things', path: '/api/things', permissions: { read: 'read_things', write: 'write_labs' } }
  const dir = await schemaDir(t, { 'things.json': [thing({ '@metadata': metadata }), thingKind] })
  const error = await buildTestApp(t, { SCHEMA_DIR: dir }).then(() => undefined, (e: unknown) => e)
  t.type(error, SchemaError)
  t.match((error as Error).message, /^schema error in things\.json, definition Thing: @metadata\.permissions\.read: unknown permission read_things/)
})
