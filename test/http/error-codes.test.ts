import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { buildApp } from '../../src/app.js'
import { allow } from '../../src/auth/permissions.js'
import { loadConfig } from '../../src/config.js'
import { errorTable } from '../../src/errors.js'
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
