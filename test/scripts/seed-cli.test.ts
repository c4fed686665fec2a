import t from 'tap'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { compileSchema } from '../../src/schema/index.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { generateSampleDepartment } from '../../scripts/sample/index.js'
import { parseSeedArgs } from '../../scripts/sample/seed-options.js'
import { tempDir } from '../helpers/temp-dir.js'

// Each child process compiles the scripts and the schema, and two of them seed a whole department: on a
// busy two-core machine that takes longer than the default per-file limit.
t.setTimeout(300_000)

const root = fileURLToPath(new URL('../../', import.meta.url))
const schema = await compileSchema(`${root}schema`)
const collections = schema.collections.map((c) => c.name)

interface Run { readonly code: number | null; readonly stdout: string; readonly stderr: string }

function seed(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', ...args],
      { cwd: root, env: { PATH: process.env.PATH, NODE_ENV: 'test', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number | null) ?? 1 : 0, stdout, stderr }))
  })
}

/** Every document of every collection, read after the command has exited and released the directory. */
async function contents(dataDir: string, change?: (store: EmbeddedStore) => Promise<void>): Promise<Record<string, unknown[]>> {
  const store = await EmbeddedStore.open(dataDir, collections)
  try {
    await change?.(store)
    const entries = await Promise.all(collections.map(async (name) => [name, await store.collection(name).find({}, { sort: [['_id', 1]] })] as const))
    return Object.fromEntries(entries)
  } finally {
    await store.close()
  }
}

t.test('seeds an empty store once, leaves it alone with --if-empty, and replaces it with --reset', async (t) => {
  const dataDir = await tempDir(t)
  const env = { DATA_DIR: dataDir }
  const expected = generateSampleDepartment(1).counts
  const first = await seed(env, '--if-empty')
  t.equal(first.code, 0, first.stderr)
  const total = Object.values(expected).reduce((a, b) => a + b, 0)
  t.match(first.stdout, new RegExp(`^seeded ${total} records at scale 1 in [0-9.]+ s: 40 Faculty, 10 Staff, .*, ${expected.Enrollment} Enrollment; [0-9]+ approval requests\\n$`))
  const seeded = await contents(dataDir)
  t.equal(seeded.people!.length, 410)
  t.equal(seeded.enrollments!.length, expected.Enrollment)

  const again = await seed(env, '--if-empty')
  t.equal(again.code, 0, again.stderr)
  t.equal(again.stdout, 'people already has records; nothing seeded\n')
  t.same(await contents(dataDir), seeded, 'unchanged by --if-empty')

  const plain = await seed(env)
  t.equal(plain.code, 1)
  t.match(plain.stderr, /seed failed: the store already holds records \(.*people: 410.*\); use --reset/)
  t.same(await contents(dataDir), seeded, 'unchanged by a refused run')

  const user = { _id: 'User/kept', type: 'User', email: 'kept@cs.example.edu', role: 'admin' }
  await contents(dataDir, async (store) => {
    await store.collection('users').insertOne(user)
    await store.collection('people').insertOne({ _id: 'Staff/extra', type: 'Staff', first_name: 'Extra', last_name: 'Person' })
  })
  const reset = await seed(env, '--reset')
  t.equal(reset.code, 0, reset.stderr)
  t.match(reset.stdout, new RegExp(`^seeded ${total} records at scale 1`))
  const after = await contents(dataDir)
  t.same(after.users, [...seeded.users!, user], 'users kept: the one added and the sample approvers, reused')
  t.equal(after.people!.length, 410, 'people replaced, the extra one gone')
  t.equal(after.enrollments!.length, expected.Enrollment)
  t.not((after.people![0] as { _created_at: string })._created_at, (seeded.people![0] as { _created_at: string })._created_at, 'written anew')
})

t.test('bad arguments or configuration stop with a clear message and a non-zero exit', async (t) => {
  const dataDir = await tempDir(t)
  const bad = await seed({ DATA_DIR: dataDir }, '--scale', 'ten')
  t.equal(bad.code, 1)
  t.match(bad.stderr, /seed failed: --scale must be an integer from 1 to 500, not "ten"\nusage: npm run seed -- \[--scale N\] \[--if-empty\] \[--reset\]/)
  const badEnv = await seed({ DATA_DIR: dataDir, PORT: 'none' })
  t.equal(badEnv.code, 1)
  t.match(badEnv.stderr, /seed failed: configuration: PORT is invalid/)
})

t.test('arguments', async (t) => {
  t.same(parseSeedArgs([]), { scale: 1, ifEmpty: false, reset: false })
  t.same(parseSeedArgs(['--scale', '10', '--if-empty']), { scale: 10, ifEmpty: true, reset: false })
  t.same(parseSeedArgs(['--scale=3', '--reset']), { scale: 3, ifEmpty: false, reset: true })
  t.throws(() => parseSeedArgs(['--scale', '0']), /--scale must be an integer from 1 to 500, not "0"/)
  t.throws(() => parseSeedArgs(['--scale', '501']), /--scale must be an integer/)
  t.throws(() => parseSeedArgs(['--scale', '2.5']), /--scale must be an integer/)
  t.throws(() => parseSeedArgs(['--scale']), /not ""/)
  t.throws(() => parseSeedArgs(['--if-empty', '--reset']), /cannot be used together/)
  t.throws(() => parseSeedArgs(['--fast']), /unknown argument "--fast"/)
})
