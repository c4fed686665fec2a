import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import type { ApiRecord } from '../../src/records/service.js'
import { compileSchema } from '../../src/schema/index.js'
import { documentOf, searchKinds } from '../../src/search/documents.js'
import { tempDir } from '../helpers/temp-dir.js'

const stamp = { _version: 1, _created_at: '2025-01-01T00:00:00.000Z', _updated_at: '2025-01-01T00:00:00.000Z' }
const record = (fields: Record<string, unknown>) => ({ ...stamp, ...fields }) as ApiRecord

t.test('records become documents: label and searchable fields from the schema, a short detail line', async (t) => {
  const schema = await compileSchema('schema')
  t.same(searchKinds(schema).map((k) => [k.name, k.collection, k.readPermission]), [
    ['person', 'people', 'read_people'], ['course', 'courses', 'read_courses'], ['lab', 'labs', 'read_labs'],
  ])
  const faculty = documentOf(schema, 'person', record({ _id: 'Faculty/a', type: 'Faculty', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@dept.edu', title: 'Professor', bio: 'not searched' }))
  t.same(faculty, {
    kind: 'person', id: 'Faculty/a', type: 'Faculty', label: 'Ada Lovelace', detail: 'Professor',
    fields: [{ text: 'Ada', weight: 1 }, { text: 'Lovelace', weight: 1 }, { text: 'ada@dept.edu', weight: 0.5 }, { text: '', weight: 0.5 }],
  })
  t.equal(documentOf(schema, 'person', record({ _id: 'UndergraduateStudent/u', type: 'UndergraduateStudent', first_name: 'U', last_name: 'V' })).detail, 'Undergraduate student')

  const course = documentOf(schema, 'course', record({ _id: 'Course/CS-101', type: 'Course', course_code: 'CS 101', title: 'Intro', credits: 4 }))
  t.equal(course.label, 'CS 101 Intro')
  t.equal(course.detail, '4 credits')
  t.same(course.fields.at(-1), { text: 'CS101', weight: 1 }, 'the code as one word')

  const long = `${'word '.repeat(40)}end`
  const lab = documentOf(schema, 'lab', record({ _id: 'Lab/L', type: 'Lab', name: 'L', pi: 'Faculty/a', description: long }))
  t.ok(lab.detail.length <= 120, 'a long description is cut')
  t.match(lab.detail, /^word( word)*…$/, 'at a word boundary')
})

t.test('a schema without some of the searched classes has only the kinds it has', async (t) => {
  const dir = await tempDir(t)
  await writeFile(join(dir, 'courses.json'), JSON.stringify([{
    '@type': 'Class', '@id': 'Course', '@key': { '@type': 'Lexical', '@fields': ['course_code'] },
    '@documentation': { '@comment': 'A course', '@properties': { course_code: 'Code', title: 'Title' } },
    '@metadata': {
      collection: 'courses', path: '/api/courses', permissions: { read: 'read_courses', write: 'write_courses' },
      label: ['course_code', 'title'], searchable: ['course_code', 'title'],
    },
    course_code: 'xsd:string', title: 'xsd:string',
  }]))
  t.same(searchKinds(await compileSchema(dir)).map((k) => k.name), ['course'])
})
