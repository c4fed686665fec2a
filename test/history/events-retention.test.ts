/**
 * A restore and a run's revert are events the admins hear of (docs/notifications.md; docs/history.md);
 * retention prunes old revisions but keeps each record's latest, and what stays still rebuilds the record.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import t from 'tap'
import { pruneHistory } from '../../src/history/maintenance.js'
import { eventsCollection } from '../../src/notifications/collections.js'
import { buildTestApp } from '../helpers/app.js'
import { Fixtures } from '../helpers/records.js'
import { provider } from '../campus-sync/support.js'
import { accepted, admin, finished, restSource } from '../routes/campus-sync/support.js'
import { ferpaViolations } from '../notifications/ferpa.js'

type Caller = (options: InjectOptions) => Promise<LightMyRequestResponse>
const inbox = async (caller: Caller) => (await caller({ method: 'GET', url: '/api/notifications' })).json() as { total: number; items: Record<string, unknown>[] }

t.test('a restore, a restore from the trash and a revert each tell the admins, with thin payloads', async (t) => {
  const { app, as } = await buildTestApp(t)
  const ops = as(admin, 'admin')
  const faculty = as('prof@dept.example.edu', 'faculty')
  await inbox(ops)
  await inbox(faculty)
  const fx = new Fixtures(app, ops)
  const lab = (await ops({ method: 'POST', url: '/api/labs', payload: { ...await fx.body('Lab'), description: 'First' } })).json()._id as string
  const url = `/api/labs/${encodeURIComponent(lab)}`
  await ops({ method: 'PUT', url, payload: { description: 'Second' } })
  t.equal((await ops({ method: 'POST', url: `${url}/restore`, payload: { version: 1 } })).statusCode, 200)
  await ops({ method: 'DELETE', url })
  t.equal((await ops({ method: 'POST', url: `/api/admin/trash/${encodeURIComponent(lab)}/restore` })).statusCode, 201)

  const p = await provider(t)
  await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(p.url) } })
  const run = (await finished(ops, await accepted(t, ops, '/api/campus-sync/courses'))).result as { run_id: string }
  const revert = await finished(ops, await accepted(t, ops, `/api/campus-sync/runs/${encodeURIComponent(`SyncRun/${run.run_id}`)}/revert`))
  t.equal(revert.state, 'completed')

  await app.notifications.relay.idle()
  const items = (await inbox(ops)).items
  const restored = items.filter((i) => i.type === 'record.restored')
  t.same(restored.map((i) => i.title).sort(), [`${lab} restored to version 1`, `${lab} restored to version 3`].sort(), 'each restore is told once')
  t.match(items.find((i) => i.type === 'sync.reverted'), { subject: `SyncRun/${run.run_id}`, link: '/admin/sync' }, 'the revert is told')
  t.equal((await inbox(faculty)).total, 0, 'only the admins are told')
  const events = await app.store.collection(eventsCollection).find({ type: { $in: ['record.restored', 'sync.reverted'] } })
  t.equal(events.length, 3, 'one event per restore and revert')
  t.same(events.flatMap((event) => ferpaViolations(JSON.stringify(event))), [], 'payloads carry ids and counts, never grades or secrets')
  t.ok(events.every((event) => !('description' in (event.data as object))), 'nor the record\'s fields')
})

t.test('retention prunes revisions older than its days, always keeping each record\'s latest', async (t) => {
  const { app, as } = await buildTestApp(t)
  const ops = as(admin, 'admin')
  const fx = new Fixtures(app, ops)
  const lab = (await ops({ method: 'POST', url: '/api/labs', payload: { ...await fx.body('Lab'), description: 'v1' } })).json()._id as string
  const url = `/api/labs/${encodeURIComponent(lab)}`
  for (const description of ['v2', 'v3']) await ops({ method: 'PUT', url, payload: { description } })
  const other = (await ops({ method: 'POST', url: '/api/labs', payload: { ...await fx.body('Lab') } })).json()._id as string
  const count = async (id: string) => (await ops({ method: 'GET', url: `/api/labs/${encodeURIComponent(id)}/history` })).json().total as number
  t.equal(await count(lab), 3)

  t.same(await pruneHistory(app.records.history, 3650, new Date()), { pruned: 0 }, 'nothing is older than ten years')
  const later = new Date(Date.now() + 3651 * 86_400_000)
  t.same(await pruneHistory(app.records.history, 3650, later), { pruned: 2 }, 'ten years on, all but each record\'s latest go')
  t.equal(await count(lab), 1, 'the latest revision stays')
  t.equal(await count(other), 1, 'a record with one revision keeps it')
  const latest = (await ops({ method: 'GET', url: `${url}/history` })).json().items[0]
  t.match(latest, { version: 3, changes: [{ path: '/description', before: 'v2', after: 'v3' }] }, 'and still says what it changed')
  const asOf = await ops({ method: 'GET', url: `${url}?as_of=${encodeURIComponent(new Date().toISOString())}` })
  t.match(asOf.json(), { _version: 3, description: 'v3' }, 'the present still answers')
  t.same(await pruneHistory(app.records.history, 3650, later), { pruned: 0 }, 'pruning again changes nothing')
  t.ok(app.maintenance['prune-history'], 'the maintenance queue prunes')
})
