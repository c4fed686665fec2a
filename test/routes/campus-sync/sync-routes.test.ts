/**
 * The campus sync routes over the real app: jobs run inline on the embedded driver, the feed is a
 * OneRoster REST provider over real HTTP (test/campus-sync/support.ts) or the sample package.
 */
import t from 'tap'
import { generateSampleDepartment } from '../../../scripts/sample/index.js'
import { seedDepartment } from '../../../scripts/sample/seed-store.js'
import { RecordService } from '../../../src/records/service.js'
import { captureLogs, listen, send } from '../../auth/support.js'
import { buildTestApp } from '../../helpers/app.js'
import type { SyncResult } from '../../../src/campus-sync/runner.js'
import { assertAccounted, provider } from '../../campus-sync/support.js'
import { accepted, admin, finished, gatedProvider, restSource } from './support.js'

t.test('a people sync through the route: 202, the job completes, people are on record and the run is listed', async (t) => {
  const { app, as } = await buildTestApp(t)
  const p = await provider(t)
  const ops = as(admin, 'admin')
  t.equal((await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(p.url) } })).statusCode, 200)
  for (const kind of ['courses', 'sections', 'people']) {
    const job = await finished(ops, await accepted(t, ops, `/api/campus-sync/${kind}`))
    t.match(job, { queue: 'campus-sync', name: kind, state: 'completed', data: { kind }, result: { kind, status: 'completed', dry_run: false, accounted: true } }, kind)
    t.doesNotThrow(() => assertAccounted(job.result as unknown as SyncResult), `${kind}: every row accounted for`)
  }
  const { records, schema } = app
  const people = await records.find(schema.class('Person')!, {})
  t.same(people.map((person) => person.campus_id).sort(), ['net-A1', 'net-F1', 'net-S1', 'net-S2'])
  t.equal((await records.find(schema.class('Enrollment')!, {})).length, 2)

  const runs = await ops({ method: 'GET', url: '/api/campus-sync/runs' })
  t.equal(runs.statusCode, 200)
  t.same(runs.json().items.map((r: { kind: string }) => r.kind), ['people', 'sections', 'courses'], 'newest first')
  t.match(runs.json(), { total: 3, limit: 50, offset: 0, items: [{ kind: 'people', status: 'completed', dry_run: false, created: 6, errors: [] }] })
  t.same((await ops({ method: 'GET', url: '/api/campus-sync/runs?kind=courses&limit=1' })).json().items.map((r: { kind: string }) => r.kind), ['courses'])
  t.equal((await ops({ method: 'GET', url: '/api/campus-sync/runs?limit=0' })).statusCode, 400)
})

t.test('a dry run reports the diff and writes no record', async (t) => {
  const { app, as } = await buildTestApp(t)
  const p = await provider(t)
  const ops = as(admin, 'admin')
  await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(p.url) } })
  const job = await finished(ops, await accepted(t, ops, '/api/campus-sync/people', { dryRun: true }))
  t.match(job, { state: 'completed', data: { kind: 'people', dryRun: true }, result: { dry_run: true, created: 4, rows: 7, accounted: true } })
  t.doesNotThrow(() => assertAccounted(job.result as unknown as SyncResult), 'a dry run accounts for every row as a real run would')
  const diff = (job.result as { diff: { person: { create: unknown[] } } }).diff
  t.equal(diff.person.create.length, 4, 'the diff lists the people a real run would create')
  t.same(await app.records.find(app.schema.class('Person')!, {}), [], 'no person written')
  t.match((await ops({ method: 'GET', url: '/api/campus-sync/runs' })).json().items, [{ kind: 'people', dry_run: true }])
})

t.test('config: the secret is answered only as set or unset; bad configurations are refused naming the field', async (t) => {
  const { as } = await buildTestApp(t)
  const p = await provider(t)
  const ops = as(admin, 'admin')
  const initial = await ops({ method: 'GET', url: '/api/campus-sync/config' })
  t.match(initial.json(), { configured: false, source: { type: 'oneroster-csv', client_secret: 'unset' }, terms: [], delete_policy: 'deactivate', max_deactivate_percent: 10 })

  const put = await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(p.url), terms: ['25F'], delete_policy: 'keep', max_deactivate_percent: 25 } })
  t.equal(put.statusCode, 200)
  const got = await ops({ method: 'GET', url: '/api/campus-sync/config' })
  t.same(got.json(), {
    configured: true, source: { type: 'oneroster-rest', url: p.url, token_url: `${p.url}/token`, client_id: 'cid', client_secret: 'set' },
    terms: ['25F'], delete_policy: 'keep', max_deactivate_percent: 25,
  })
  t.notOk(got.body.includes('s3cret') || put.body.includes('s3cret'), 'the secret never leaves')
  // What GET answered, sent back, keeps the stored secret.
  const { configured: _configured, ...roundTrip } = got.json()
  t.equal((await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: roundTrip })).statusCode, 200)
  t.equal((await ops({ method: 'GET', url: '/api/campus-sync/config' })).json().source.client_secret, 'set')
  const moved = await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { ...roundTrip, source: { ...roundTrip.source, url: 'http://10.0.0.5/oneroster', token_url: undefined } } })
  t.equal(moved.statusCode, 400, 'a secret does not follow the configuration to another token URL')
  t.match(moved.json().error, /source\.client_secret/)
  t.equal(moved.json().code, 'ADKS_VALIDATION_FAILED')

  const refused = async (payload: object, field: RegExp) => {
    const response = await ops({ method: 'PUT', url: '/api/campus-sync/config', payload })
    t.equal(response.statusCode, 400, JSON.stringify(payload))
    t.match(response.json().error, field)
    t.equal(response.json().code, 'ADKS_VALIDATION_FAILED')
  }
  await refused({ source: { ...restSource(p.url), url: 'ftp://feed.example.edu/' } }, /source\/url|source\.url/)
  await refused({ source: { ...restSource(p.url), url: 'file:///etc/passwd' } }, /source\/url|source\.url/)
  await refused({ source: restSource(p.url), max_deactivate_percent: -1 }, /max_deactivate_percent/)
  await refused({ source: restSource(p.url), max_deactivate_percent: 101 }, /max_deactivate_percent/)
  await refused({ source: restSource(p.url), schedule: 'nightly' }, /schedule/)
  await refused({ source: { ...restSource(p.url), password: 'x' } }, /password/)
  await refused({ source: restSource(p.url), delete_policy: 'purge' }, /delete_policy/)
  await refused({ source: restSource(p.url), terms: ['Fall 2025'] }, /terms/)
  await refused({ source: { type: 'oneroster-csv', path: '/nonexistent/package' } }, /source\.path/)
  await refused({ source: { type: 'oneroster-csv', path: '/tmp', url: p.url } }, /source\.url/)
  await refused({ source: { type: 'oneroster-rest', client_id: 'cid', client_secret: 'x' } }, /source\.url/)
  t.match((await ops({ method: 'GET', url: '/api/campus-sync/config' })).json(), { terms: ['25F'], max_deactivate_percent: 25 }, 'refused writes changed nothing')

  const loopback = await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: { ...restSource('http://127.0.0.1:9/'), client_secret: 'new' } } })
  t.equal(loopback.statusCode, 200, 'a loopback or private feed address is allowed')
})

t.test('terms: the source\'s terms and which are synced; a sync of an unknown term is refused naming it', async (t) => {
  const { as } = await buildTestApp(t)
  const p = await provider(t)
  const ops = as(admin, 'admin')
  await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(p.url), terms: ['26S'] } })
  t.same((await ops({ method: 'GET', url: '/api/campus-sync/terms' })).json(), {
    items: [
      { code: '25F', title: '25F', start: '2025-08-25', end: '2025-12-15', in_source: true, synced: false },
      { code: '26S', title: null, start: null, end: null, in_source: false, synced: true },
    ],
  })
  const unknown = await ops({ method: 'POST', url: '/api/campus-sync/sections', payload: { term: '99F' } })
  t.equal(unknown.statusCode, 400)
  t.match(unknown.json().error, /Unknown term "99F"/)
  t.equal(unknown.json().code, 'ADKS_VALIDATION_FAILED')
  const job = await finished(ops, await accepted(t, ops, '/api/campus-sync/courses', { term: '25F' }))
  t.match(job, { state: 'completed', data: { kind: 'courses', term: '25F' }, result: { rows: 2, accounted: true } })
  await accepted(t, ops, '/api/campus-sync/courses', { term: '26S' })
  t.equal((await ops({ method: 'POST', url: '/api/campus-sync/courses' })).statusCode, 202, 'a POST with no body at all')
  t.equal((await ops({ method: 'POST', url: '/api/campus-sync/people', payload: { dryRun: 'yes' } })).statusCode, 400)
  t.equal((await ops({ method: 'POST', url: '/api/campus-sync/people', payload: { kind: 'all' } })).statusCode, 400)
})

t.test('a source that cannot be read answers 502 for its terms, its own error only in the log', async (t) => {
  const logs = captureLogs()
  const { as } = await buildTestApp(t, { LOG_LEVEL: 'warn' }, { logStream: logs.stream })
  const p = await provider(t)
  const ops = as(admin, 'admin')
  await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: { ...restSource(p.url), client_secret: 'wrong' } } })
  const answer = await ops({ method: 'GET', url: '/api/campus-sync/terms' })
  t.equal(answer.statusCode, 502)
  t.same(answer.json(), {
    success: false, statusCode: 502, code: 'ADKS_SYNC_SOURCE_UNREADABLE',
    error: `The campus sync source could not be read; quote request id ${String(answer.headers['x-request-id'])} when reporting it`,
  }, "the feed's own error stays out of the answer")
  const logged = logs.lines.map((line) => JSON.parse(line)).find((entry) => entry.reqId === answer.headers['x-request-id'] && entry.err)
  // pino writes the cause after the error's own message: "...could not be read: <what the feed said>".
  const detail = /^The campus sync source could not be read: (.+)$/.exec(String(logged?.err?.message))?.[1]
  t.ok(detail, `what the feed said is logged with the request id (${String(detail)})`)
  t.equal(logged?.err?.code, 'ADKS_SYNC_SOURCE_UNREADABLE')
  t.notOk(answer.body.includes(String(detail)), 'and only there')
})

t.test('only holders of manage_jobs, signed in, reach the routes', async (t) => {
  const { app, as, token } = await buildTestApp(t)
  const faculty = as('prof@dept.example.edu', 'faculty')
  for (const [method, url] of [['POST', '/api/campus-sync/people'], ['GET', '/api/campus-sync/config'], ['PUT', '/api/campus-sync/config'], ['GET', '/api/campus-sync/terms'], ['GET', '/api/campus-sync/runs']] as const) {
    t.equal((await faculty({ method, url, payload: method === 'GET' ? undefined : {} })).statusCode, 403, `${method} ${url} as faculty`)
    t.equal((await app.inject({ method, url })).statusCode, 401, `${method} ${url} anonymous`)
  }
  const port = await listen(app)
  const bearer = { authorization: `Bearer ${await token(admin, 'admin')}`, 'content-type': 'application/json' }
  const created = await send(port, 'POST', '/api/api-keys', bearer, { name: 'ops key', permissions: ['read_courses'] })
  const key = (created.json() as { key: string }).key
  t.ok(key, 'an admin key was issued')
  t.equal((await send(port, 'POST', '/api/campus-sync/people', { 'X-API-Key': key, 'content-type': 'application/json' }, {})).status, 403, 'an API key is refused')
  t.equal((await send(port, 'GET', '/api/campus-sync/runs', { 'X-API-Key': key })).status, 403)
})

t.test('with nothing configured, the sample package syncs onto the seeded department', async (t) => {
  const { app, as } = await buildTestApp(t)
  await seedDepartment(new RecordService(app.store, app.schema), generateSampleDepartment(1))
  const ops = as(admin, 'admin')
  const job = await finished(ops, await accepted(t, ops, '/api/campus-sync/people'))
  t.match(job, { state: 'completed', result: { status: 'completed', created: 0, errors: [], accounted: true } })
  t.doesNotThrow(() => assertAccounted(job.result as unknown as SyncResult), 'every sample row accounted for')
  t.equal((job.result as { by_kind: { person: { updated: number } } }).by_kind.person.updated, 410, 'every sample person adopted by campus id')
  const narrowed = await finished(ops, await accepted(t, ops, '/api/campus-sync/people', { term: '25F', dryRun: true }))
  t.match(narrowed.result, { status: 'completed', errors: [] }, "a run narrowed to a term leaves other terms' enrollments out, not in error")
  t.doesNotThrow(() => assertAccounted(narrowed.result as unknown as SyncResult), "other terms' enrollments are counted as skipped")
  const terms = (await ops({ method: 'GET', url: '/api/campus-sync/terms' })).json().items as { code: string; synced: boolean }[]
  t.ok(terms.some((term) => term.code === '25F' && term.synced), 'the sample package\'s terms')
})

t.test('a manual sync while the same one runs folds into it', async (t) => {
  const { as } = await buildTestApp(t)
  const { state, release } = await gatedProvider(t)
  const ops = as(admin, 'admin')
  await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(state.url) } })
  const first = await accepted(t, ops, '/api/campus-sync/people')
  await finishedWhen(() => state.usersAsked > 0)
  t.equal((await ops({ method: 'GET', url: `/api/admin/jobs/${first}` })).json().state, 'active')
  t.equal(await accepted(t, ops, '/api/campus-sync/people'), first, 'the second request answers the running job')
  const dry = await accepted(t, ops, '/api/campus-sync/people', { dryRun: true })
  t.not(dry, first, 'a dry run is another run')
  release()
  t.match(await finished(ops, first), { state: 'completed', result: { accounted: true } })
  t.match(await finished(ops, dry), { state: 'completed', result: { accounted: true } })
  const after = await accepted(t, ops, '/api/campus-sync/people')
  t.not(after, first, 'once it finished, a request starts a new run')
  t.match(await finished(ops, after), { state: 'completed', result: { created: 0, accounted: true } })
})

async function finishedWhen(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the run to reach the feed')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
