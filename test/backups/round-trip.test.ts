import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { generateKey } from '../../src/auth/api-keys/format.js'
import { RecordService } from '../../src/records/service.js'
import { compileSchema, type CompiledSchema } from '../../src/schema/index.js'
import type { Store } from '../../src/store/port.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { domainSpec, workflowDomains } from '../../src/workflows/registry.js'
import { generateSampleDepartment } from '../../scripts/sample/index.js'
import { seedDepartmentInBulk } from '../../scripts/sample/seed-bulk.js'
import { seedSampleWorkflows } from '../../scripts/sample/workflow-seed.js'
import { listen, send, type HttpAnswer } from '../auth/support.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import { projectRoot } from '../process/server-process.js'
import { archiveContents, contentsAt, mongodbUrl, newKey, newTarget, runScript, type Contents, type Target } from './tools.js'

/**
 * A backup restored into another store holds every collection record by record, and the service on it
 * answers as before (docs/operations.md): the sample department, with an API key, a decided request's
 * notifications and audited reads, backed up with `npm run backup` and restored with `npm run restore`,
 * embedded to embedded, and with MONGODB_URL set embedded to that server and from it back to embedded.
 */

// The sample department seeded, backed up and restored two or three times; on FerretDB its backup reads the revisions once per collection.
t.setTimeout(900_000)

const { hex, key } = newKey()
/** One SECRETS_KEY for every service here, as an operator moving a department keeps theirs. */
const secretsKey = randomBytes(32).toString('hex')

type Who = { readonly email: string } | { readonly apiKey: string }
type Answers = Record<string, { status: number; body: unknown }>

interface Department {
  readonly schema: CompiledSchema
  readonly contents: Contents
  readonly file: string
  readonly admin: string
  readonly student: string
  readonly apiKey: string
  /** The black-box reads compared before and after, as [who, url]. */
  readonly reads: readonly (readonly [Who, string])[]
  readonly before: Answers
}

interface Served extends TestApp {
  /** A GET over HTTP (an API key's header must reach the service as spelled), as a user by a new token of theirs, or by an API key. */
  get(who: Who, url: string): Promise<HttpAnswer>
  close(): Promise<void>
}

/** The service on a store of ours, listening; closed (before the store) once, by the test or at its end. */
async function serve(t: Test, store: Store, dataDir: string): Promise<Served> {
  const setup = await buildTestApp(t, { DATA_DIR: dataDir, SECRETS_KEY: secretsKey }, { store })
  let closing: Promise<void> | undefined
  const close = () => (closing ??= setup.app.close().then(() => store.close()))
  t.teardown(close)
  const port = await listen(setup.app)
  const get = async (who: Who, url: string) =>
    send(port, 'GET', url, 'apiKey' in who ? { 'X-API-Key': who.apiKey } : { Authorization: `Bearer ${await setup.token(who.email)}` })
  return { ...setup, get, close }
}

async function answersOf(served: Served, reads: Department['reads']): Promise<Answers> {
  const answers: Answers = {}
  for (const [who, url] of reads) {
    const answer = await served.get(who, url)
    answers[`${'apiKey' in who ? 'key' : who.email} ${url}`] = { status: answer.status, body: answer.json() }
  }
  return answers
}

/**
 * The sample department on the embedded store, then through the routes: an admin's API key, a
 * request decided by an admin (its student notified), a student's progress read (audited). The service
 * is closed before its backup, so the store holds exactly what the backup does.
 */
async function department(t: Test): Promise<Department> {
  const dir = await tempDir(t)
  const schema = await compileSchema(join(projectRoot, 'schema'))
  const store = await EmbeddedStore.open(dir, schema.collections.map((c) => c.name))
  for (const collection of schema.collections) await store.ensureIndexes(collection.name, collection.indexes)
  const records = new RecordService(store, schema)
  const sample = generateSampleDepartment(1)
  await seedDepartmentInBulk(records, sample)
  await seedSampleWorkflows({ store, records, schema }, sample.catalog, new Date())
  const served = await serve(t, store, dir)
  const [admin] = (await store.collection<{ _id: string; email: string }>('users').find({ role: 'admin' }, { sort: [['email', 1]] })).map((u) => u.email)
  const as = (email: string) => async (method: 'GET' | 'POST', url: string, payload?: object) =>
    served.app.inject({ method, url, payload, headers: { authorization: `Bearer ${await served.token(email)}` } })
  const faculty = sample.catalog.faculty[0]!
  const created = await as(admin!)('POST', '/api/api-keys', { name: 'Catalog feed', permissions: ['read_people', 'read_courses'] })
  t.equal(created.statusCode, 201, created.body)
  const apiKey = created.json().key as string

  const pending = (await as(admin!)('GET', domainSpec('honors_thesis').pendingPath)).json().items[0] as { id: string; submitter: string }
  const decided = await as(admin!)('POST', `${domainSpec('honors_thesis').base}/${encodeURIComponent(pending.id)}/approve`, { comment: 'Approved before the move' })
  t.equal(decided.statusCode, 200, 'an admin approved a pending thesis request')
  await served.app.notifications.relay.idle()
  const student = sample.catalog.undergraduates.find((s) => s.id === pending.submitter)!.body.email as string
  const progressOf = sample.catalog.undergraduates[5]!.id

  const reads: Department['reads'] = [
    ...['/api/people?limit=50', `/api/people/${encodeURIComponent(faculty.id)}`, '/api/courses?limit=50', `/api/students/${encodeURIComponent(progressOf)}/degree-progress`,
      '/api/schemas', '/api/schemas/Course', '/api/auth/me', '/api/groups', ...workflowDomains.map((d) => domainSpec(d).pendingPath)].map((url) => [{ email: admin! }, url] as const),
    [{ email: student }, '/api/notifications'],
    [{ email: student }, '/api/auth/me'],
    [{ email: student }, `/api/students/${encodeURIComponent(pending.submitter)}/degree-progress`],
    [{ apiKey }, '/api/people?limit=20'],
    [{ apiKey }, '/api/courses?limit=20'],
  ]
  const before = await answersOf(served, reads)
  t.ok((before[`${student} /api/notifications`]!.body as { total: number }).total > 0, 'the student was told of the decision')
  t.same(Object.entries(before).filter(([, answer]) => answer.status !== 200).map(([read]) => read), [], 'every read answered 200')
  await served.close()

  const file = join(dir, 'department.backup')
  const made = await runScript('backup', ['--out', file], { DATA_DIR: dir, BACKUP_KEY: hex })
  t.equal(made.code, 0, made.stderr)
  const contents = await contentsAt({ kind: 'embedded', env: {}, open: () => EmbeddedStore.open(dir, []) })
  t.same(await archiveContents(file, [key]), contents, 'the backup holds every collection as the store does')
  return { schema, contents, file, admin: admin!, student, apiKey, reads, before }
}

/** `npm run restore` of `file` into an empty target: every collection equal, record by record. */
async function restoreInto(t: Test, file: string, target: Target, expected: Contents): Promise<void> {
  const restored = await runScript('restore', [file], { ...target.env, BACKUP_KEY: hex })
  t.equal(restored.code, 0, restored.stderr)
  t.match(restored.stdout, new RegExp(`^restored \\d+ documents in \\d+ collections as of .* into the ${target.kind} store; audit chain intact \\([1-9]\\d* entries\\)\\n$`))
  const contents = await contentsAt(target)
  t.same(Object.keys(contents), Object.keys(expected), 'the same collections hold documents')
  for (const [name, docs] of Object.entries(expected)) t.same(contents[name], docs, `${name}: ${docs.length} documents equal`)
}

/** The service on the restored store: sign-in, the API key, the inbox, notifications, the audit chain, and the same answers. */
async function servesAsBefore(t: Test, d: Department, target: Target): Promise<Served> {
  const served = await serve(t, await target.open(), target.env.DATA_DIR!)
  t.match((await served.get({ email: d.admin }, '/api/auth/me')).json(), { email: d.admin, role: 'admin' }, 'a new token of a restored admin signs in with the role the store gave them')
  t.equal((await served.get({ apiKey: d.apiKey }, '/api/people?limit=1')).status, 200, 'the API key made before the backup authenticates')
  t.equal((await served.get({ apiKey: generateKey() }, '/api/people?limit=1')).status, 401, 'and a key it does not hold does not')
  const after = await answersOf(served, d.reads)
  for (const [read, answer] of Object.entries(d.before)) t.same(after[read], answer, `${read}: answered as before`)
  t.match((await served.get({ email: d.admin }, '/api/admin/audit/verify')).json(), { intact: true }, 'the audit chain verifies')
  return served
}

if (!mongodbUrl) {
  t.test('embedded to embedded', async (t) => {
    const d = await department(t)
    const target = await newTarget(t, 'embedded')
    await restoreInto(t, d.file, target, d.contents)
    await servesAsBefore(t, d, target)
  })
}

// Both stores: registered only on the MongoDB pass, where MONGODB_URL names a server.
if (mongodbUrl) {
  t.test('embedded to MongoDB, and MongoDB back to embedded', async (t) => {
    const d = await department(t)
    const mongo = await newTarget(t, 'mongodb')
    await restoreInto(t, d.file, mongo, d.contents)
    const served = await servesAsBefore(t, d, mongo)
    await served.close()

    const file = join(mongo.env.DATA_DIR!, 'mongodb.backup')
    const made = await runScript('backup', ['--out', file], { ...mongo.env, BACKUP_KEY: hex })
    t.equal(made.code, 0, made.stderr)
    const contents = await contentsAt(mongo)
    t.same(await archiveContents(file, [key]), contents, 'the MongoDB backup holds every collection as that store does')
    const embedded = await newTarget(t, 'embedded')
    await restoreInto(t, file, embedded, contents)
    await servesAsBefore(t, d, embedded)
  })
}
