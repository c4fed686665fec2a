import t, { type Test } from 'tap'
import { buildTestApp } from '../helpers/app.js'
import type { Inject } from '../helpers/records.js'
import { adapters, courseUrl, department, personUrl } from './department.js'
import { testActor } from '../helpers/actor.js'

/** Reads a URL until it is a hit, so the test knows a stored answer stands in the way of the next read. */
async function warm(t: Test, inject: Inject, url: string): Promise<void> {
  await inject({ method: 'GET', url })
  t.equal((await inject({ method: 'GET', url })).headers['x-cache'], 'hit', `${url} is cached`)
}

const field = (body: string, name: string) => (JSON.parse(body).items as Record<string, unknown>[]).map((r) => r[name])

for (const adapter of adapters) {
  t.test(`${adapter}: a read after creating, updating or deleting a person shows the write`, async (t) => {
    const { admin, ids } = await department(t, adapter)
    const reads = [personUrl(ids.advisor), '/api/people?type=Faculty', '/api/people/faculty-options']
    for (const url of reads) await warm(t, admin, url)

    const created = await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: 'Ada', last_name: 'Lovelace' } })
    t.equal(created.statusCode, 201)
    t.ok(field((await admin({ method: 'GET', url: '/api/people?type=Faculty' })).body, 'first_name').includes('Ada'), 'the list shows the new person')
    t.ok(field((await admin({ method: 'GET', url: '/api/people/faculty-options' })).body, 'label').includes('Ada Lovelace'), 'so does the dropdown')

    for (const url of reads) await warm(t, admin, url)
    t.equal((await admin({ method: 'PUT', url: personUrl(ids.advisor), payload: { title: 'Dean' } })).statusCode, 200)
    const detail = await admin({ method: 'GET', url: personUrl(ids.advisor) })
    t.equal(detail.json().title, 'Dean', 'the detail shows the update')
    t.equal(detail.headers.etag, '"2"', 'with the new version')
    t.ok(field((await admin({ method: 'GET', url: '/api/people?type=Faculty' })).body, 'title').includes('Dean'), 'the list too')
    t.ok(field((await admin({ method: 'GET', url: '/api/people/faculty-options' })).body, 'title').includes('Dean'), 'and the dropdown')

    await warm(t, admin, personUrl(ids.other))
    for (const url of reads) await warm(t, admin, url)
    t.equal((await admin({ method: 'DELETE', url: personUrl(ids.other) })).statusCode, 200)
    t.equal((await admin({ method: 'GET', url: personUrl(ids.other) })).statusCode, 404, 'the deleted person is gone')
    t.notOk(field((await admin({ method: 'GET', url: '/api/people?type=Faculty' })).body, 'first_name').includes('Gus'), 'from the list too')
    t.notOk(field((await admin({ method: 'GET', url: '/api/people/faculty-options' })).body, 'label').includes('Gus Other'), 'and the dropdown')
  })

  t.test(`${adapter}: a profile self-edit is seen at once by everyone`, async (t) => {
    const { as, ids } = await department(t, adapter)
    const fay = as('fay@dept.edu', 'faculty')
    const stu = as('stu@dept.edu', 'staff')
    await warm(t, stu, personUrl(ids.advisor))
    t.equal((await fay({ method: 'PUT', url: personUrl(ids.advisor), payload: { bio: 'Graphs and more graphs' } })).statusCode, 200)
    t.equal((await stu({ method: 'GET', url: personUrl(ids.advisor) })).json().bio, 'Graphs and more graphs')
  })

  t.test(`${adapter}: course writes reach the course detail and lists`, async (t) => {
    const { admin, ids } = await department(t, adapter)
    await warm(t, admin, courseUrl(ids.course))
    await warm(t, admin, '/api/courses')
    t.equal((await admin({ method: 'PUT', url: courseUrl(ids.course), payload: { title: 'Programming I' } })).statusCode, 200)
    t.equal((await admin({ method: 'GET', url: courseUrl(ids.course) })).json().title, 'Programming I')
    t.same(field((await admin({ method: 'GET', url: '/api/courses' })).body, 'title'), ['Programming I'])

    await warm(t, admin, '/api/courses')
    t.equal((await admin({ method: 'POST', url: '/api/courses', payload: { course_code: 'CS 201', title: 'Data Structures' } })).statusCode, 201)
    t.same(field((await admin({ method: 'GET', url: '/api/courses' })).body, 'course_code'), ['CS 101', 'CS 201'])

    await warm(t, admin, courseUrl('Course/CS-201'))
    t.equal((await admin({ method: 'DELETE', url: courseUrl('Course/CS-201') })).statusCode, 200)
    t.equal((await admin({ method: 'GET', url: courseUrl('Course/CS-201') })).statusCode, 404)
    t.same(field((await admin({ method: 'GET', url: '/api/courses' })).body, 'course_code'), ['CS 101'])
  })

  t.test(`${adapter}: a section change reaches a course list filtered by term`, async (t) => {
    const { admin, ids } = await department(t, adapter)
    const url = '/api/courses?term=25F'
    await warm(t, admin, url)
    t.same(field((await admin({ method: 'GET', url })).body, '_id'), [], 'nothing offered yet')
    const section = await admin({ method: 'POST', url: '/api/sections', payload: { course: ids.course, term: '25F', section_number: '01' } })
    t.equal(section.statusCode, 201)
    t.same(field((await admin({ method: 'GET', url })).body, '_id'), [ids.course], 'offered once the section exists')
    await warm(t, admin, url)
    t.equal((await admin({ method: 'DELETE', url: `/api/sections/${encodeURIComponent(section.json()._id)}` })).statusCode, 200)
    t.same(field((await admin({ method: 'GET', url })).body, '_id'), [], 'and no longer once it is deleted')
  })

  t.test(`${adapter}: a publication change reaches the person's publication list`, async (t) => {
    const { admin, ids } = await department(t, adapter)
    const url = personUrl(ids.advisor, '/publications')
    await warm(t, admin, url)
    const created = await admin({ method: 'POST', url: '/api/publications', payload: { title: 'Trees', authors: ['F. Advisor'], dept_authors: [ids.advisor] } })
    t.equal(created.statusCode, 201)
    t.same(field((await admin({ method: 'GET', url })).body, 'title').sort(), ['Graphs of Students', 'Trees'])
  })

  t.test(`${adapter}: writes outside HTTP (syncs, imports) invalidate too`, async (t) => {
    const { admin, app, ids } = await department(t, adapter)
    await warm(t, admin, personUrl(ids.staff))
    await app.records.update(ids.staff, { title: 'Lab manager' }, { actor: testActor })
    t.equal((await admin({ method: 'GET', url: personUrl(ids.staff) })).json().title, 'Lab manager')
  })
}

t.test('two instances sharing Redis: a write on one invalidates the other\'s cached reads', async (t) => {
  const one = await department(t, 'redis')
  const other = await buildTestApp(t, one.cacheEnv, { store: one.app.store })
  const otherAdmin = other.as('admin@dept.edu', 'admin')
  const reads = [personUrl(one.ids.advisor), '/api/people?type=Faculty', courseUrl(one.ids.course)]
  for (const url of reads) await warm(t, otherAdmin, url)
  t.equal((await one.admin({ method: 'GET', url: reads[0]! })).headers['x-cache'], 'hit', 'the instances share entries')

  t.equal((await one.admin({ method: 'PUT', url: personUrl(one.ids.advisor), payload: { title: 'Dean' } })).statusCode, 200)
  t.equal((await one.admin({ method: 'PUT', url: courseUrl(one.ids.course), payload: { title: 'Programming I' } })).statusCode, 200)
  t.equal((await otherAdmin({ method: 'GET', url: reads[0]! })).json().title, 'Dean', 'the other instance shows the person\'s update')
  t.ok(field((await otherAdmin({ method: 'GET', url: reads[1]! })).body, 'title').includes('Dean'), 'in its list too')
  t.equal((await otherAdmin({ method: 'GET', url: reads[2]! })).json().title, 'Programming I', 'and the course\'s')
})
