import t from 'tap'
import { captureLogs } from '../auth/support.js'
import { buildTestApp } from '../helpers/app.js'

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

t.test('/health and /ready answer without a credential; /ready names the adapters', async (t) => {
  const { app } = await buildTestApp(t)
  const health = await app.inject({ method: 'GET', url: '/health' })
  t.equal(health.statusCode, 200)
  t.same(health.json(), { status: 'ok' })
  const ready = await app.inject({ method: 'GET', url: '/ready' })
  t.equal(ready.statusCode, 200)
  t.same(ready.json(), { status: 'ready', checks: { store: { ok: true, adapter: 'embedded' } } })
})

t.test("/ready answers 503 naming the check that fails; the check's own error goes to the log", async (t) => {
  const logs = captureLogs()
  const { app } = await buildTestApp(t, { LOG_LEVEL: 'error' }, { logStream: logs.stream })
  app.readinessProbes.set('cache', async () => { throw new Error('connect ECONNREFUSED 10.0.0.7:6380') })
  const ready = await app.inject({ method: 'GET', url: '/ready' })
  t.equal(ready.statusCode, 503)
  const id = String(ready.headers['x-request-id'])
  t.same(ready.json(), {
    success: false, statusCode: 503, code: 'ADKS_NOT_READY', error: `Not ready: cache did not answer; quote request id ${id} when reporting it`,
    status: 'unavailable', checks: { store: { ok: true, adapter: 'embedded' }, cache: { ok: false, adapter: 'unreachable' } },
  })
  t.equal(ready.headers['retry-after'], '5')
  t.notMatch(ready.body, /ECONNREFUSED|10\.0\.0\.7/, "no text of the failing system's in the answer")
  t.ok(logs.lines.some((line) => line.includes('ECONNREFUSED 10.0.0.7:6380') && line.includes(id)), 'it is in the log, with the request id')
})

t.test('every response carries x-request-id; a sane incoming one is echoed, anything else replaced', async (t) => {
  const { app } = await buildTestApp(t)
  const idOf = async (url: string, given?: string) => {
    const response = await app.inject({ method: 'GET', url, headers: given === undefined ? {} : { 'x-request-id': given } })
    return String(response.headers['x-request-id'])
  }
  t.match(await idOf('/health'), uuid, 'minted when none is sent')
  t.not(await idOf('/health'), await idOf('/health'), 'a new one per request')
  t.match(await idOf('/api/courses'), uuid, 'on a 401 too')
  t.match(await idOf('/no/such/route'), uuid, 'on a 404 too')
  for (const sane of ['abc-123', 'trace.7f3a_9', 'A'.repeat(64)]) t.equal(await idOf('/health', sane), sane, `${sane.slice(0, 20)} is echoed`)
  for (const insane of ['A'.repeat(65), 'has space', '<script>', 'line\\nbreak', '../../etc', '']) {
    const id = await idOf('/health', insane)
    t.match(id, uuid, `${JSON.stringify(insane.slice(0, 20))} is replaced`)
  }
})

t.test('log lines are JSON with the request id and never hold a credential', async (t) => {
  const lines: string[] = []
  const { app, token } = await buildTestApp(t, { LOG_LEVEL: 'info' }, { logStream: { write: (line: string) => { lines.push(line) } } })
  const bearer = await token('logged@dept.edu', 'admin')
  const signature = bearer.split('.')[2]!
  const responses = [
    await app.inject({ method: 'GET', url: '/api/courses', headers: { authorization: `Bearer ${bearer}`, 'x-request-id': 'trace-courses' } }),
    await app.inject({ method: 'GET', url: '/api/courses', headers: { authorization: `Bearer ${bearer}x` } }),
    await app.inject({ method: 'GET', url: `/api/courses?token=${bearer}&limit=5`, headers: { authorization: `Bearer ${bearer}` } }),
    await app.inject({ method: 'POST', url: '/api/courses', headers: { authorization: `Bearer ${bearer}`, 'x-api-key': 'adks_secretkeyvalue' }, payload: { course_code: 'LOG 101', title: 'Logging' } }),
  ]
  t.same(responses.map((r) => r.statusCode), [200, 401, 400, 400], 'a token in the query is an unknown parameter, and two credentials at once are refused, but all are logged')

  t.ok(lines.length >= responses.length * 2, `request and response lines were written (${lines.length})`)
  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
  t.ok(entries.every((e) => typeof e.level === 'number' && typeof e.time === 'number' && typeof e.msg === 'string'), 'every line is a pino JSON object')
  for (const response of responses) {
    const id = response.headers['x-request-id']
    const mine = entries.filter((e) => e.reqId === id)
    t.ok(mine.some((e) => e.req) && mine.some((e) => e.res), `request ${id} has its request and response lines`)
  }
  t.ok(entries.some((e) => e.reqId === 'trace-courses'), 'an echoed request id is the one logged')
  const all = lines.join('\n')
  t.notMatch(all, signature, 'no line holds the token')
  t.notMatch(all, 'adks_secretkeyvalue', 'no line holds an API key')
  t.match(all, 'token=[REDACTED]', 'a token in the query string is redacted')
})
