import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { Fixtures } from '../helpers/records.js'

/**
 * The MongoDB server going away under a running service (docs/decisions.md, "When the store or Redis is
 * down"): reads and writes answer 503 with Retry-After and say nothing of the cause, and /ready fails. The
 * server is a FerretDB of this test's own (scripts/ferretdb.sh), stopped half-way; the pass's shared one
 * stays up.
 */
const run = promisify(execFile)
const url = process.env.MONGODB_URL

if (!url) {
  t.plan(0, 'MongoDB outage not tried: MONGODB_URL is not set (the MongoDB pass runs it on a FerretDB of its own)')
} else {
  t.test('with the MongoDB server gone, reads and writes answer 503 with Retry-After, and /ready fails', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'adks-outage-'))
    const ferretdb = (command: 'start' | 'stop') => run('bash', ['scripts/ferretdb.sh', command, dir])
    t.teardown(async () => {
      await ferretdb('stop')
      await rm(dir, { recursive: true, force: true })
    })
    const own = (await ferretdb('start')).stdout.trim()
    const { app, as } = await buildTestApp(t, { MONGODB_URL: own, MONGODB_DB: 'adks_outage', CACHE: 'off' })
    const admin = as('admin@dept.edu', 'admin')
    const fx = new Fixtures(app, admin)
    const person = await fx.create('Faculty', await fx.body('Faculty', { n: 1 }))
    const read = () => admin({ method: 'GET', url: `/api/people/${encodeURIComponent(person._id)}` })
    t.equal((await read()).statusCode, 200, 'served while the server is up')
    t.equal((await app.inject({ method: 'GET', url: '/ready' })).statusCode, 200, 'ready while the server is up')

    await ferretdb('stop')
    for (const [what, answer] of [
      ['a read', await read()],
      ['a write', await admin({ method: 'PUT', url: `/api/people/${encodeURIComponent(person._id)}`, payload: { office: 'Room 2' } })],
    ] as const) {
      t.equal(answer.statusCode, 503, `${what}: 503`)
      t.equal(answer.headers['retry-after'], '5', `${what}: Retry-After`)
      t.match(answer.json(), { success: false, statusCode: 503, code: 'ADKS_STORE_UNAVAILABLE', error: /record store is unavailable/ }, `${what}: the error names the store`)
      t.notMatch(answer.body, /ECONNREFUSED|127\.0\.0\.1|Mongo|ferret/i, `${what}: nothing of the cause`)
    }
    const ready = await app.inject({ method: 'GET', url: '/ready' })
    t.equal(ready.statusCode, 503, '/ready fails')
  })
}
