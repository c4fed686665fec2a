import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { inlined } from '../helpers/openapi.js'

const { app, as } = await buildTestApp(t)
const admin = as('admin@dept.edu', 'admin')
const reader = as('reader@dept.edu', 'student')
const post = async (url: string, payload: object) => {
  const res = await admin({ method: 'POST', url, payload })
  if (res.statusCode !== 201) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`)
  return res.json()._id as string
}
const [cs101, cs201, cs310] = [
  await post('/api/courses', { course_code: 'CS 101', title: 'Programming', credits: 4 }),
  await post('/api/courses', { course_code: 'CS 201', title: 'Data Structures', credits: 3 }),
  await post('/api/courses', { course_code: 'CS 310', title: 'Theory', credits: 3 }),
]
const degree = await post('/api/degrees', { name: 'Computer Science', degree_type: 'BS' })
const other = await post('/api/degrees', { name: 'Mathematics', degree_type: 'BA' })
const rule = (name: string, courses: string[]) => post('/api/requirement-rules', { name, rule_type: 'all_of', courses })
const [intro, data, theory] = [await rule('Intro', [cs101]), await rule('Data', [cs201]), await rule('Theory', [cs310])]
// Created out of order, so only the order field and the rules lists can explain the answer.
const electives = await post('/api/requirement-groups', { name: 'Electives', degree, order: 2, rules: [theory] })
const unordered = await post('/api/requirement-groups', { name: 'Also', degree, rules: [intro] })
const core = await post('/api/requirement-groups', { name: 'Core', degree, order: 1, description: 'First', rules: [data, intro] })
await post('/api/requirement-groups', { name: 'Math core', degree: other, order: 0, rules: [intro] })

t.test('a degree carries its requirement groups in order, rules expanded in list order', async (t) => {
  for (const url of [`/api/degrees/${encodeURIComponent(degree)}`, `/api/degrees/${degree}`]) {
    const res = await reader({ method: 'GET', url })
    t.equal(res.statusCode, 200, url)
    const body = res.json()
    t.match(body, { _id: degree, name: 'Computer Science', degree_type: 'BS', _version: 1 }, `${url}: the degree itself`)
    t.same(body.requirement_groups.map((g: { _id: string }) => g._id), [core, electives, unordered], `${url}: groups by order, unordered last`)
    t.match(body.requirement_groups[0], { name: 'Core', order: 1, description: 'First' })
    t.same(body.requirement_groups[0].rules.map((r: { _id: string }) => r._id), [data, intro], `${url}: rules in the group's list order`)
    t.match(body.requirement_groups[0].rules[0], { _id: data, type: 'RequirementRule', name: 'Data', rule_type: 'all_of', courses: [cs201] }, 'a rule is the whole record')
    t.same(body.requirement_groups[2].rules.map((r: { name: string }) => r.name), ['Intro'])
  }
  const math = (await reader({ method: 'GET', url: `/api/degrees/${encodeURIComponent(other)}` })).json()
  t.same(math.requirement_groups.map((g: { name: string }) => g.name), ['Math core'], 'only the degree\'s own groups')
})

t.test('a degree without groups has an empty list; other degree routes are unchanged', async (t) => {
  const bare = await post('/api/degrees', { name: 'Statistics', degree_type: 'Minor' })
  t.same((await reader({ method: 'GET', url: `/api/degrees/${encodeURIComponent(bare)}` })).json().requirement_groups, [])
  const list = (await reader({ method: 'GET', url: '/api/degrees' })).json()
  t.equal(list.total, 3)
  t.ok(list.items.every((d: object) => !('requirement_groups' in d)), 'list items are plain records')
  const updated = await admin({ method: 'PUT', url: `/api/degrees/${encodeURIComponent(bare)}`, payload: { description: 'Numbers' } })
  t.equal(updated.statusCode, 200)
  t.notOk('requirement_groups' in updated.json(), 'an update answers the record')
  t.equal((await reader({ method: 'GET', url: '/api/degrees/Degree%2Fnope' })).statusCode, 404)
})

t.test('a detail answer can be sent back whole as an update; the groups in it are ignored', async (t) => {
  const read = (await admin({ method: 'GET', url: `/api/degrees/${encodeURIComponent(other)}` })).json()
  const back = await admin({ method: 'PUT', url: `/api/degrees/${encodeURIComponent(other)}`, payload: { ...read, description: 'Sent back', requirement_groups: [] } })
  t.equal(back.statusCode, 200, back.body)
  t.match(back.json(), { description: 'Sent back', _version: 2 })
  const again = (await reader({ method: 'GET', url: `/api/degrees/${encodeURIComponent(other)}` })).json()
  t.same(again.requirement_groups.map((g: { name: string }) => g.name), ['Math core'], 'the groups are untouched')
  t.equal((await admin({ method: 'PUT', url: `/api/degrees/${encodeURIComponent(other)}`, payload: { requirement_group: [] } })).statusCode, 400, 'other unknown fields are still refused')
})

t.test('a change to a group shows in the next answer', async (t) => {
  t.equal((await admin({ method: 'PUT', url: `/api/requirement-groups/${encodeURIComponent(unordered)}`, payload: { order: 0 } })).statusCode, 200)
  const body = (await reader({ method: 'GET', url: `/api/degrees/${encodeURIComponent(degree)}` })).json()
  t.same(body.requirement_groups.map((g: { _id: string }) => g._id), [unordered, core, electives])
})

t.test('the OpenAPI document declares the embedded groups', async (t) => {
  const doc = inlined((await app.inject({ method: 'GET', url: '/documentation/json' })).json())
  const schema = doc.paths['/api/degrees/{id}'].get.responses['200'].content['application/json'].schema
  t.ok(schema.properties.requirement_groups, 'requirement_groups is declared')
  t.match(schema.properties.requirement_groups.items.properties, { _id: {}, name: {}, rules: { type: 'array' } })
  const list = doc.paths['/api/degrees'].get.responses['200'].content['application/json'].schema
  t.notOk(list.properties.items.items.properties.requirement_groups, 'the list does not declare it')
})
