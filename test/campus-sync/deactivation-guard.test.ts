/**
 * The mass-deactivation guard over the real app (routes, inline jobs, the store of the run: embedded, or
 * MongoDB in the second pass): it counts the records the feed owns, not everyone on record.
 */
import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { accepted, admin, finished, restSource } from '../routes/campus-sync/support.js'
import { provider, type Feed, type Row } from './support.js'
import { testActor } from '../helpers/actor.js'

const student = (n: number): Row => ({
  sourcedId: `S${n}`, status: 'active', dateLastModified: '2025-09-01T10:00:00Z', enabledUser: 'true', givenName: `Given${n}`, familyName: `Family${n}`,
  identifier: `feed-${n}`, roles: [{ roleType: 'primary', role: 'student' }], grades: ['UG'],
})

/** 60 students, and nothing else: the people run reads users and enrollments. */
const sixtyStudents = (): Feed => ({ academicSessions: [], courses: [], classes: [], enrollments: [], users: Array.from({ length: 60 }, (_, i) => student(i)) })

t.test('with 400 hand-entered people on record, 30 of 60 synced students tobedeleted is refused and 5 of 60 is applied', async (t) => {
  const { app, as } = await buildTestApp(t)
  const { records, schema } = app
  const byHand = await records.createMany('UndergraduateStudent', Array.from({ length: 400 }, (_, i) => ({ input: { first_name: 'Hand', last_name: `Entered${i}`, campus_id: `hand-${i}` } })), { actor: testActor })
  t.equal(byHand.filter((o) => 'record' in o).length, 400, 'the department entered 400 people by hand')
  const p = await provider(t, sixtyStudents())
  const ops = as(admin, 'admin')
  t.equal((await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(p.url) } })).statusCode, 200)
  const run = async () => (await finished(ops, await accepted(t, ops, '/api/campus-sync/people'))).result as { status: string; message?: string; deactivated: number }
  t.match(await run(), { status: 'completed', created: 60 })

  const later = '2025-10-01T10:00:00Z'
  const end = (from: number, to: number) => { for (let i = from; i < to; i++) Object.assign(p.feed.users[i]!, { status: 'tobedeleted', dateLastModified: later }) }
  end(0, 30)
  const refused = await run()
  t.equal(refused.status, 'refused', 'half of the feed\'s own students is over 10%, however many people were entered by hand')
  t.match(refused.message, /would deactivate 30 of 60 active person records synced from oneroster \(50%\)/)
  const inactive = () => records.find(schema.class('Person')!, { active: false })
  t.same(await inactive(), [], 'nothing was deactivated')

  for (let i = 5; i < 30; i++) Object.assign(p.feed.users[i]!, { status: 'active', dateLastModified: later })
  const applied = await run()
  t.match(applied, { status: 'completed', deactivated: 5 }, '5 of 60 is within 10%')
  t.same((await inactive()).map((person) => person.campus_id).sort(), ['feed-0', 'feed-1', 'feed-2', 'feed-3', 'feed-4'])
  const handEntered = (await records.find(schema.class('Person')!, {})).filter((person) => String(person.campus_id).startsWith('hand-'))
  t.same([handEntered.length, handEntered.filter((person) => person.active === false).length], [400, 0], 'the hand-entered people are all active')
})

t.test('a tobedeleted row never deactivates a record entered by hand or synced from another source', async (t) => {
  const { app, as } = await buildTestApp(t)
  const { records, schema } = app
  await records.create('Faculty', { first_name: 'Hand', last_name: 'Entered', campus_id: 'feed-1' }, { actor: testActor })
  await records.create('Staff', { first_name: 'Other', last_name: 'Source', campus_id: 'feed-2', source: { system: 'banner', sourced_id: 'B2' } }, { actor: testActor })
  const feed: Feed = { academicSessions: [], courses: [], classes: [], enrollments: [], users: [student(1), student(2)].map((row) => ({ ...row, status: 'tobedeleted' })) }
  const p = await provider(t, feed)
  const ops = as(admin, 'admin')
  await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(p.url), max_deactivate_percent: 100 } })
  const job = await finished(ops, await accepted(t, ops, '/api/campus-sync/people'))
  t.match(job.result, { status: 'completed', deactivated: 0, skipped: 2 })
  const people = await records.find(schema.class('Person')!, {})
  t.same(people.map((person) => [person.campus_id, person.active ?? true, person.source ?? null]).sort(), [
    ['feed-1', true, null],
    ['feed-2', true, { system: 'banner', sourced_id: 'B2' }],
  ], 'both are active and keep their source')
})
