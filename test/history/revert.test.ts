import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { provider, type Feed, type Row } from '../campus-sync/support.js'
import { accepted, admin, finished, restSource } from '../routes/campus-sync/support.js'

const students = 130
const day = (n: number) => `2025-09-${String(n).padStart(2, '0')}T10:00:00Z`
const student = (i: number): Row => ({
  sourcedId: `S${i}`, status: 'active', dateLastModified: day(1), enabledUser: 'true', givenName: `Given${i}`, familyName: `Family${i}`,
  identifier: `net-s${i}`, email: `s${i}@campus.example.edu`, roles: [{ roleType: 'primary', role: 'student' }], grades: ['UG'],
})
const feed = (): Feed => ({ academicSessions: [], courses: [], classes: [], users: Array.from({ length: students }, (_, i) => student(i)), enrollments: [] })

interface Person { _id: string; campus_id: string; email?: string; active?: boolean; _version: number; phone?: string }

t.test('a sync run that deactivated 30 students and changed 100 emails is reverted, but for 2 people an admin edited since; the revert is reverted in turn', async (t) => {
  const { app, as } = await buildTestApp(t)
  const ops = as(admin, 'admin')
  const p = await provider(t, feed())
  t.equal((await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(p.url), max_deactivate_percent: 50 } })).statusCode, 200)
  t.match(await finished(ops, await accepted(t, ops, '/api/campus-sync/people')), { state: 'completed', result: { created: students } }, 'the students arrive')
  const people = async () => new Map(((await app.records.find(app.schema.class('Person')!, {})) as unknown as Person[]).map((person) => [person.campus_id, person]))
  const before = await people()

  // The feed's next delta: 30 students leave, 100 others change email.
  for (let i = 0; i < 30; i++) Object.assign(p.feed.users[i]!, { status: 'tobedeleted', dateLastModified: day(5) })
  for (let i = 30; i < 130; i++) Object.assign(p.feed.users[i]!, { email: `new-s${i}@campus.example.edu`, dateLastModified: day(5) })
  const sync = await finished(ops, await accepted(t, ops, '/api/campus-sync/people'))
  t.match(sync, { state: 'completed', result: { deactivated: 30, updated: 100 } })
  const runId = (sync.result as { run_id: string }).run_id
  const runUrl = `/api/campus-sync/runs/${encodeURIComponent(`SyncRun/${runId}`)}/revert`
  const synced = await people()

  // An admin edits one deactivated student and one whose email changed.
  const edited = [synced.get('net-s3')!, synced.get('net-s77')!]
  for (const person of edited) {
    const put = await ops({ method: 'PUT', url: `/api/people/${encodeURIComponent(person._id)}`, payload: { phone: '555-0100' } })
    t.equal(put.statusCode, 200, put.body)
  }

  const beforeDry = await people()
  const dry = await finished(ops, await accepted(t, ops, runUrl, { dryRun: true }))
  t.match(dry.result, { dry_run: true, reverted: 128 }, 'the dry run says what it would do')
  t.same((dry.result as { conflicts: { id: string }[] }).conflicts.map((c) => c.id).sort(), edited.map((e) => e._id).sort())
  t.same(await people(), beforeDry, 'a dry run writes nothing')

  const revert = await finished(ops, await accepted(t, ops, runUrl))
  t.equal(revert.state, 'completed', JSON.stringify(revert.error))
  const result = revert.result as { run_id: string; reverted: number; conflicts: { id: string; changed_by: string; at: string }[] }
  t.equal(result.reverted, 128, '128 records back')
  t.same(result.conflicts.map((c) => c.id).sort(), edited.map((e) => e._id).sort(), 'the 2 edited ones reported as conflicts')
  t.ok(result.conflicts.every((c) => c.changed_by.startsWith('User/') && c.at), 'each conflict names who changed it and when')
  const reverted = await people()
  for (const [campusId, was] of before) {
    const now = reverted.get(campusId)!
    if (edited.some((e) => e.campus_id === campusId)) {
      t.equal(now.phone, '555-0100', `${campusId}: left as the admin made it`)
      t.same({ email: now.email, active: now.active }, { email: synced.get(campusId)!.email, active: synced.get(campusId)!.active }, `${campusId}: untouched`)
    } else {
      t.same({ email: now.email, active: now.active }, { email: was.email, active: was.active }, `${campusId}: as before the run`)
    }
  }
  const runs = (await ops({ method: 'GET', url: '/api/campus-sync/runs' })).json().items as { _id: string; kind: string; reverts?: string; reverted_by?: string }[]
  t.match(runs.find((r) => r._id === `SyncRun/${runId}`), { reverted_by: result.run_id }, '/runs says the run was reverted')
  t.match(runs.find((r) => r._id === result.run_id), { kind: 'revert', reverts: `SyncRun/${runId}` }, '/runs lists the revert')
  const history = (await ops({ method: 'GET', url: `/api/people/${encodeURIComponent(synced.get('net-s10')!._id)}/history?limit=1` })).json()
  t.match(history.items[0], { actor: `sync:${result.run_id.slice('SyncRun/'.length)}`, changes: [{ path: '/active', before: false }] }, 'the revert is a revision by its own run')

  const again = await finished(ops, await accepted(t, ops, `/api/campus-sync/runs/${encodeURIComponent(result.run_id)}/revert`))
  t.match(again.result, { reverted: 128, conflicts: [] }, 'reverting the revert reapplies the run')
  const reapplied = await people()
  for (const [campusId, was] of synced) {
    if (edited.some((e) => e.campus_id === campusId)) continue
    const now = reapplied.get(campusId)!
    t.same({ email: now.email, active: now.active }, { email: was.email, active: was.active }, `${campusId}: as the run left it`)
  }
  t.equal((await ops({ method: 'POST', url: `/api/campus-sync/runs/${encodeURIComponent('SyncRun/no-such-run')}/revert` })).statusCode, 404, 'a run that wrote nothing')
  t.equal((await as('prof@dept.edu', 'faculty')({ method: 'POST', url: runUrl })).statusCode, 403, 'reverts are admins\'')
})

t.test('an unchanged sync row leaves no revision', async (t) => {
  const { app, as } = await buildTestApp(t)
  const ops = as(admin, 'admin')
  const p = await provider(t, { ...feed(), users: feed().users.slice(0, 3) })
  await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(p.url) } })
  const first = await finished(ops, await accepted(t, ops, '/api/campus-sync/people'))
  const revisions = app.history.revisions
  t.equal(await revisions.count({ actor: `sync:${(first.result as { run_id: string }).run_id}` }), 3, 'one revision per created person, by the run')
  for (const user of p.feed.users) user.dateLastModified = day(6)
  const second = await finished(ops, await accepted(t, ops, '/api/campus-sync/people'))
  t.match(second.result, { unchanged: 3, updated: 0 })
  t.equal(await revisions.count({ actor: `sync:${(second.result as { run_id: string }).run_id}` }), 0, 'rows that match write nothing')
})
