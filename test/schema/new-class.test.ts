import { copyFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'

const schemaDir = fileURLToPath(new URL('../../schema/', import.meta.url))

/** A class the service has never heard of; its file is all that is added. */
const seminar = [
  {
    '@type': 'Class',
    '@id': 'Seminar',
    '@key': { '@type': 'Random' },
    '@documentation': {
      '@comment': 'A talk in the department seminar series.',
      '@properties': { title: 'Title of the talk', speaker: 'Faculty member giving the talk', held_on: 'Date of the talk', format: 'How it is held', topics: 'Topics covered' },
    },
    '@metadata': {
      collection: 'seminars',
      path: '/api/seminars',
      tag: 'Seminars',
      permissions: { read: 'read_courses', write: 'write_courses' },
      sortable: ['held_on', 'title'],
      default_sort: ['-held_on'],
      filters: { speaker: 'speaker' },
    },
    title: 'xsd:string',
    speaker: 'Faculty',
    held_on: 'xsd:date',
    format: { '@type': 'Optional', '@class': 'SeminarFormat' },
    topics: { '@type': 'Set', '@class': 'xsd:string' },
  },
  { '@type': 'Enum', '@id': 'SeminarFormat', '@documentation': { '@comment': 'How a seminar is held' }, '@value': ['in_person', 'online', 'hybrid'] },
]

t.test('a class file with @metadata for a collection and path is a working, documented, validated resource', async (t) => {
  const dir = await tempDir(t)
  for (const name of (await readdir(schemaDir)).filter((n) => n.endsWith('.json'))) await copyFile(join(schemaDir, name), join(dir, name))
  await writeFile(join(dir, 'seminars.json'), JSON.stringify(seminar))
  const { app, as } = await buildTestApp(t, { SCHEMA_DIR: dir })
  const admin = as('seminar-admin@dept.edu', 'admin')
  const reader = as('seminar-reader@dept.edu', 'user')

  const speaker = (await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: 'Grace', last_name: 'Hopper' } })).json().id
  const body = { title: 'Compilers for everyone', speaker, held_on: '2025-10-02', format: 'hybrid', topics: ['compilers', 'languages'] }
  const created = await admin({ method: 'POST', url: '/api/seminars', payload: body })
  t.equal(created.statusCode, 201, created.body)
  const record = created.json()
  t.match(record, { ...body, type: 'Seminar', _id: /^Seminar\//, _version: 1 })
  const url = `/api/seminars/${encodeURIComponent(record._id)}`
  t.equal(created.headers.location, url)

  t.same((await reader({ method: 'GET', url })).json(), record, 'get')
  t.equal((await reader({ method: 'GET', url: `/api/seminars/${record._id}` })).statusCode, 200, 'the id as two path segments')
  const listed = await reader({ method: 'GET', url: `/api/seminars?speaker=${encodeURIComponent(speaker)}` })
  t.match(listed.json(), { total: 1, limit: 50, offset: 0, items: [{ _id: record._id }] }, 'list with a declared filter')
  t.equal((await reader({ method: 'POST', url: '/api/seminars', payload: body })).statusCode, 403, 'writes need write_courses')

  const updated = await admin({ method: 'PUT', url, payload: { format: null, topics: ['compilers'] } })
  t.equal(updated.statusCode, 200)
  t.match(updated.json(), { _version: 2, topics: ['compilers'] })
  t.notOk('format' in updated.json(), 'null removed the optional field')

  const refused: [string, object, RegExp][] = [
    ['a missing required field', { speaker, held_on: '2025-10-02' }, /'title' is required/],
    ['a value outside the enum', { ...body, format: 'by_post' }, /'format' must be one of: in_person, online, hybrid/],
    ['a malformed date', { ...body, held_on: 'next Tuesday' }, /'held_on' must be a valid date/],
    ['a repeated Set item', { ...body, topics: ['a', 'a'] }, /'topics' must not repeat an item/],
    ['an unknown field', { ...body, room: 'B12' }, /unknown field 'room'/],
    ['a reference to the wrong class', { ...body, speaker: 'Course/CS-101' }, /'speaker' must be the id of a Faculty/],
    ['a reference to a missing record', { ...body, speaker: 'Faculty/nobody' }, /'speaker' refers to Faculty\/nobody, which does not exist/],
  ]
  for (const [fault, payload, message] of refused) {
    const response = await admin({ method: 'POST', url: '/api/seminars', payload })
    t.equal(response.statusCode, 400, `400 for ${fault}`)
    t.match(response.json().error, message, `the error names the field (${fault})`)
    t.equal(response.json().code, fault === 'a reference to a missing record' ? 'ADKS_REFERENCE_NOT_FOUND' : 'ADKS_VALIDATION_FAILED', fault)
  }
  const speakerDelete = await admin({ method: 'DELETE', url: `/api/people/${encodeURIComponent(speaker)}` })
  t.equal(speakerDelete.statusCode, 409, 'the speaker is referenced by the seminar')
  t.match(speakerDelete.json().error, record._id)
  t.equal(speakerDelete.json().code, 'ADKS_RECORD_REFERENCED')

  const schema = (await reader({ method: 'GET', url: '/api/schemas/Seminar?variant=create' })).json()
  t.match(schema, { title: 'Seminar', description: 'A talk in the department seminar series.', required: ['title', 'speaker', 'held_on'] })
  t.match(schema.properties.speaker, { 'x-reference': 'Faculty', description: 'Faculty member giving the talk' })

  const openapi = (await app.inject({ method: 'GET', url: '/documentation/json' })).json()
  for (const [path, methods] of [['/api/seminars', ['get', 'post']], ['/api/seminars/{id}', ['get', 'put', 'delete']]] as const) {
    for (const method of methods) {
      const operation = openapi.paths[path]?.[method]
      t.ok(operation, `${method.toUpperCase()} ${path} is documented`)
      t.same(operation?.tags, ['Seminars'], `${method} ${path}: tag`)
      t.same(operation?.security, [{ bearerAuth: [] }], `${method} ${path}: security`)
    }
  }

  t.equal((await admin({ method: 'DELETE', url })).statusCode, 200, 'delete')
  t.equal((await reader({ method: 'GET', url })).statusCode, 404, 'gone')
  t.equal((await admin({ method: 'DELETE', url: `/api/people/${encodeURIComponent(speaker)}` })).statusCode, 200, 'no longer referenced')
})
