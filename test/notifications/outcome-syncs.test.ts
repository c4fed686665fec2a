/**
 * sync.completed and sync.refused (docs/notifications.md) over the real app: campus syncs through their
 * routes, run by the inline jobs against a OneRoster REST provider over HTTP; the admins hear of each real
 * run.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import t from 'tap'
import { eventsCollection, type EventRecord } from '../../src/notifications/collections.js'
import { provider, type Feed, type Row } from '../campus-sync/support.js'
import { buildTestApp } from '../helpers/app.js'
import { accepted, admin, finished, restSource } from '../routes/campus-sync/support.js'
import { ferpaViolations } from './ferpa.js'

type Caller = (options: InjectOptions) => Promise<LightMyRequestResponse>
const inbox = async (caller: Caller) => (await caller({ method: 'GET', url: '/api/notifications' })).json() as { total: number; items: Record<string, unknown>[] }

const student = (n: number): Row => ({
  sourcedId: `S${n}`, status: 'active', dateLastModified: '2025-09-01T10:00:00Z', enabledUser: 'true', givenName: `Given${n}`, familyName: `Family${n}`,
  identifier: `feed-${n}`, roles: [{ roleType: 'primary', role: 'student' }], grades: ['UG'],
})

/** 20 students, nothing else: the people run reads users and enrollments. */
const twentyStudents = (): Feed => ({ academicSessions: [], courses: [], classes: [], enrollments: [], users: Array.from({ length: 20 }, (_, i) => student(i)) })

t.test('a finished campus sync tells the admins, a dry run tells no one, and a run the deactivation guard stops is told as refused', async (t) => {
  const { app, as } = await buildTestApp(t)
  const p = await provider(t, twentyStudents())
  const ops = as(admin, 'admin')
  const faculty = as('prof@dept.example.edu', 'faculty')
  t.equal((await inbox(ops)).total, 0)
  await inbox(faculty)
  t.equal((await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(p.url) } })).statusCode, 200)
  const run = async (payload: object = {}) => (await finished(ops, await accepted(t, ops, '/api/campus-sync/people', payload))).result as Record<string, unknown>

  t.match(await run({ dryRun: true }), { status: 'completed', dry_run: true, created: 20 })
  await app.notifications.relay.idle()
  t.equal((await inbox(ops)).total, 0, 'a dry run is its asker\'s question, answered in its result')

  t.match(await run(), { status: 'completed', created: 20 })
  await app.notifications.relay.idle()
  const afterFirst = await inbox(ops)
  t.equal(afterFirst.total, 1)
  t.match(afterFirst.items[0], { type: 'sync.completed', title: 'Campus sync of people: 20 created, 0 updated, 0 deactivated', link: '/admin/sync', read_at: null })

  for (let i = 0; i < 10; i++) Object.assign(p.feed.users[i]!, { status: 'tobedeleted', dateLastModified: '2025-10-01T10:00:00Z' })
  t.match(await run(), { status: 'refused' })
  await app.notifications.relay.idle()
  const page = await inbox(ops)
  t.same(page.items.map((i) => i.type), ['sync.refused', 'sync.completed'], 'newest first')
  t.match(page.items[0], { title: 'Campus sync of people refused: it would deactivate 10 of 20 person records, more than 10%', link: '/admin/sync' })

  const runs = (await ops({ method: 'GET', url: '/api/campus-sync/runs' })).json() as { items: { _id: string; status: string; dry_run: boolean }[] }
  const real = runs.items.filter((r) => !r.dry_run)
  t.same(page.items.map((i) => i.subject), real.map((r) => r._id), 'each notice is about its SyncRun record')
  t.same(real.map((r) => r.status), ['refused', 'completed'])
  t.equal((await inbox(faculty)).total, 0, 'only the admins are told')

  const stored = await app.store.collection<EventRecord>(eventsCollection).find({ type: { $in: ['sync.completed', 'sync.refused'] } })
  t.equal(stored.length, 2, 'one event per real run')
  t.match(stored.find((e) => e.type === 'sync.completed'), {
    _id: `${real[1]!._id}/sync.completed`, source: '/api/campus-sync', data: { run: real[1]!._id, kind: 'people', created: 20, updated: 0, deactivated: 0, errors: 0 },
  })
  t.match(stored.find((e) => e.type === 'sync.refused'), { data: { run: real[0]!._id, kind: 'people', would_deactivate: 10, active: 20, max_deactivate_percent: 10 } })
  const text = JSON.stringify(stored)
  t.notOk(/Given|Family|feed-/.test(text), 'no row of the feed reaches an event')
  t.same(ferpaViolations(text), [])
})
