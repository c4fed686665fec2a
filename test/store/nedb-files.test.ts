import t, { type Test } from 'tap'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { nedbFiles, readNedbFile, setAside } from '../../src/store/sqlite/nedb-files.js'
import type { Doc } from '../../src/store/port.js'
import { tempDir } from '../helpers/temp-dir.js'

/**
 * The reader of the embedded store's nedb files, which converts a data directory of the release before
 * SQLite. Its rules are nedb's on load; the last test holds it to what that release itself read from a
 * directory it wrote (test/fixtures/previous-release).
 */

const fixture = fileURLToPath(new URL('../fixtures/previous-release/', import.meta.url))

/** A nedb file of these lines, as nedb would have appended them. */
async function logFile(t: Test, lines: readonly (string | object)[], name = 'things'): Promise<string> {
  const dir = await tempDir(t)
  const path = join(dir, `${name}.db`)
  await writeFile(path, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line)) + '\n').join(''))
  return path
}

t.test('a later line for an _id replaces the earlier; documents keep the order their _id first appeared', async (t) => {
  const path = await logFile(t, [
    { _id: 'T/1', n: 1 },
    { _id: 'T/2', n: 2 },
    { _id: 'T/1', n: 10, extra: true },
    { _id: 'T/3', n: 3 },
    { _id: 'T/2', n: 20 },
  ])
  t.same(await readNedbFile(path), [{ _id: 'T/1', n: 10, extra: true }, { _id: 'T/2', n: 20 }, { _id: 'T/3', n: 3 }])
})

t.test('a $$deleted line removes the _id; a document written again after it comes last', async (t) => {
  const path = await logFile(t, [
    { _id: 'T/1', n: 1 },
    { _id: 'T/2', n: 2 },
    { _id: 'T/3', n: 3 },
    { $$deleted: true, _id: 'T/2' },
    { $$deleted: true, _id: 'T/1' },
    { _id: 'T/1', n: 11 },
    { $$deleted: true, _id: 'T/never-written' },
  ])
  t.same(await readNedbFile(path), [{ _id: 'T/3', n: 3 }, { _id: 'T/1', n: 11 }])
})

t.test('index declarations and blank lines are skipped', async (t) => {
  const path = await logFile(t, [
    { $$indexCreated: { fieldName: 'email', unique: true, sparse: false } },
    { _id: 'T/1', email: 'a@x.edu' },
    '',
    { $$indexCreated: { fieldName: ['a', 'b'], unique: false, sparse: false } },
    '   ',
    { $$indexRemoved: 'email' },
    { _id: 'T/2', email: 'b@x.edu' },
  ])
  t.same(await readNedbFile(path), [{ _id: 'T/1', email: 'a@x.edu' }, { _id: 'T/2', email: 'b@x.edu' }])
})

t.test('nedb\'s {"$$date": ms} becomes the ISO string, wherever it stands', async (t) => {
  const at = Date.UTC(2024, 8, 1, 12, 30, 0, 250)
  const path = await logFile(t, [
    { _id: 'T/1', at: { $$date: at }, nested: { list: [{ $$date: 0 }, 'plain'] } },
  ])
  t.same(await readNedbFile(path), [{ _id: 'T/1', at: '2024-09-01T12:30:00.250Z', nested: { list: ['1970-01-01T00:00:00.000Z', 'plain'] } }])
  t.equal(JSON.stringify((await readNedbFile(path))[0]), JSON.stringify({ _id: 'T/1', at: new Date(at), nested: { list: [new Date(0), 'plain'] } }),
    'as JSON, the same as the Date nedb made of it')
})

t.test('a line that cannot be trusted refuses the file, naming it and the line', async (t) => {
  const cases: ReadonlyArray<readonly [what: string, line: string]> = [
    ['cut short', '{"_id":"T/2","n":'],
    ['not an object', '42'],
    ['null', 'null'],
    ['an array', '[{"_id":"T/2"}]'],
    ['neither a document nor an index', '{"n":2}'],
    ['an _id that is not a string', '{"_id":7,"n":2}'],
    ['an empty _id', '{"_id":"","n":2}'],
    ['a $$date that is no time', '{"_id":"T/2","at":{"$$date":"soon"}}'],
  ]
  for (const [what, line] of cases) {
    const path = await logFile(t, [{ _id: 'T/1' }, '', line, { _id: 'T/3' }])
    await t.rejects(readNedbFile(path), { message: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, line 3: corrupt`) }, what)
  }
})

t.test('an empty file holds nothing; a missing one fails', async (t) => {
  t.same(await readNedbFile(await logFile(t, [])), [])
  t.same(await readNedbFile(await logFile(t, ['', ''])), [], 'blank lines only')
  await t.rejects(readNedbFile(join(await tempDir(t), 'absent.db')), { code: 'ENOENT' })
})

t.test('a line longer than a read chunk, and CRLF line ends, are read whole', async (t) => {
  const long = 'x'.repeat(300_000)
  const dir = await tempDir(t)
  const path = join(dir, 'things.db')
  await writeFile(path, `${JSON.stringify({ _id: 'T/1', long })}\r\n${JSON.stringify({ _id: 'T/2', text: 'a\u2028b\nc' })}\r\n`)
  const docs = await readNedbFile(path)
  t.equal(docs.length, 2)
  t.equal(docs[0]!.long, long)
  t.equal(docs[1]!.text, 'a\u2028b\nc', 'a line separator inside a string does not end the line')
})

t.test('nedbFiles lists each collection\'s regular file, by name', async (t) => {
  const dir = await tempDir(t)
  for (const name of ['people.db', 'audit_log.db', 'courses.db', 'jwt-secret', 'secrets-key', 'notes.txt', '.db', 'orphan.db~', 'courses.db~']) {
    await writeFile(join(dir, name), '')
  }
  await mkdir(join(dir, 'folder.db'))
  t.same(await nedbFiles(dir), [
    { name: 'audit_log', path: join(dir, 'audit_log.db') },
    { name: 'courses', path: join(dir, 'courses.db') },
    { name: 'orphan', path: join(dir, 'orphan.db~') },
    { name: 'people', path: join(dir, 'people.db') },
  ], 'a compaction temp file counts only when its data file is missing, as nedb reads it then')
  t.same(await nedbFiles(join(dir, 'nowhere')), [], 'a directory that does not exist holds none')
})

t.test('setAside moves the files into nedb-<stamp>/ and refuses to reuse a folder', async (t) => {
  const dir = await tempDir(t)
  for (const name of ['people.db', 'courses.db', 'courses.db~', 'orphan.db~', 'jwt-secret']) await writeFile(join(dir, name), name)
  const files = await nedbFiles(dir)
  const folder = await setAside(dir, files, '20240901T123000Z')
  t.equal(folder, join(dir, 'nedb-20240901T123000Z'))
  t.same((await readdir(folder)).sort(), ['courses.db', 'courses.db~', 'orphan.db~', 'people.db'])
  t.same((await readdir(dir)).sort(), ['jwt-secret', 'nedb-20240901T123000Z'], 'what is not nedb\'s stays')
  t.equal(await readFile(join(folder, 'people.db'), 'utf8'), 'people.db')
  t.same(await nedbFiles(dir), [], 'nothing is left to convert')

  await writeFile(join(dir, 'people.db'), '')
  await t.rejects(setAside(dir, await nedbFiles(dir), '20240901T123000Z'), { code: 'EEXIST' })
  t.ok((await readdir(dir)).includes('people.db'), 'nothing moved')
  await t.rejects(setAside(dir, [], '../elsewhere'), /cannot name a folder/)
  await t.rejects(setAside(dir, [], ''), /cannot name a folder/)
})

interface Expected {
  readonly previousRelease: string
  readonly auditHead: string
  readonly collections: Readonly<Record<string, { readonly count: number; readonly sha256: string }>>
}

/** The previous release's `_id` order: plain code-unit comparison of the string ids. */
function byId(a: Doc, b: Doc): number {
  return a._id < b._id ? -1 : a._id > b._id ? 1 : 0
}

t.test('a data directory of the previous release reads as that release read it', async (t) => {
  const expected = JSON.parse(await readFile(join(fixture, 'expected.json'), 'utf8')) as Expected
  const dir = await tempDir(t)
  await promisify(execFile)('tar', ['-xzf', join(fixture, 'data.tar.gz'), '-C', dir])

  const files = await nedbFiles(dir)
  t.same(files.map((f) => f.name), Object.keys(expected.collections).sort(), 'every collection it wrote, and nothing else')
  const raw = await readFile(join(dir, 'resources.db'), 'utf8')
  t.match(raw, /^\{"\$\$deleted":true,"_id":"Resource\/res-0-01"\}$/m, 'the fixture is an uncompacted log: it holds a deletion')
  t.equal((await readFile(join(dir, 'courses.db'), 'utf8')).split('\n').filter((l) => l.startsWith('{"_id":"Course/CS-101"')).length, 3,
    'and a record written three times')

  for (const { name, path } of files) {
    const docs = (await readNedbFile(path)).sort(byId)
    const hash = createHash('sha256')
    for (const doc of docs) hash.update(JSON.stringify(doc) + '\n')
    t.same({ count: docs.length, sha256: hash.digest('hex') }, expected.collections[name], name)
    if (name === 'audit_log') t.equal(docs.at(-1)?.hash, expected.auditHead, 'the audit chain ends where it ended')
  }
})
