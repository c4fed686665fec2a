import SwaggerParser from '@apidevtools/swagger-parser'
import { createConfig, lintFromString } from '@redocly/openapi-core'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import t, { type Test } from 'tap'
import ts from 'typescript'
import { allow } from '../../src/auth/permissions.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'

type Json = Record<string, unknown>
interface Parameter { name: string; in: string; required?: boolean; schema?: { default?: unknown } }
interface Operation { operationId?: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Json }> }; responses: Record<string, Json> }
interface Document { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Json>; responses: Record<string, Json> } }

async function documentOf(t: Test) {
  const built = await buildTestApp(t)
  const response = await built.app.inject({ method: 'GET', url: '/documentation/json' })
  t.equal(response.statusCode, 200)
  return { ...built, doc: response.json() as Document }
}

const operationsOf = (doc: Document) => Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ label: `${method.toUpperCase()} ${path}`, operation })))

t.test('the document validates as OpenAPI 3.1 with swagger-parser and with Redocly\'s recommended rules', async (t) => {
  const { doc } = await documentOf(t)
  t.match(doc.openapi, /^3\.1\./)
  // swagger-parser dereferences in place: it gets a copy.
  await t.resolves(SwaggerParser.validate(structuredClone(doc) as never), 'swagger-parser finds no error')
  const problems = await lintFromString({ source: JSON.stringify(doc), config: await createConfig({ extends: ['recommended'] }) })
  const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)
  t.same(errors, [], 'Redocly\'s recommended rules find no error')
  t.same(problems.filter((p) => p.ruleId === 'operation-operationId' || p.ruleId === 'operation-operationId-unique').length, 0, 'nor a missing or repeated operationId')
})

t.test('every operation has a unique operationId, derived from its method and path where the route gives none', async (t) => {
  const { doc } = await documentOf(t)
  const operations = operationsOf(doc)
  const missing = operations.filter(({ operation }) => !operation.operationId).map(({ label }) => label)
  t.same(missing, [], 'none is missing one')
  const ids = operations.map(({ operation }) => operation.operationId!)
  t.same(ids.filter((id, i) => ids.indexOf(id) !== i), [], 'none is repeated')
  t.ok(ids.every((id) => /^[a-z][A-Za-z0-9]*$/.test(id)), 'each is an identifier in camelCase')
  const idOf = (method: string, path: string) => doc.paths[path]?.[method]?.operationId
  t.equal(idOf('get', '/api/people'), 'listPeople')
  t.equal(idOf('get', '/api/people/{id}'), 'getPerson')
  t.equal(idOf('post', '/api/people'), 'createPerson')
  t.equal(idOf('put', '/api/research-centers/{id}'), 'updateResearchCenter')
  t.equal(idOf('delete', '/api/courses/{id}'), 'deleteCourse')
  t.equal(idOf('post', '/api/thesis/requests/{id}/approve'), 'approveThesisRequest')
  t.equal(idOf('get', '/api/fellowships/applications'), 'listFellowshipApplications')
  t.equal(idOf('get', '/api/award-nominations/nominations/{id}'), 'getAwardNomination')
})

t.test('every class of the schema is one component, and operations reference it instead of copying it', async (t) => {
  const { app, doc } = await documentOf(t)
  const { schemas } = doc.components
  for (const name of [...app.schema.model.classes.keys(), ...app.schema.model.enums.keys()]) t.ok(schemas[name], `${name} is a component`)
  const copies: string[] = []
  const walk = (node: unknown, at: string) => {
    if (typeof node !== 'object' || node === null) return
    if (typeof (node as Json).title === 'string') copies.push(`${String((node as Json).title)} at ${at}`)
    for (const [key, value] of Object.entries(node)) if (key !== 'default' && key !== 'examples') walk(value, `${at}/${key}`)
  }
  walk(doc.paths, '#/paths')
  t.same(copies, [], 'no titled schema is copied into an operation')
  const json = (operation: Operation | undefined, status: string) => (operation?.responses[status]?.content as Record<string, { schema: Json }> | undefined)?.['application/json']?.schema
  t.same(json(doc.paths['/api/courses/{id}']?.get, '200'), { $ref: '#/components/schemas/Course' }, 'a course is a Course')
  t.match(json(doc.paths['/api/people']?.get, '200'), { properties: { items: { items: { $ref: '#/components/schemas/Person' } } } }, 'a page of people holds Persons')
  t.match(schemas.Faculty, { properties: { appointment_type: { $ref: '#/components/schemas/AppointmentType' } } }, 'an enum property references its enum')

  const body = doc.paths['/api/people']!.post!.requestBody!.content['application/json']!.schema
  t.same(body, { $ref: '#/components/schemas/PersonCreate' }, 'POST /api/people takes a PersonCreate')
  const people = app.schema.class('Person')!.concrete
  t.same(schemas.PersonCreate!.oneOf, people.map((name) => ({ $ref: `#/components/schemas/${name}Create` })), 'which is a oneOf of references to each kind\'s create')
  t.same(schemas.PersonCreate!.discriminator, {
    propertyName: 'type', mapping: Object.fromEntries(people.map((name) => [name, `#/components/schemas/${name}Create`])),
  }, 'discriminated by type, with the mapping of each type to its schema')
})

t.test('parameters and body fields with a default are optional', async (t) => {
  const { doc, as } = await documentOf(t)
  const defaulted = operationsOf(doc).flatMap(({ label, operation }) => (operation.parameters ?? [])
    .filter((p) => p.schema?.default !== undefined && p.required).map((p) => `${label} ${p.name}`))
  t.same(defaulted, [], 'no parameter with a default is required')
  const paging = doc.paths['/api/people']!.get!.parameters!.filter((p) => p.name === 'limit' || p.name === 'offset')
  t.same(paging.map((p) => [p.name, p.required]), [['limit', false], ['offset', false]], 'limit and offset are optional')
  const keyBody = doc.paths['/api/api-keys']!.post!.requestBody!.content['application/json']!.schema as { required?: string[]; properties: Json }
  t.ok(keyBody.properties.expiresInDays, 'the key body has expiresInDays')
  t.notOk(keyBody.required?.includes('expiresInDays'), 'which is not required')
  // And the service agrees: both are answered without them.
  const faculty = as('optional@dept.example.edu', 'faculty')
  t.equal((await faculty({ method: 'GET', url: '/api/people' })).statusCode, 200)
  t.equal((await faculty({ method: 'POST', url: '/api/api-keys', payload: { name: 'defaults', permissions: ['read_people'] } })).statusCode, 201)
})

t.test('openapi-typescript makes types a client imports by class name', async (t) => {
  const { doc } = await documentOf(t)
  const source = astToString(await openapiTS(structuredClone(doc) as never))
  const dir = await tempDir(t)
  await writeFile(join(dir, 'api.d.ts'), source)
  const client = (body: string) => `import type { components, operations } from './api.js'\n${body}\n`
  /** Type errors of each client, checked in one program: the generated file itself is taken as it is. */
  const compile = async (clients: Record<string, string>) => {
    for (const [name, body] of Object.entries(clients)) await writeFile(join(dir, `${name}.ts`), client(body))
    const program = ts.createProgram(Object.keys(clients).map((name) => join(dir, `${name}.ts`)), {
      strict: true, noEmit: true, skipLibCheck: true, types: [],
      module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022,
    })
    return Object.fromEntries(Object.keys(clients).map((name) => [name, ts.getPreEmitDiagnostics(program, program.getSourceFile(join(dir, `${name}.ts`)))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))]))
  }
  const uses = [
    'type Faculty = components["schemas"]["Faculty"]',
    'export const name = (f: Faculty): string => `${f.first_name} ${f.last_name}`',
    'export const kind: "Faculty" = ({} as Faculty).type',
    'export const page = (p: operations["listPeople"]["responses"][200]["content"]["application/json"]) => p.items.map((person) => person._id)',
    'export const create: components["schemas"]["PersonCreate"] = { type: "Staff", first_name: "A", last_name: "B" } as components["schemas"]["StaffCreate"]',
  ].join('\n')
  const errors = await compile({ uses, wrong: 'export const wrong = (f: components["schemas"]["Faculty"]): number => f.first_name' })
  t.same(errors.uses, [], 'a client using Faculty, PersonCreate and listPeople compiles')
  t.match(errors.wrong, [/string.*number/], 'and a wrong use of Faculty does not')
})

t.test('two routes with one operationId stop start-up, naming both', async (t) => {
  const clash = async (app: FastifyInstance) => {
    app.get('/api/people-directory', { config: { policy: allow.public }, schema: { operationId: 'listPeople', summary: 'A second listPeople' } }, async () => ({}))
  }
  await t.rejects(buildTestApp(t, {}, { plugins: [clash] }), /route GET \/api\/people: operationId listPeople is already that of GET \/api\/people-directory/)
})

t.test('each documented request body has the fields and requirements of the body its route validates', async (t) => {
  const bodies = new Map<string, Json>()
  const recorder = fp(async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const body = route.schema?.body as Json | undefined
      for (const method of [route.method].flat()) if (body) bodies.set(`${method.toLowerCase()} ${route.url}`, JSON.parse(JSON.stringify(body)) as Json)
    })
  })
  const { app } = await buildTestApp(t, {}, { plugins: [recorder] })
  const doc = (await app.inject({ method: 'GET', url: '/documentation/json' })).json() as Document
  const resolve = (schema: Json): Json => {
    const ref = schema.$ref
    return typeof ref === 'string' ? resolve(doc.components.schemas[ref.replace('#/components/schemas/', '')]!) : schema
  }
  // A field with a default is filled in by the validator, so it is required of no client.
  const shape = (schema: Json) => {
    const properties = (schema.properties ?? {}) as Record<string, Json>
    return {
      properties: Object.keys(properties).sort(),
      required: ((schema.required ?? []) as string[]).filter((name) => properties[name]?.default === undefined).sort(),
    }
  }
  let compared = 0
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const documented = operation.requestBody?.content['application/json']?.schema
      const validated = bodies.get(`${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`)
      if (!documented || !validated?.properties) continue
      t.same(shape(resolve(documented)), shape(validated), `${method.toUpperCase()} ${path}`)
      compared++
    }
  }
  t.ok(compared > 50, `${compared} bodies compared`)
  const thesis = resolve(doc.paths['/api/thesis/requests']!.post!.requestBody!.content['application/json']!.schema)
  t.notOk((thesis.required as string[]).includes('status'), 'a workflow entity\'s status is the service\'s, not required of a client')
})
