import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { BackupError, readArchive, type ArchiveKey } from '../../src/backups/archive.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import { contentsAt, envOf, mongodbUrl, newKey, newTarget, runScript } from './tools.js'

/**
 * A damaged, cut or foreign backup, or the wrong key (docs/operations.md): `readArchive` and both scripts refuse
 * it in one line naming the problem, exit non-zero, and leave the store as it was. The stores are the
 * pass's own: the embedded one, or with MONGODB_URL databases of that server.
 */

// Some forty runs of the scripts, each compiling them anew.
t.setTimeout(600_000)

const kind = mongodbUrl ? 'mongodb' : 'embedded'
const { hex, key } = newKey()
const other = newKey()

/** The one-line refusal readArchive gives, or null when it accepts the file. */
async function refusal(file: string, keys: readonly ArchiveKey[] = [key]): Promise<string | null> {
  try {
    await readArchive(file, keys)
    return null
  } catch (error) {
    if (!(error instanceof BackupError)) throw error
    return error.message
  }
}

function flipped(bytes: Buffer, at: number, mask: number): Buffer {
  const copy = Buffer.from(bytes)
  copy[at] = copy[at]! ^ mask
  return copy
}

t.test(`damaged files, wrong keys and newer formats are refused in one line, and the ${kind} store is left as it was`, async (t) => {
  const { as, config } = await buildTestApp(t)
  const admin = as('ops@dept.example.edu', 'admin')
  const ada = (await admin({ method: 'POST', url: '/api/people', payload: { type: 'Faculty', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@dept.example.edu' } })).json().id as string
  const course = (await admin({ method: 'POST', url: '/api/courses', payload: { course_code: 'ZZ 101', title: 'Engines', credits: 3 } })).json()._id as string
  t.equal((await admin({ method: 'POST', url: '/api/sections', payload: { course, term: '25F', section_number: '01', instructors: [ada] } })).statusCode, 201)
  t.equal((await admin({ method: 'PUT', url: `/api/people/${encodeURIComponent(ada)}`, payload: { phone: '555-0100' } })).statusCode, 200)

  const dir = await tempDir(t)
  const good = join(dir, 'good.backup')
  const plain = join(dir, 'plain.backup')
  const source = { ...envOf(config), BACKUP_KEY: hex }
  const made = await runScript('backup', ['--out', good], source)
  t.equal(made.code, 0, made.stderr)
  t.match(made.stdout, /good\.backup: \d+ documents in \d+ collections as of .*, encrypted under BACKUP_KEY\n$/)
  const madePlain = await runScript('backup', ['--out', plain, '--no-encrypt'], source)
  t.equal(madePlain.code, 0, madePlain.stderr)
  t.match(madePlain.stdout, /NOT encrypted \(--no-encrypt\)\n$/)
  t.equal((await readArchive(plain, [])).encrypted, false, 'the manifest says a backup is not encrypted')
  t.equal((await readArchive(good, [key])).encrypted, true)

  const bytes = { good: await readFile(good), plain: await readFile(plain) }
  const bad = (name: string, content: Buffer) => writeFile(join(dir, name), content).then(() => join(dir, name))

  t.test('a flipped byte anywhere in the header', async (t) => {
    for (const [name, content] of Object.entries(bytes)) {
      const length = content.indexOf(0x0a) + 1
      const accepted: string[] = []
      const unclear: string[] = []
      for (let at = 0; at < length; at++) {
        for (const mask of [0x01, 0x20, 0xff]) {
          const message = await refusal(await bad('header.backup', flipped(content, at, mask)))
          if (message === null) accepted.push(`${at}^${mask}`)
          else if (message.includes('\n') || !/header is damaged|not a backup|is truncated|newer than this service/.test(message)) unclear.push(`${at}^${mask}: ${message}`)
        }
      }
      t.same(accepted, [], `${name}: every change to one of its ${length} header bytes is refused`)
      t.same(unclear, [], `${name}: each in one line saying the header is damaged`)
    }
  })

  t.test('a flipped byte anywhere in the body and its trailer', async (t) => {
    for (const [name, content] of Object.entries(bytes)) {
      const length = content.indexOf(0x0a) + 1
      // gzip's header (its time and flags go unchecked by gzip itself), a spread of the body, and its end.
      const offsets = new Set<number>()
      for (let at = length; at < length + 12; at++) offsets.add(at)
      for (let at = length; at < content.length; at += Math.ceil((content.length - length) / 40)) offsets.add(at)
      for (let at = content.length - 48; at < content.length; at++) offsets.add(at)
      const wrong: string[] = []
      for (const at of offsets) {
        for (const mask of [0x01, 0x80, 0xff]) {
          const message = await refusal(await bad('body.backup', flipped(content, at, mask)))
          if (message === null || message.includes('\n') || !/damaged|truncated/.test(message)) wrong.push(`${at}^${mask}: ${message}`)
        }
      }
      t.same(wrong, [], `${name}: each of ${offsets.size * 3} changes refused in one line saying the backup is damaged`)
    }
  })

  t.test('a truncated file, or one with bytes added', async (t) => {
    for (const [name, content] of Object.entries(bytes)) {
      const length = content.indexOf(0x0a) + 1
      for (const size of [0, 1, 20, length - 1, length, length + 5, Math.floor(content.length / 2), content.length - 33, content.length - 32, content.length - 17, content.length - 16, content.length - 1]) {
        const message = await refusal(await bad('cut.backup', content.subarray(0, size)))
        t.match(message, size === 0 ? /the file is empty$/ : /truncated/, `${name} cut to ${size} of ${content.length} bytes: ${message}`)
      }
      t.match(await refusal(await bad('long.backup', Buffer.concat([content, Buffer.from([0])]))), /damaged/, `${name} with a byte added`)
    }
  })

  t.test('the wrong key, no key, a newer format, another file', async (t) => {
    t.match(await refusal(good, [other.key]), /: wrong key: the backup was made under a BACKUP_KEY that is not the BACKUP_KEY set$/)
    t.match(await refusal(good, []), /: the backup is encrypted under BACKUP_KEY and no key is set; set BACKUP_KEY/)
    t.equal(await refusal(plain, []), null, 'an unencrypted backup needs no key')
    for (const [name, content] of Object.entries(bytes)) {
      const newer = await bad('newer.backup', Buffer.from(content.toString('latin1').replace('"version":1,', '"version":2,'), 'latin1'))
      t.match(await refusal(newer), /: backup format 2 is newer than this service reads \(1\); restore it with a newer version of the service$/, `${name}: its header's version edited`)
    }
    t.match(await refusal(await bad('other.json', Buffer.from('{"format":"something-else"}\n'))), /: not a backup of this service$/)
    t.match(await refusal(join(dir, 'absent.backup')), /: no such file$/)
  })

  t.test('the scripts: one line on stderr, a non-zero exit, the store untouched', async (t) => {
    const empty = await newTarget(t, kind)
    const full = await newTarget(t, kind)
    const restored = await runScript('restore', [good], { ...full.env, BACKUP_KEY: hex })
    t.equal(restored.code, 0, restored.stderr)
    t.match(restored.stdout, new RegExp(`^restored \\d+ documents in \\d+ collections as of .* into the ${kind} store; audit chain intact`))
    const before = await contentsAt(full)
    t.ok(Object.keys(before).length > 5, 'the store to keep holds records')
    const again = await runScript('restore', [good], { ...full.env, BACKUP_KEY: hex })
    t.equal(again.code, 1)
    t.match(again.stderr, /^restore: the store is not empty \(.*\); restore into an empty store, or pass --replace to replace all it holds\n$/)

    const length = bytes.good.indexOf(0x0a) + 1
    const cases: [string, Buffer, Record<string, string>, RegExp][] = [
      ['a flipped header byte', flipped(bytes.good, 40, 0x01), { BACKUP_KEY: hex }, /header is damaged/],
      ['a flipped body byte', flipped(bytes.good, length + Math.floor((bytes.good.length - length) / 2), 0x01), { BACKUP_KEY: hex }, /damaged/],
      ['a flipped tag byte', flipped(bytes.good, bytes.good.length - 1, 0x01), { BACKUP_KEY: hex }, /authentication tag does not match/],
      ['a flipped byte of gzip\'s header, unencrypted', flipped(bytes.plain, bytes.plain.indexOf(0x0a) + 5, 0x01), {}, /does not match its checksum/],
      ['a truncated file', bytes.good.subarray(0, bytes.good.length - 100), { BACKUP_KEY: hex }, /truncated/],
      ['the wrong key', bytes.good, { BACKUP_KEY: other.hex }, /wrong key/],
      ['no key', bytes.good, {}, /no key is set/],
      ['a newer format', Buffer.from(bytes.plain.toString('latin1').replace('"version":1,', '"version":2,'), 'latin1'), {}, /backup format 2 is newer/],
    ]
    for (const [name, content, keys, reason] of cases) {
      const file = await bad('case.backup', content)
      const oneLine = (script: string) => new RegExp(`^${script}: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: [^\\n]*${reason.source}[^\\n]*\\n$`)
      const verify = await runScript('backup', ['--verify', file], { ...empty.env, ...keys })
      t.equal(verify.code, 1, `${name}: --verify exits 1`)
      t.match(verify.stderr, oneLine('backup'), `${name}: --verify says so in one line`)
      t.equal(verify.stdout, '')
      const intoEmpty = await runScript('restore', [file], { ...empty.env, ...keys })
      t.equal(intoEmpty.code, 1, `${name}: restore into an empty store exits 1`)
      t.match(intoEmpty.stderr, oneLine('restore'))
      t.same(await contentsAt(empty), {}, `${name}: nothing written into the empty store`)
      const replacing = await runScript('restore', [file, '--replace'], { ...full.env, ...keys })
      t.equal(replacing.code, 1, `${name}: restore --replace exits 1`)
      t.match(replacing.stderr, oneLine('restore'))
      t.same(await contentsAt(full), before, `${name}: the store given to --replace is unchanged`)
    }
  })
})
