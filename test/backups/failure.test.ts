/**
 * A backup that cannot be made fails its job at once and tells the admins why in one line, by
 * backup.failed and not also by job.failed; a backup made under a key this service lacks is refused.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { BackupError } from '../../src/backups/archive.js'
import { reasonOf } from '../../src/backups/jobs.js'
import { eventsCollection, type EventRecord } from '../../src/notifications/collections.js'
import { tempDir } from '../helpers/temp-dir.js'
import { backUp, backupApp, verifyUrl } from './support.js'

t.test('a BACKUP_DIR that cannot be written fails the job and tells the admins by backup.failed', async (t) => {
  const outside = await tempDir(t)
  await writeFile(join(outside, 'blocker'), 'a file where the directory should be\n')
  const dir = join(outside, 'blocker', 'backups')
  const { app, ops, list } = await backupApp(t, { BACKUP_DIR: dir })
  const job = await backUp(t, ops)
  t.match(job, { state: 'failed', attempts: 1, error: /ENOTDIR/ }, 'not retried: the next run or an admin begins anew')

  await app.notifications.relay.idle()
  const events = await app.store.collection<EventRecord>(eventsCollection).find({ type: { $in: ['backup.failed', 'job.failed'] } })
  t.equal(events.length, 1, 'one event')
  const reason = `ENOTDIR: not a directory, mkdir '${dir}'`
  t.match(events[0], { type: 'backup.failed', subject: job.id, title: reason, link: '/admin/backups', data: { job: job.id, error: reason } })
  t.same(Object.keys(events[0]!.data as object).sort(), ['error', 'job'], 'thin: the job and the reason')
  const inbox = (await ops({ method: 'GET', url: '/api/notifications' })).json() as { items: { type: string; title: string }[] }
  t.same(inbox.items.map((i) => [i.type, i.title]), [['backup.failed', reason]], 'the admin hears of it once')
  t.match(await list(), { items: [], settings: { dir } }, 'the list is empty, not an error')
})

t.test("the reason told is the backup's own line or the file system's, never another fault's text", async (t) => {
  const dir = '/var/backups/adks'
  t.equal(reasonOf(new BackupError(`${dir}/adks-x.backup: wrong key: the backup was made under another BACKUP_KEY than the one set`), dir), 'adks-x.backup: wrong key: the backup was made under another BACKUP_KEY than the one set')
  t.equal(reasonOf(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' }), dir), 'ENOSPC: no space left on device, write')
  t.equal(reasonOf(new Error('E11000 duplicate key: { email: "una@dept.edu" }\n at line 2'), dir), 'an unexpected fault; the job and the log say more')
})

t.test('a backup made under another key is refused, naming the key', async (t) => {
  const first = await backupApp(t)
  const made = (await backUp(t, first.ops)).result as { file: string }
  const second = await backupApp(t, { BACKUP_KEY: 'ab'.repeat(32) })
  await mkdir(second.config.backups.dir, { recursive: true })
  await copyFile(join(first.config.backups.dir, made.file), join(second.config.backups.dir, made.file))
  const refused = await second.ops({ method: 'POST', url: verifyUrl(made.file) })
  t.equal(refused.statusCode, 422)
  t.match(refused.json(), { success: false, statusCode: 422, code: 'ADKS_BACKUP_INVALID', error: new RegExp(`^${made.file}: wrong key: `) })
})
