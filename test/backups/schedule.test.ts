/**
 * The scheduled backup (docs/operations.md): set up where the maintenance jobs are, run by the job driver as
 * any scheduled job is, and after each run BACKUP_KEEP files stay in BACKUP_DIR and no more. The clock is
 * not waited on: the driver fires an interval schedule at once, and further runs are the same job
 * enqueued as the scheduler enqueues it.
 */
import { readdir, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { backupsCollection } from '../../src/backups/catalog.js'
import { backupJob, scheduleBackups } from '../../src/backups/jobs.js'
import type { JobView } from '../../src/jobs/port.js'
import { privatePrefix, sharedRedisUrl } from '../cache/redis.js'
import { until } from '../jobs/contract.js'
import { finished } from '../routes/campus-sync/support.js'
import { backUp, backupApp } from './support.js'

t.test('the schedule runs the backup, and BACKUP_KEEP files stay after each run and no more', async (t) => {
  const { app, config, ops, list } = await backupApp(t, { BACKUP_KEEP: '3', BACKUP_EVERY: '12h' })
  const dir = config.backups.dir

  await app.backups.schedule()
  const scheduler = (await app.jobs.schedulers('maintenance')).find((s) => s.id === backupJob)
  t.match(scheduler, { name: 'backup', every: 12 * 3_600_000, pattern: null }, 'one scheduler on the maintenance queue, every BACKUP_EVERY')
  const scheduled = await until(async () => {
    const { items } = await app.jobs.list({ queue: 'maintenance', limit: 10, offset: 0 })
    return items.find((job) => job.name === backupJob) ?? null
  }, 'the scheduled run')
  t.same(scheduled.data, {}, 'a scheduled run carries no one')
  t.equal((await finished(ops, scheduled.id)).state, 'completed')
  const first = await list()
  t.match(first.items, [{ made_by: { kind: 'schedule', user: null, email: null }, job_id: scheduled.id }], 'made by the schedule')
  t.same(first.settings, { dir, keep: 3, every: 12 * 3_600_000 })
  t.ok(first.next_run && Date.parse(first.next_run) > Date.now(), `the next run is known (${first.next_run})`)
  await app.backups.schedule()
  t.equal((await app.jobs.schedulers('maintenance')).filter((s) => s.id === backupJob).length, 1, 'scheduling again at the next start changes nothing')

  // What else lies in the directory is not a backup of the schedule's to remove; a partial file is, once abandoned.
  await writeFile(join(dir, 'notes.txt'), 'kept\n')
  await writeFile(join(dir, 'adks-by-hand.backup'), 'kept\n')
  const abandoned = 'adks-2020-01-01T00-00-00-000Z.backup.partial'
  const writing = 'adks-2099-01-01T00-00-00-000Z.backup.partial'
  for (const name of [abandoned, writing]) await writeFile(join(dir, name), 'half\n')
  const dayAgo = new Date(Date.now() - 86_400_000)
  await utimes(join(dir, abandoned), dayAgo, dayAgo)

  const made: string[] = [first.items[0]!.file]
  for (let run = 2; run <= 5; run++) {
    const { id } = await app.jobs.enqueue('maintenance', backupJob, {})
    const job: JobView = await finished(ops, id)
    t.equal(job.state, 'completed', String(job.error))
    const result = job.result as { file: string; removed: string[] }
    made.push(result.file)
    const expected = made.slice(-3).reverse()
    t.same((await list()).items.map((i) => i.file), expected, `after run ${run}: the newest ${expected.length}`)
    t.same(result.removed, run > 3 ? [made[run - 4]] : [], `run ${run} removed ${run > 3 ? 'the oldest' : 'nothing'}`)
  }
  t.same((await readdir(dir)).sort(), [...made.slice(-3), 'adks-by-hand.backup', 'notes.txt', writing].sort(), 'three backups, the other files, and the partial file still being written')
  const records = await app.store.collection(backupsCollection).find({})
  t.same(records.map((r) => r._id).sort(), made.slice(-3).sort(), 'the records of removed files go with them')

  const ran = await app.jobs.list({ queue: 'maintenance', state: 'completed', limit: 50, offset: 0 })
  t.equal(ran.items.filter((job) => job.name === backupJob).length, 5)
  // A third backup would have run by hand too, through POST; its file is counted with the schedule's.
  t.equal((await backUp(t, ops)).state, 'completed')
  t.equal((await list()).items.length, 3, 'a backup an admin asks for counts toward BACKUP_KEEP')
})

t.test('BACKUP_EVERY=0 removes the scheduled backup an earlier start set up', async (t) => {
  const { app, config, list } = await backupApp(t, { BACKUP_EVERY: '0' })
  t.equal(config.backups.everyMs, 0)
  await app.jobs.pause('maintenance')
  await scheduleBackups(app.jobs, { ...config, backups: { ...config.backups, everyMs: 86_400_000 } })
  t.equal((await app.jobs.schedulers('maintenance')).filter((s) => s.id === backupJob).length, 1, 'as an earlier start with a schedule left it')
  await app.backups.schedule()
  t.same((await app.jobs.schedulers('maintenance')).filter((s) => s.id === backupJob), [], 'gone')
  t.match(await list(), { settings: { every: 0 }, next_run: null })
})

t.test('on BullMQ the same: a backup asked for runs with progress, and the schedule says when it runs next', async (t) => {
  const { prefix } = await privatePrefix(t)
  const { app, ops, list } = await backupApp(t, {
    REDIS_URL: sharedRedisUrl, REDIS_PREFIX: prefix, RATE_LIMIT_NAMESPACE: `${prefix}rate:`, CACHE_KEY_PREFIX: `${prefix}cache:`, WORKERS: 'inline',
  })
  t.equal(app.jobs.kind, 'bullmq')
  const job = await backUp(t, ops)
  t.equal(job.state, 'completed', String(job.error))
  const { documents, file } = job.result as { documents: number; file: string }
  t.match(job.progress, { percent: 100, processed: documents, total: documents })
  t.match((await list()).items, [{ file, made_by: { kind: 'admin' }, job_id: job.id }])
  const scheduling = Date.now()
  await app.backups.schedule()
  const next = await until(async () => (await list()).next_run, 'the next run')
  t.ok(Date.parse(next) > scheduling, `next run ${next}, after the schedule was set`)
})
