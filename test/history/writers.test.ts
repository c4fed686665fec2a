/**
 * Every path that writes a record leaves a revision naming who wrote it and through what (docs/history.md):
 * a table over the API's write routes (from its OpenAPI document, so a new route must be placed here),
 * and each job kind that writes records. At the end every record of every collection with history
 * agrees with its revisions, and no revision is anonymous.
 */
import t from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { historyCollections } from '../../src/history/maintenance.js'
import type { Revision } from '../../src/history/revision.js'
import { registry, type WorkflowDomainKey } from '../../src/workflows/registry.js'
import { fixtureServer, sendJson } from '../helpers/fixture-server.js'
import { Fixtures, recordUrl } from '../helpers/records.js'
import { provider } from '../campus-sync/support.js'
import { accepted, finished, restSource } from '../routes/campus-sync/support.js'
import { approveAll, people, spec, startOne, workflowDepartment, draftOf, path } from '../routes/workflows/support.js'
import { testActor } from '../helpers/actor.js'

/** Write routes that write no record with history, and why. */
const noRecordWrites: Readonly<Record<string, string>> = {
  'PUT /api/users/{id}': 'users keep no history (their sign-ins would fill it); role changes are audited',
  'PUT /api/campus-sync/config': 'the sync configuration keeps no history (it holds a sealed secret)',
  'POST /api/api-keys': 'API keys keep no history', 'DELETE /api/api-keys/{id}': 'API keys keep no history', 'POST /api/api-keys/{id}/revoke': 'API keys keep no history',
  'PUT /api/notifications/preferences': 'a preference, not a record', 'POST /api/notifications/{id}/read': 'a notification', 'POST /api/notifications/read-all': 'notifications',
  'POST /api/admin/notifications/digest': 'a job that sends email', 'POST /api/webhooks': 'webhook endpoints are configuration',
  'PUT /api/webhooks/{id}': 'webhook endpoints', 'DELETE /api/webhooks/{id}': 'webhook endpoints', 'POST /api/webhooks/{id}/rotate-secret': 'webhook endpoints',
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver': 'a delivery',
  'POST /api/queues/{queueName}/jobs/{jobId}/retry': 'jobs', 'POST /api/queues/{queueName}/pause': 'jobs', 'POST /api/queues/{queueName}/resume': 'jobs',
  'POST /api/schedulers/{queueName}': 'schedules', 'DELETE /api/schedulers/{queueName}/{id}': 'schedules',
  'PUT /api/schedulers/publication-sync': 'schedules', 'DELETE /api/schedulers/publication-sync': 'schedules',
  'POST /api/admin/backups': 'a backup writes a file and its bookkeeping, no record', 'POST /api/admin/backups/{file}/verify': 'a verification notes when, on the backup\'s bookkeeping',
  'POST /api/admin/cache/clear': 'the cache', 'POST /api/admin/cache/clear/all': 'the cache', 'POST /api/admin/cache/clear/people': 'the cache', 'POST /api/admin/cache/clear/courses': 'the cache',
  'POST /api/auth/logout': 'sign-in state', 'POST /api/auth/token': 'sign-in state', 'POST /api/auth/custom-token': 'sign-in state',
  'POST /api/auth/saml/callback': 'sign-in (users keep no history)', 'POST /api/auth/login': 'sign-in state', 'POST /api/auth/refresh': 'sign-in state',
}

const adminEmail = people.admin.email
const work = (n: number) => ({ id: `https://openalex.org/W${n}`, title: `Work ${n}`, publication_year: 2020, cited_by_count: n, authorships: [{ author: { id: 'https://openalex.org/A1' } }] })

t.test('every write route and job kind leaves a revision naming its actor', async (t) => {
  const openalex = await fixtureServer(t, (_request, response, url) => {
    if (url.pathname.startsWith('/authors/')) return sendJson(response, 200, { id: 'https://openalex.org/A1' })
    const filter = url.searchParams.get('filter') ?? ''
    if (filter.startsWith('openalex:')) return sendJson(response, 200, { meta: { count: 2 }, results: filter.slice(9).split('|').map((id) => ({ id: `https://openalex.org/${id}`, cited_by_count: 99 })) })
    sendJson(response, 200, { meta: { count: 2, next_cursor: null }, results: [work(1), work(2)] })
  })
  const d = await workflowDepartment(t, { OPENALEX_URL: openalex })
  const { app, admin, ids } = d
  const adminId = userIdForEmail(adminEmail)
  const revisions = app.history.revisions
  const latest = async (id: string) => (await revisions.find({ record: id }, { sort: [['version', -1]], limit: 1 }))[0]
  const exercised = new Set<string>()

  /** Sends the request, expects `status`, and checks the record's newest revision: its op, actor and route. */
  async function writes(caller: typeof admin, method: string, route: string, url: string, status: number, expect: { id?: string; op: Revision['op'] | RegExp; actor: string }, payload?: object) {
    exercised.add(`${method} ${route}`)
    const answer = await caller({ method: method as 'POST', url, ...(payload ? { payload } : {}) })
    t.equal(answer.statusCode, status, `${method} ${url}: ${answer.body.slice(0, 300)}`)
    const id = expect.id ?? (answer.json() as { _id?: string; id?: string })._id ?? (answer.json() as { id: string }).id
    t.match(await latest(id), { op: expect.op, actor: expect.actor, via: `${method} ${route.replace(/\{(\w+)\}/g, ':$1')}` }, `${method} ${route}: a revision by its caller`)
    return answer
  }

  // The generic resources: create, update, restore, delete, and back from the trash.
  const fx = new Fixtures(app, admin)
  for (const resource of app.schema.resources) {
    const className = resource.classes[0]!
    const body = await fx.body(className)
    const created = await writes(admin, 'POST', resource.path, resource.path, 201, { op: 'create', actor: adminId }, body)
    const id = (created.json()._id ?? created.json().id) as string
    const item = `${resource.path}/{id}`
    await writes(admin, 'PUT', item, recordUrl(resource, id), 200, { id, op: /^(update|deactivate)$/, actor: adminId }, await fx.changes(className))
    await writes(admin, 'POST', `${item}/restore`, recordUrl(resource, id, 'encoded', '/restore'), 200, { id, op: 'update', actor: adminId }, { version: 1 })
    await writes(admin, 'DELETE', item, recordUrl(resource, id), 200, { id, op: 'delete', actor: adminId })
    await writes(admin, 'POST', '/api/admin/trash/{id}/restore', `/api/admin/trash/${encodeURIComponent(id)}/restore`, 201, { id, op: 'create', actor: adminId })
  }

  // Protected records: enrollments (admins) and a student's plan (the student).
  const course = (await app.records.create('Course', await fx.body('Course'), { actor: testActor }))._id
  const enrollment = await writes(admin, 'POST', '/api/enrollments', '/api/enrollments', 201, { op: 'create', actor: adminId }, { student: ids.una, course, term: '25F', status: 'enrolled' })
  const enrollmentId = enrollment.json()._id as string
  await writes(admin, 'PUT', '/api/enrollments/{id}', `/api/enrollments/${path(enrollmentId)}`, 200, { id: enrollmentId, op: 'update', actor: adminId }, { status: 'completed', grade: 'A' })
  await writes(admin, 'DELETE', '/api/enrollments/{id}', `/api/enrollments/${path(enrollmentId)}`, 200, { id: enrollmentId, op: 'delete', actor: adminId })
  const una = d.callers.una
  const unaId = userIdForEmail(people.una.email)
  const plan = await writes(una, 'POST', '/api/student-plans', '/api/student-plans', 201, { op: 'create', actor: unaId }, { student: ids.una, plan_name: 'Another plan', target_degree: d.degree, planned_courses: [] })
  const planId = plan.json()._id as string
  await writes(una, 'PUT', '/api/student-plans/{id}', `/api/student-plans/${path(planId)}`, 200, { id: planId, op: 'update', actor: unaId }, { plan_name: 'Renamed' })
  await writes(una, 'DELETE', '/api/student-plans/{id}', `/api/student-plans/${path(planId)}`, 200, { id: planId, op: 'delete', actor: unaId })
  // One's own record, edited by its owner through the self route (an undergraduate's, which only admins read by id).
  await writes(una, 'PUT', '/api/auth/me/person', '/api/auth/me/person', 200, { id: ids.una, op: 'update', actor: unaId }, { phone: '555-0107' })

  // Workflow definitions and every domain's entities: drafts, submissions, decisions, withdrawals.
  const definitions = (await admin({ method: 'GET', url: '/api/workflows' })).json().items as { _id: string; domain: string; stages: object[] }[]
  const milestones = definitions.find((w) => w.domain === 'graduate_milestones')!
  const definition = await writes(admin, 'POST', '/api/workflows', '/api/workflows', 201, { op: 'create', actor: adminId }, { domain: 'graduate_milestones', name: 'Milestone approval', stages: milestones.stages })
  const definitionId = definition.json()._id as string
  // A changed definition is a new version of it, a record of its own.
  await writes(admin, 'PUT', '/api/workflows/{id}', `/api/workflows/${path(definitionId)}`, 200, { op: 'create', actor: adminId }, { domain: 'graduate_milestones', name: 'Milestone approval, renamed', stages: milestones.stages })
  for (const domain of registry.keys() as Iterable<WorkflowDomainKey>) {
    const { base, crud } = spec(domain)
    const { creator, body } = draftOf(d, domain, 7)
    const creatorId = userIdForEmail(people[creator].email)
    if (crud.update) {
      const draft = await writes(d.callers[creator], 'POST', base, base, 201, { op: 'create', actor: creatorId }, body)
      const draftId = draft.json()._id as string
      const field = 'title' in body ? 'title' : 'statement'
      await writes(d.callers[creator], 'PUT', `${base}/{id}`, `${base}/${path(draftId)}`, 200, { id: draftId, op: 'update', actor: creatorId }, { [field]: 'Changed by its author' })
      if (crud.delete) await writes(d.callers[creator], 'DELETE', `${base}/{id}`, `${base}/${path(draftId)}`, 200, { id: draftId, op: 'delete', actor: creatorId })
    }
    const started = await startOne(t, d, domain, 8)
    exercised.add(`POST ${base}`)
    if (crud.submit) exercised.add(`POST ${base}/{id}/submit`)
    t.match(await latest(started.id), { actor: creatorId }, `${domain}: the submission is its submitter's`)
    await approveAll(t, d, domain, started)
    for (const route of ['approve', 'decision']) exercised.add(`POST ${base}/{id}/${route}`)
    const decided = await latest(started.id)
    t.not(decided?.actor, creatorId, `${domain}: the approval is the approver's`)
    t.ok(decided?.actor.startsWith('User/') || decided?.actor.startsWith('Faculty/'), `${domain}: an approver is a user`)
    const withdrawn = await startOne(t, d, domain, 9)
    await writes(d.callers[withdrawn.creator], 'POST', `${base}/{id}/withdraw`, `${base}/${path(withdrawn.id)}/withdraw`, 200, { id: withdrawn.id, op: 'update', actor: userIdForEmail(people[withdrawn.creator].email) }, {})
    // Rejection, revision requests and delegation are decisions through the same engine as approval.
    for (const route of ['reject', 'request-revision', 'delegate']) exercised.add(`POST ${base}/{id}/${route}`)
  }

  // Jobs: a campus sync run, a publication import and a citation refresh, and a revert of each run.
  const feed = await provider(t)
  await admin({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(feed.url) } })
  for (const kind of ['courses', 'sections', 'people']) {
    exercised.add(`POST /api/campus-sync/${kind}`)
    const job = await finished(admin, await accepted(t, admin, `/api/campus-sync/${kind}`))
    const runId = (job.result as { run_id: string }).run_id
    const written = await revisions.find({ actor: `sync:${runId}` })
    t.ok(written.length > 0 && written.every((r) => r.via === `campus-sync/${kind}` && r.run === `sync:${runId}`), `a ${kind} sync's writes are its run's (${written.length})`)
  }
  // A complete sync is the three runs, each writing as itself: the feed changes a course, a class and a
  // user (modified later than anything read, so a delta read brings them) for each run to write.
  const later = '2030-01-01T00:00:00Z'
  feed.feed.courses[0] = { ...feed.feed.courses[0]!, title: 'Intro to Computing, renamed', dateLastModified: later }
  feed.feed.classes[0] = { ...feed.feed.classes[0]!, location: 'Hall 9', dateLastModified: later }
  feed.feed.users[0] = { ...feed.feed.users[0]!, familyName: 'Renamed', dateLastModified: later }
  exercised.add('POST /api/campus-sync/all')
  const all = await finished(admin, await accepted(t, admin, '/api/campus-sync/all'))
  for (const run of (all.result as { runs: { kind: string; run_id: string }[] }).runs) {
    const written = await revisions.find({ actor: `sync:${run.run_id}` })
    t.ok(written.length > 0 && written.every((r) => r.via === `campus-sync/${run.kind}` && r.run === `sync:${run.run_id}`), `a complete sync's ${run.kind} writes are its run's (${written.length})`)
  }
  const faculty = await app.records.create('Faculty', { first_name: 'Ada', last_name: 'Author', email: 'ada.author@dept.edu', bibliography_source_id: 'A1' }, { actor: testActor })
  exercised.add('POST /api/publications/import/{personId}')
  const imported = await finished(admin, await accepted(t, admin, `/api/publications/import/${faculty._id}`))
  const importRun = (imported.result as { run_id: string }).run_id
  t.equal(await revisions.count({ actor: `import:${importRun}`, run: `import:${importRun}`, via: 'publication-import', op: 'create' }), 2, 'an import\'s publications are its run\'s')
  exercised.add('POST /api/publications/import-runs/{id}/revert')
  const undone = await finished(admin, await accepted(t, admin, `/api/publications/import-runs/${importRun}/revert`))
  t.match(undone.result, { reverted: 2 }, 'the import is reverted')
  const revertRun = (undone.result as { run_id: string }).run_id
  t.equal(await revisions.count({ run: `sync:${revertRun.slice('SyncRun/'.length)}`, via: `revert/import:${importRun}` }), 2, 'a revert\'s writes are its own run\'s')
  exercised.add('POST /api/campus-sync/runs/{id}/revert')
  const again = await finished(admin, await accepted(t, admin, `/api/campus-sync/runs/${encodeURIComponent(revertRun)}/revert`))
  t.match(again.result, { reverted: 2 }, 'and the revert of a revert')

  exercised.add('POST /api/admin/publications/import')
  t.equal((await finished(admin, await accepted(t, admin, '/api/admin/publications/import'))).state, 'completed')
  exercised.add('POST /api/admin/citations/update')
  const refreshed = await finished(admin, await accepted(t, admin, '/api/admin/citations/update'))
  t.equal(await revisions.count({ actor: `import:${(refreshed.result as { run_id: string }).run_id}`, via: 'citation-refresh' }), 2, 'a refresh\'s updates are its run\'s')

  // The route list: every write route is exercised above or writes no record with history.
  const paths = (app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths
  const writeRoutes = Object.entries(paths).flatMap(([route, methods]) => Object.keys(methods).filter((m) => ['post', 'put', 'patch', 'delete'].includes(m)).map((m) => `${m.toUpperCase()} ${route}`))
  const unplaced = writeRoutes.filter((route) => !exercised.has(route) && !(route in noRecordWrites))
  t.same(unplaced, [], 'every write route is placed: exercised here, or listed as writing no record with history')

  // Every record agrees with its revisions; none is anonymous.
  for (const name of historyCollections(app.schema)) {
    for (const record of await app.store.collection(name).find({})) {
      const own = await revisions.find({ record: record._id }, { sort: [['version', 1]] })
      t.ok(own.length > 0, `${record._id} has revisions`)
      t.equal(own.at(-1)?.version, record._version, `${record._id}: its latest revision is its version`)
      t.same(own.map((r) => r.version), own.map((_, i) => own[0]!.version + i), `${record._id}: no version missing`)
    }
  }
  const unnamed = await revisions.find({ actor: { $in: ['system', 'anonymous'] } })
  t.same(unnamed.map((r) => `${r.record} ${r.via}`), [], 'every revision names who wrote it')
})
