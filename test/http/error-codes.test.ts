import { once } from 'node:events'
import { connect } from 'node:net'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import t from 'tap'
import { buildApp } from '../../src/app.js'
import { allow } from '../../src/auth/permissions.js'
import { loadConfig } from '../../src/config.js'
import { errorTable } from '../../src/errors.js'
import { listen } from '../auth/support.js'
import { buildTestApp } from '../helpers/app.js'
import { documentedCodes, errorCodeCheck, uncoded } from '../helpers/error-codes.js'
import { tempDir } from '../helpers/temp-dir.js'

t.test('docs/errors.md lists exactly the codes of src/errors.ts, each with its status and condition', async (t) => {
  const documented = documentedCodes()
  const declared = Object.entries(errorTable)
  t.ok(declared.length > 20, `${declared.length} codes declared`)
  for (const [code, { status, condition }] of declared) {
    t.same(documented.get(code), { status, condition }, `${code} is documented as declared`)
  }
  for (const code of documented.keys()) t.ok(Object.hasOwn(errorTable, code), `${code} in docs/errors.md is declared`)
  for (const code of Object.keys(errorTable)) t.match(code, /^ADKS_[A-Z]+(_[A-Z]+)*$/, `${code} has the prefix and shape`)
})

t.test('the check finds an error answer without a listed code', async (t) => {
  const listed = new Set(documentedCodes().keys())
  t.equal(uncoded(200, '{"ok":true}', listed), undefined, 'a success is not checked')
  t.equal(uncoded(404, JSON.stringify({ success: false, error: 'x', statusCode: 404, code: 'ADKS_RECORD_NOT_FOUND' }), listed), undefined)
  t.equal(uncoded(404, Buffer.from(JSON.stringify({ success: false, error: 'x', statusCode: 404, code: 'ADKS_ROUTE_NOT_FOUND' })), listed), undefined)
  t.equal(uncoded(404, JSON.stringify({ success: false, error: 'x', statusCode: 404 }), listed), 'no code')
  t.equal(uncoded(409, JSON.stringify({ success: false, error: 'x', statusCode: 409, code: 'ADKS_MADE_UP' }), listed), 'code ADKS_MADE_UP, which docs/errors.md does not list')
  t.equal(uncoded(400, JSON.stringify({ success: false, error: 'x', statusCode: 409, code: 'ADKS_VALIDATION_FAILED' }), listed), 'statusCode 409 in its body')
  t.equal(uncoded(500, 'Internal Server Error', listed), 'a body that is not JSON')
})

t.test("the test app's check fails the test on a route that answers without a code", async (t) => {
  const dir = await tempDir(t)
  const failures: string[] = []
  const recorder = { fail: (message: string) => failures.push(message) } as unknown as Parameters<typeof errorCodeCheck>[0]
  const routes = async (app: FastifyInstance) => {
    const config = { policy: allow.public }
    app.get('/api/teapot-uncoded', { config }, async (_request, reply) => reply.code(418).send({ success: false, error: 'I am a teapot', statusCode: 418 }))
    app.get('/api/teapot-thrown', { config }, async () => { throw Object.assign(new Error('I am a teapot'), { statusCode: 418 }) })
    app.get('/api/fault', { config }, async () => { throw new Error('ECONNRESET from a driver') })
  }
  const app = await buildApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dir }), { plugins: [errorCodeCheck(recorder), routes] })
  t.teardown(() => app.close())

  t.equal((await app.inject({ url: '/api/teapot-uncoded' })).statusCode, 418)
  t.same(failures, ['GET /api/teapot-uncoded answered 418 with no code'], 'the uncoded answer is named, with its route')

  failures.length = 0
  const thrown = await app.inject({ url: '/api/teapot-thrown' })
  t.match(thrown.json(), { success: false, statusCode: 418, code: 'ADKS_BAD_REQUEST', error: 'I am a teapot' }, 'a thrown client error gets a code from the handler')
  const fault = await app.inject({ url: '/api/fault' })
  t.equal(fault.statusCode, 500)
  t.equal(fault.json().code, 'ADKS_INTERNAL')
  t.equal(fault.json().error, `Internal error; quote request id ${String(fault.headers['x-request-id'])} when reporting it`)
  t.notMatch(fault.body, /ECONNRESET/, "the fault's own text stays out")
  const missing = await app.inject({ url: '/api/no-such-route' })
  t.equal(missing.json().code, 'ADKS_ROUTE_NOT_FOUND')
  t.same(failures, [], 'coded answers, the 404 included, pass')
})

t.test("Fastify's own refusals carry codes too", async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.example.edu', 'admin')
  const badUrl = await app.inject({ url: '/api/people/%E0%A4%A' })
  t.match(badUrl.json(), { success: false, statusCode: 400, code: 'ADKS_URL_MALFORMED' })
  const longParam = await app.inject({ url: `/api/courses/${'a'.repeat(600)}` })
  t.match(longParam.json(), { success: false, statusCode: 414, code: 'ADKS_URL_TOO_LONG' })
  const notJson = await admin({ method: 'POST', url: '/api/courses', headers: { 'content-type': 'application/json' }, payload: '{' })
  t.equal(notJson.json().code, 'ADKS_BODY_MALFORMED')
  const plain = await admin({ method: 'POST', url: '/api/courses', headers: { 'content-type': 'text/plain' }, payload: 'x' })
  t.equal(plain.json().code, 'ADKS_MEDIA_TYPE_UNSUPPORTED')
})

t.test('a request that reaches an instance while it drains is refused with a code', async (t) => {
  // Events, not delays, order the steps: the first request has passed every onRequest hook (its body is
  // awaited), and the close has run its preClose hooks, before the second request is sent.
  let inFlight!: () => void
  const reachedBody = new Promise<void>((resolve) => { inFlight = resolve })
  let draining!: () => void
  const closing = new Promise<void>((resolve) => { draining = resolve })
  const watch = async (app: FastifyInstance) => {
    app.addHook('preParsing', async (request) => { if (request.method === 'POST') inFlight() })
    app.addHook('preClose', async () => { draining() })
  }
  const { app, token } = await buildTestApp(t, {}, { plugins: [fp(watch)] })
  const port = await listen(app)
  const bearer = `Bearer ${await token('admin@dept.example.edu', 'admin')}`
  const socket = connect(port, '127.0.0.1')
  t.teardown(() => socket.destroy())
  let received = ''
  socket.on('data', (chunk: Buffer) => { received += chunk.toString() })
  await once(socket, 'connect')
  const body = JSON.stringify({ course_code: 'DRAIN 101', title: 'In flight' })
  socket.write(`POST /api/courses HTTP/1.1\r\nhost: x\r\nauthorization: ${bearer}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 5)}`)
  await reachedBody
  const closed = app.close()
  await closing
  // The rest of the first body, then a second request on the same kept-alive connection.
  socket.write(`${body.slice(5)}GET /api/courses HTTP/1.1\r\nhost: x\r\nauthorization: ${bearer}\r\n\r\n`)
  await closed
  if (!socket.closed) await once(socket, 'close')
  const answers = received.split(/(?=HTTP\/1\.1 )/)
  t.match(answers[0], /^HTTP\/1\.1 201 /, 'the request in flight is served')
  const refused = answers[1] ?? ''
  t.match(refused, /^HTTP\/1\.1 503 /, 'the one after the close began is refused')
  t.match(refused, /\r\nretry-after: 5\r\n/i)
  const id = /\r\nx-request-id: ([^\r]+)\r\n/i.exec(refused)?.[1]
  t.same(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4)), {
    success: false, statusCode: 503, code: 'ADKS_SHUTTING_DOWN',
    error: `The service is shutting down and did not serve this request; send it again; quote request id ${String(id)} when reporting it`,
  })
})
