/**
 * A data directory of the previous release (test/fixtures/previous-release, written by the NeDB
 * store) converted at the first start: every document as that release read it, the audit chain
 * unbroken and still extended, the signing secret and API keys working, the old files kept aside, and
 * a restart or a conversion cut short handled. expected.json is what that release itself read back.
 */
import BetterSqlite3 from 'better-sqlite3'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t, { type Test } from 'tap'
import { signIdToken, userIdForEmail } from '../../src/auth/tokens.js'
import type { Doc, Store } from '../../src/store/port.js'
import { databaseFile, EmbeddedStore } from '../../src/store/sqlite/store.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'

interface Expected {
  readonly auditHead: string
  readonly collections: Readonly<Record<string, { readonly count: number; readonly sha256: string }>>
}

const fixture = fileURLToPath(new URL('../fixtures/previous-release/', import.meta.url))
const expected = JSON.parse(await readFile(join(fixture, 'expected.json'), 'utf8')) as Expected
const names = Object.keys(expected.collections)
const oldFiles = names.map((name) => `${name}.db`).sort()
/** The sample department's admin, and the faculty member who created the fixture's API key. */
const admin = 'sadams@cs.example.edu'
const keyOwner = 'apark@cs.example.edu'

/** A fresh copy of the previous release's data directory. */
async function unpack(t: Test): Promise<string> {
  const dir = await tempDir(t)
  await promisify(execFile)('tar', ['-xzf', join(fixture, 'data.tar.gz'), '-C', dir])
  return dir
}

/** Per collection, as expected.json has it: the count and the SHA-256 of each document's JSON and a newline, in `_id` order. */
async function digest(store: Store): Promise<Record<string, { count: number; sha256: string }>> {
  const digests: Record<string, { count: number; sha256: string }> = {}
  for (const name of names) {
    const docs = await store.collection(name).find({}, { sort: [['_id', 1]] })
    const hash = createHash('sha256')
    for (const doc of docs) hash.update(JSON.stringify(doc) + '\n')
    digests[name] = { count: docs.length, sha256: hash.digest('hex') }
  }
  return digests
}

/** The files and folders directly in the data directory, and the folders the old files were set aside in. */
async function layout(dir: string): Promise<{ files: string[]; asides: string[] }> {
  const entries = await readdir(dir, { withFileTypes: true })
  return {
    files: entries.filter((e) => e.isFile()).map((e) => e.name).sort(),
    asides: entries.filter((e) => e.isDirectory() && e.name.startsWith('nedb-')).map((e) => e.name),
  }
}

/** Every file of the archive, by name: what the set-aside folder must hold unchanged. */
async function archived(t: Test): Promise<Map<string, Buffer>> {
  const dir = await unpack(t)
  return new Map(await Promise.all(oldFiles.map(async (name) => [name, await readFile(join(dir, name))] as const)))
}

async function openLogged(dir: string): Promise<{ store: EmbeddedStore; logged: string[] }> {
  const logged: string[] = []
  const store = await EmbeddedStore.open(dir, [], { log: (message) => logged.push(message) })
  return { store, logged }
}

t.test('the service starts on a previous release\'s data directory and serves it as that release left it', async (t) => {
  if (process.env.MONGODB_URL) {
    // With MONGODB_URL the app's store is MongoDB, and the data directory's files are never read.
    t.comment('not run: converting a data directory is the embedded store\'s, and MONGODB_URL is set')
    return
  }
  const dir = await unpack(t)
  const secret = (await readFile(join(dir, 'jwt-secret'), 'utf8')).trim()
  const secretsKey = await readFile(join(dir, 'secrets-key'))
  const { app, config, as } = await buildTestApp(t, { DATA_DIR: dir })
  t.equal(app.store.kind, 'embedded')

  t.same(await digest(app.store), expected.collections, 'every collection: the same documents, ids and versions included')

  const { files, asides } = await layout(dir)
  t.same(files.filter((name) => name.endsWith('.db')), [], 'no collection file is left in the data directory')
  t.ok(files.includes(databaseFile), `${databaseFile} holds the data now`)
  t.equal(asides.length, 1, 'the old files are in one folder')
  const kept = await archived(t)
  for (const name of oldFiles) t.same(await readFile(join(dir, asides[0]!, name)), kept.get(name), `${name} is kept aside unchanged`)
  t.equal((await readFile(join(dir, 'jwt-secret'), 'utf8')).trim(), secret, 'the signing secret stays in place')
  t.same(await readFile(join(dir, 'secrets-key')), secretsKey, 'and so does the key of sealed secrets')

  // Signed with the secret as the previous release kept it, and granting no role: the role is the stored user's.
  const users = app.store.collection<Doc & { email: string; role: string }>('users')
  const sample = await users.findOne({ email: admin })
  t.equal(sample?._id, userIdForEmail(admin), 'the sample admin\'s id is the one a token names')
  const keys = { algorithm: 'HS256', signKey: secret, verifyKey: secret } as const
  const token = signIdToken(keys, config, { sub: userIdForEmail(admin), email: admin })
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })
  t.equal(me.statusCode, 200, me.body)
  t.match(me.json(), { id: sample?._id, email: admin, role: 'admin' }, 'a token signed with the old secret signs in the stored admin')
  const people = await app.inject({ method: 'GET', url: '/api/people?limit=1', headers: { authorization: `Bearer ${token}` } })
  t.equal(people.statusCode, 200, people.body)
  t.equal(people.json().total, expected.collections.people!.count, 'and reads the people')
  const asAdmin = as(admin, 'admin')
  const listed = await asAdmin({ method: 'GET', url: '/api/people?limit=1' })
  t.equal(listed.statusCode, 200, listed.body)
  t.equal(listed.json().items.length, 1)

  // The audit chain: intact to the head the previous release left, then extended from it.
  const verified = await asAdmin({ method: 'GET', url: '/api/admin/audit/verify' })
  t.equal(verified.statusCode, 200, verified.body)
  const count = expected.collections.audit_log!.count
  t.match(verified.json(), { intact: true, checked: count, head: { seq: count, hash: expected.auditHead } }, 'the converted chain verifies to its old head')
  const student = encodeURIComponent('UndergraduateStudent/acampbel')
  const transcript = await asAdmin({ method: 'GET', url: `/api/students/${student}/transcript` })
  t.equal(transcript.statusCode, 200, transcript.body)
  const audit = app.store.collection<Doc & { seq: number; prevHash: string; hash: string; resourceType: string }>('audit_log')
  const appended = await audit.find({ seq: { $gt: count } }, { sort: [['_id', 1]] })
  t.equal(appended.length, 2, 'two entries appended')
  t.match(appended, [{ seq: count + 1, resourceType: 'audit-log', prevHash: expected.auditHead }, { seq: count + 2, resourceType: 'transcript' }],
    'the verification and the read are audited, the first chained to the old head')
  t.equal(appended[1]?.prevHash, appended[0]?.hash, 'the read chained to the entry before it')
  const again = await asAdmin({ method: 'GET', url: '/api/admin/audit/verify' })
  t.match(again.json(), { intact: true, checked: count + 2, head: { seq: count + 2, hash: appended[1]?.hash } }, 'the extended chain verifies')

  // The API key: its secret is unknown here, so it is checked as its owner and an admin see it.
  const [stored] = await app.store.collection<Doc & { owner: string; name: string; prefix: string }>('api_keys').find({})
  t.ok(stored, 'the fixture holds an API key')
  t.equal(stored?.owner, userIdForEmail(keyOwner), 'created by its owner')
  const presented = { id: stored?._id, name: stored?.name, prefix: stored?.prefix, owner: stored?.owner }
  const everyone = await asAdmin({ method: 'GET', url: '/api/api-keys?all=true' })
  t.equal(everyone.statusCode, 200, everyone.body)
  t.match(everyone.json(), { total: 1, items: [presented] }, 'an admin lists it')
  const owner = as(keyOwner, 'faculty')
  const own = await owner({ method: 'GET', url: '/api/api-keys' })
  t.match(own.json(), { total: 1, items: [{ ...presented, lastUsedAt: String }] }, 'its owner lists it, used')
  const usage = await owner({ method: 'GET', url: `/api/api-keys/${encodeURIComponent(stored!._id)}/usage` })
  t.equal(usage.statusCode, 200, usage.body)
  t.equal(usage.json().total, expected.collections.api_key_usage!.count, 'with its uses')
})

t.test('the conversion is logged with its counts, and a restart converts nothing more', async (t) => {
  const dir = await unpack(t)
  const first = await openLogged(dir)
  t.same(await digest(first.store), expected.collections, 'every collection as the previous release read it')
  await first.store.close()
  const total = Object.values(expected.collections).reduce((sum, { count }) => sum + count, 0)
  t.equal(first.logged.length, 1, `one message: ${first.logged.join(' | ')}`)
  const [message = ''] = first.logged
  t.match(message, `converted DATA_DIR ${dir} from the previous release: ${total} documents in ${names.length} collections`)
  for (const name of ['people', 'enrollments', 'audit_log', 'api_keys', 'job_queues']) {
    t.match(message, new RegExp(`[(, ]${name} ${expected.collections[name]!.count}[,)]`), `it counts ${name}`)
  }
  const { asides } = await layout(dir)
  t.match(message, `the old files are kept in ${join(dir, asides[0] ?? 'nowhere')}`, 'it says where the old files are')

  const second = await openLogged(dir)
  t.teardown(() => second.store.close())
  t.same(second.logged, [], 'the second start logs nothing about a conversion')
  t.same(await digest(second.store), expected.collections, 'and has the same data')
  t.same((await layout(dir)).asides, asides, 'nothing more was set aside')
})

t.test('a conversion cut short is thrown away and done again', async (t) => {
  const leftovers: ReadonlyArray<readonly [what: string, make: (path: string) => Promise<void>]> = [
    ['bytes that are no database', (path) => writeFile(path, 'not a database, cut off mid-')],
    ['a database converted part-way', async (path) => {
      const db = new BetterSqlite3(path)
      db.exec('CREATE TABLE "people" (_id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL)')
      db.prepare('INSERT INTO "people" (_id, doc) VALUES (?, ?)').run('Staff/ghost', JSON.stringify({ _id: 'Staff/ghost', type: 'Staff' }))
      db.close()
    }],
  ]
  for (const [what, make] of leftovers) {
    await t.test(what, async (t) => {
      const dir = await unpack(t)
      await make(join(dir, `${databaseFile}.converting`))
      const { store, logged } = await openLogged(dir)
      t.teardown(() => store.close())
      t.match(logged, [/^converted DATA_DIR /], 'the conversion ran to its end')
      t.same(await digest(store), expected.collections, 'with every document once, and nothing of the leftover')
      const { files } = await layout(dir)
      t.notOk(files.some((name) => name.startsWith(`${databaseFile}.converting`)), 'the leftover is gone')
      t.ok(files.includes(databaseFile))
    })
  }
})
