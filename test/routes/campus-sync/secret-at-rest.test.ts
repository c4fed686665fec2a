/**
 * The campus feed's client secret at rest: sealed in the store (AES-256-GCM under SECRETS_KEY), opened
 * only to authenticate to the feed, across restarts of the real app on the same data directory.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { buildTestApp, type TestApp } from '../../helpers/app.js'
import { provider } from '../../campus-sync/support.js'
import { accepted, admin, finished, restSource } from './support.js'
import { testActor } from '../../helpers/actor.js'

const secret = 's3cret'

/** The stored configuration as the store holds it, below the record service. */
async function rawConfig(test: TestApp): Promise<Record<string, unknown>> {
  const [doc] = await test.app.store.collection('sync_config').find({})
  return doc as Record<string, unknown>
}

/** Every file in the data directory that holds the secret's text (the embedded store's files included). */
async function filesHolding(dataDir: string, text: string): Promise<string[]> {
  const entries = await readdir(dataDir, { withFileTypes: true, recursive: true })
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
  const holding = await Promise.all(files.map(async (file) => ((await readFile(file, 'latin1')).includes(text) ? [file] : [])))
  return holding.flat()
}

/** A courses run through the route on the restarted app: it reaches the feed only with the right secret. */
async function coursesSync(t: Test, test: TestApp) {
  const ops = test.as(admin, 'admin')
  return (await finished(ops, await accepted(t, ops, '/api/campus-sync/courses'))).result
}

t.test('the client secret is stored sealed, never in clear, and a REST sync still authenticates after a restart', async (t) => {
  const first = await buildTestApp(t)
  const p = await provider(t)
  const ops = first.as(admin, 'admin')
  t.equal((await ops({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(p.url) } })).statusCode, 200)
  const stored = await rawConfig(first)
  t.match(stored.client_secret, /^sealed:v1:/, 'the store holds the sealed secret')
  t.notOk(JSON.stringify(stored).includes(secret), 'and not the secret')
  const dataDir = first.config.dataDir
  await first.app.close()
  if (first.app.store.kind === 'embedded') {
    t.same(await filesHolding(dataDir, stored.client_secret as string), [join(dataDir, 'adks.sqlite')], "the search reads the file the configuration lives in: it finds the sealed form there")
  }
  t.same(await filesHolding(dataDir, secret), [], 'no file in the data directory holds the secret')

  const second = await buildTestApp(t, { DATA_DIR: dataDir })
  t.match(await coursesSync(t, second), { status: 'completed', created: 2 }, 'the restarted service opened the secret and the feed accepted it')
  t.equal(p.tokenRequests, 1, 'one token, granted for cid:s3cret')
  const answer = await second.as(admin, 'admin')({ method: 'GET', url: '/api/campus-sync/config' })
  t.equal(answer.json().source.client_secret, 'set')
  t.notOk(answer.body.includes(secret) || answer.body.includes('sealed:'), 'neither the secret nor its sealed form is answered')
})

t.test('a secret stored in clear by an earlier version is sealed at start-up and still used', async (t) => {
  const first = await buildTestApp(t)
  const p = await provider(t)
  // As the version before encryption wrote it.
  await first.app.records.create('SyncConfig', {
    name: 'campus', source_type: 'oneroster-rest', url: p.url, token_url: `${p.url}/token`, client_id: 'cid', client_secret: secret,
    terms: [], delete_policy: 'deactivate', max_deactivate_percent: 10,
  }, { actor: testActor, key: 'campus' })
  const dataDir = first.config.dataDir
  await first.app.close()

  const second = await buildTestApp(t, { DATA_DIR: dataDir })
  t.match((await rawConfig(second)).client_secret, /^sealed:v1:/, 'sealed in place before serving')
  t.match(await coursesSync(t, second), { status: 'completed', created: 2 })
  await second.app.close()
  t.same(await filesHolding(dataDir, `"client_secret":"${secret}"`), [], 'the clear value is gone from the files once the store compacts on close')
})
