/**
 * Backups as an operation of the running service (docs/operations.md): an admin's backup is a job with progress
 * whose file verifies, the list says what is known of each file, and a damaged one is refused by name.
 */
import { copyFile, open, readFile, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { readArchive } from '../../src/backups/archive.js'
import { keysForReading } from '../../src/backups/keys.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { eventsCollection, type EventRecord } from '../../src/notifications/collections.js'
import { Fixtures } from '../helpers/records.js'
import { accepted, finished } from '../routes/campus-sync/support.js'
import { adminEmail, backUp, backupApp, verifyUrl } from './support.js'

t.test("an admin's backup runs as a job with progress; its file verifies, and the list says who made it and when it verified", async (t) => {
  const { app, config, ops, list } = await backupApp(t)
  const fx = new Fixtures(app, ops)
  for (let i = 0; i < 3; i++) t.equal((await ops({ method: 'POST', url: '/api/labs', payload: await fx.body('Lab') })).statusCode, 201)

  const empty = await list()
  t.same(empty, { items: [], settings: { dir: config.backups.dir, keep: 14, every: 86_400_000 }, next_run: null, running_job: null }, 'nothing yet, and nothing scheduled in a test app')

  const job = await backUp(t, ops)
  t.equal(job.state, 'completed', String(job.error))
  t.match(job, { queue: 'maintenance', name: 'backup', data: { requested_by: userIdForEmail(adminEmail), email: adminEmail } })
  const result = job.result as { file: string; bytes: number; documents: number; encrypted: boolean; removed: string[] }
  t.match(result.file, /^adks-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.backup$/)
  t.same([result.encrypted, result.removed], [true, []])
  t.ok(result.documents > 3, `${result.documents} documents`)
  t.match(job.progress, { percent: 100, processed: result.documents, total: result.documents, message: `${result.documents} documents written` }, 'progress counts the documents written')
  const progress = await ops({ method: 'GET', url: `/api/admin/jobs/${job.id}/progress` })
  t.same(progress.json(), job.progress, 'as the progress route gives it')

  const path = join(config.backups.dir, result.file)
  const manifest = await readArchive(path, await keysForReading(config))
  t.equal(manifest.collections.labs?.count, 3, 'the labs are in it')

  const listed = await list()
  t.equal(listed.items.length, 1)
  t.match(listed.items[0], {
    file: result.file, bytes: result.bytes, created_at: manifest.created_at, encrypted: true, documents: result.documents,
    made_by: { kind: 'admin', user: userIdForEmail(adminEmail), email: adminEmail }, job_id: job.id, verified_at: null, verify_error: null,
  })
  t.equal(listed.items[0]!.collections!.labs, 3, 'with its counts per collection')

  const verified = await ops({ method: 'POST', url: verifyUrl(result.file) })
  t.equal(verified.statusCode, 200, verified.body)
  t.match(verified.json(), { file: result.file, documents: result.documents, verify_error: null })
  const verifiedAt = verified.json().verified_at as string
  t.ok(Date.parse(verifiedAt) >= Date.parse(manifest.created_at), 'verified after it was made')
  t.match((await list()).items[0], { verified_at: verifiedAt, made_by: { kind: 'admin' } }, 'the list says when it last verified')

  await app.notifications.relay.idle()
  const events = await app.store.collection<EventRecord>(eventsCollection).find({ type: 'backup.completed' })
  t.equal(events.length, 1, 'one backup.completed')
  t.match(events[0], { _id: `${result.file}/backup.completed`, subject: result.file, link: '/admin/backups', data: { file: result.file, documents: result.documents, bytes: result.bytes, encrypted: true } })
  const inbox = (await ops({ method: 'GET', url: '/api/notifications' })).json() as { items: { type: string; title: string }[] }
  t.match(inbox.items.find((i) => i.type === 'backup.completed'), { title: `${result.file}: ${result.documents} documents, ${result.bytes} bytes` }, 'the admin is told')
})

t.test('a flipped byte, a truncated file, a stranger and a bad name: each refused by its own answer', async (t) => {
  const { app, config, ops, list } = await backupApp(t)
  const job = await backUp(t, ops)
  const file = (job.result as { file: string }).file
  const path = join(config.backups.dir, file)
  const bytes = await readFile(path)
  t.equal((await ops({ method: 'POST', url: verifyUrl(file) })).statusCode, 200, 'the file is good to begin with')

  const handle = await open(path, 'r+')
  const at = Math.floor(bytes.length / 2)
  await handle.write(Buffer.from([bytes[at]! ^ 0x01]), 0, 1, at)
  await handle.close()
  const flipped = await ops({ method: 'POST', url: verifyUrl(file) })
  t.equal(flipped.statusCode, 422)
  t.same(flipped.json(), {
    success: false, statusCode: 422, code: 'ADKS_BACKUP_INVALID',
    error: `${file}: the backup is damaged, truncated or altered (its authentication tag does not match)`,
  }, 'one line naming the file and what is wrong, not the directory')
  t.match((await list()).items[0], { file, verified_at: null, verify_error: flipped.json().error }, 'the list says the last verification refused it')

  await writeFile(path, bytes)
  t.equal((await ops({ method: 'POST', url: verifyUrl(file) })).statusCode, 200, 'the good bytes back, it verifies again')
  await truncate(path, bytes.length - 100)
  const cut = await ops({ method: 'POST', url: verifyUrl(file) })
  t.same([cut.statusCode, cut.json().code], [422, 'ADKS_BACKUP_INVALID'])
  t.match(cut.json().error, /truncated|damaged/, cut.json().error)

  // A file npm run backup wrote, or one copied in: listed by what its name and header say, until verified.
  await writeFile(path, bytes)
  const stranger = 'adks-2020-01-01T00-00-00-000Z.backup'
  await copyFile(path, join(config.backups.dir, stranger))
  const listed = await list()
  t.same(listed.items.map((i) => i.file), [file, stranger], 'newest first')
  t.same(listed.items[1], {
    file: stranger, bytes: bytes.length, created_at: '2020-01-01T00:00:00.000Z', encrypted: true, documents: null, collections: null,
    made_by: null, job_id: null, verified_at: null, verify_error: null,
  })
  const known = await ops({ method: 'POST', url: verifyUrl(stranger) })
  t.equal(known.statusCode, 200)
  t.match(known.json(), { documents: (job.result as { documents: number }).documents, made_by: null, job_id: null })
  t.ok(known.json().verified_at)
  await writeFile(join(config.backups.dir, 'adks-2019-01-01T00-00-00-000Z.backup'), 'not a backup\n')
  const notOne = await ops({ method: 'POST', url: verifyUrl('adks-2019-01-01T00-00-00-000Z.backup') })
  t.same(notOne.json(), { success: false, statusCode: 422, code: 'ADKS_BACKUP_INVALID', error: 'adks-2019-01-01T00-00-00-000Z.backup: not a backup of this service (its header is not JSON)' })

  const missing = await ops({ method: 'POST', url: verifyUrl('adks-2030-01-01T00-00-00-000Z.backup') })
  t.same([missing.statusCode, missing.json().code], [404, 'ADKS_BACKUP_NOT_FOUND'], 'a well-formed name with no file')
  for (const name of ['..%2F..%2Fadks.sqlite', '..%2Fadks-2020-01-01T00-00-00-000Z.backup', '%2Fetc%2Fpasswd', encodeURIComponent(path), 'adks-2020-01-01T00-00-00-000Z.backup.partial', 'secrets-key']) {
    const answer = await ops({ method: 'POST', url: `/api/admin/backups/${name}/verify` })
    t.same([answer.statusCode, answer.json().code], [400, 'ADKS_VALIDATION_FAILED'], `${decodeURIComponent(name)}: not a backup's name`)
  }
  const traversal = await ops({ method: 'POST', url: '/api/admin/backups/../../adks.sqlite/verify' })
  t.equal(traversal.statusCode, 404, 'dot segments in the path reach no route')
  await t.rejects(app.backups.verify('../adks.sqlite'), { code: 'ADKS_BACKUP_NOT_FOUND' }, 'the service checks the name again before it joins it to a path')
})

t.test('asking again while a backup waits or runs gets the same job', async (t) => {
  const { ops } = await backupApp(t)
  await ops({ method: 'POST', url: '/api/queues/maintenance/pause' })
  const first = await accepted(t, ops, '/api/admin/backups')
  const second = await accepted(t, ops, '/api/admin/backups')
  t.equal(second, first, 'folded into the waiting job')
  const listed = (await ops({ method: 'GET', url: '/api/admin/backups' })).json()
  t.equal(listed.running_job, first, 'the list names the job, for a page opened meanwhile')
  await ops({ method: 'POST', url: '/api/queues/maintenance/resume' })
  t.equal((await finished(ops, first)).state, 'completed')
})
