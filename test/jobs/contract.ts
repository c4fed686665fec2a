/**
 * The job port's contract: every driver passes these tests. embedded-driver.test.ts runs them on the
 * store, bullmq-driver.test.ts on a real Redis. Delays are short and bounds generous; nothing asserts a
 * duration, only what happened.
 */
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Test } from 'tap'
import { PermanentJobError, type HandlerMap, type JobDriver, type JobView, type QueueName } from '../../src/jobs/port.js'
import { nextRun } from '../../src/jobs/schedule.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { tempDir } from '../helpers/temp-dir.js'

export type Handlers = Partial<Record<QueueName, HandlerMap>>

/** Where a driver keeps its jobs for one test: a store, or a Redis key prefix. */
export interface Backing {
  /** A started driver on this backing; it is closed when the test ends. */
  open(handlers: Handlers, tuning?: { closeGraceMs?: number }): Promise<JobDriver>
}

export interface DriverSuite {
  readonly kind: 'embedded' | 'bullmq'
  backing(t: Test): Promise<Backing>
  /** Environment of test/jobs/fixtures/run-driver.ts for this driver, keeping its effects in dataDir. */
  fixtureEnv(t: Test, dataDir: string): Record<string, string>
}

/** Polls until `check` gives a value, failing the test after a generous bound. */
export async function until<T>(check: () => Promise<T | null | undefined | false>, what: string, boundMs = 30_000): Promise<T> {
  const deadline = Date.now() + boundMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

export function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => { open = resolve })
  return { opened, open }
}

const finished = (driver: JobDriver, id: string) =>
  until(async () => {
    const job = await driver.job(id)
    return job && (job.state === 'completed' || job.state === 'failed') ? job : null
  }, `job ${id} to finish`)

export function jobContract(t: Test, suite: DriverSuite): void {
  t.test('an enqueued job runs, and its record answers the same on every read', async (t) => {
    const backing = await suite.backing(t)
    const seen: unknown[] = []
    const driver = await backing.open({ 'campus-sync': { courses: async ({ data, attempt }) => { seen.push({ data, attempt }); return { created: 2 } } } })
    const { id, folded } = await driver.enqueue('campus-sync', 'courses', { term: '2026FA' })
    t.equal(folded, false)
    t.match(id, /^[A-Za-z0-9:._-]+$/, 'the id is safe in a URL path')
    const job = await finished(driver, id)
    t.match(job, { id, queue: 'campus-sync', name: 'courses', state: 'completed', data: { term: '2026FA' }, attempts: 1, result: { created: 2 }, error: null })
    t.ok(job.started_at && job.finished_at && job.created_at <= job.finished_at, 'the times are set')
    t.same(seen, [{ data: { term: '2026FA' }, attempt: 1 }], 'the handler ran once with the data')
    const listed = await driver.list({ queue: 'campus-sync', limit: 10, offset: 0 })
    t.same(listed, { items: [job], total: 1 })
    t.same((await driver.list({ state: 'completed', limit: 10, offset: 0 })).items.map((j) => j.id), [id])
    t.equal((await driver.list({ state: 'failed', limit: 10, offset: 0 })).total, 0)
    const queues = await driver.queues()
    t.same(queues.map((q) => q.name), ['campus-sync', 'publication-import', 'citation-refresh', 'maintenance', 'notifications'])
    t.same(queues[0], { name: 'campus-sync', counts: { waiting: 0, active: 0, completed: 1, failed: 0, delayed: 0 }, paused: false })
    t.equal(await driver.job('no-such-job'), null)
  })

  t.test('a delayed job waits as delayed, then runs', async (t) => {
    const backing = await suite.backing(t)
    const ran = gate()
    const driver = await backing.open({ notifications: { later: async () => { ran.open(); return { done: true } } } })
    const { id } = await driver.enqueue('notifications', 'later', {}, { delayMs: 1500 })
    t.equal((await driver.job(id))?.state, 'delayed', 'it is delayed at first')
    // Polled rather than awaited alone: the drivers' timers do not keep a process alive.
    t.match(await finished(driver, id), { state: 'completed', result: { done: true } })
    await ran.opened
  })

  t.test('lists are newest first and paged', async (t) => {
    const backing = await suite.backing(t)
    const driver = await backing.open({ maintenance: { noop: async () => ({}) } })
    const ids: string[] = []
    for (let n = 0; n < 5; n++) {
      ids.push((await driver.enqueue('maintenance', 'noop', { n })).id)
      await new Promise((resolve) => setTimeout(resolve, 3))
    }
    for (const id of ids) await finished(driver, id)
    const page = await driver.list({ queue: 'maintenance', limit: 2, offset: 1 })
    t.equal(page.total, 5)
    t.same(page.items.map((j) => j.data.n), [3, 2])
  })

  t.test('a running job reports its progress', async (t) => {
    const backing = await suite.backing(t)
    const release = gate()
    const driver = await backing.open({
      'publication-import': {
        person: async ({ progress }) => {
          await progress(40, 'works fetched', { processed: 40, total: 100 })
          await release.opened
          return { imported: 100 }
        },
      },
    })
    const { id } = await driver.enqueue('publication-import', 'person', { personId: 'Faculty/1' })
    const running = await until(async () => {
      const job = await driver.job(id)
      return job?.progress ? job : null
    }, 'progress')
    t.match(running, { state: 'active', attempts: 1, progress: { percent: 40, processed: 40, total: 100, message: 'works fetched' } })
    t.equal((await driver.queues())[1]!.counts.active, 1)
    release.open()
    t.match(await finished(driver, id), { state: 'completed', result: { imported: 100 } })
  })

  t.test('a failing job is retried with backoff, then fails; a permanent error is not retried', async (t) => {
    const backing = await suite.backing(t)
    const attempts: Record<string, number[]> = { flaky: [], broken: [], bad: [] }
    const driver = await backing.open({
      'citation-refresh': {
        flaky: async ({ attempt }) => {
          attempts.flaky!.push(attempt)
          if (attempt < 3) throw new Error(`OpenAlex said 503 (attempt ${attempt})`)
          return { refreshed: 7 }
        },
        broken: async ({ attempt }) => { attempts.broken!.push(attempt); throw new Error('always broken') },
        bad: async ({ attempt }) => { attempts.bad!.push(attempt); throw new PermanentJobError('no such person') },
      },
    })
    const flaky = await driver.enqueue('citation-refresh', 'flaky', {}, { attempts: 3, backoffMs: 40 })
    const broken = await driver.enqueue('citation-refresh', 'broken', {}, { attempts: 2, backoffMs: 40 })
    const bad = await driver.enqueue('citation-refresh', 'bad', {}, { attempts: 3, backoffMs: 40 })
    t.match(await finished(driver, flaky.id), { state: 'completed', attempts: 3, result: { refreshed: 7 } })
    t.match(await finished(driver, broken.id), { state: 'failed', attempts: 2, error: 'always broken', result: null })
    t.match(await finished(driver, bad.id), { state: 'failed', attempts: 1, error: 'no such person' })
    t.same(attempts, { flaky: [1, 2, 3], broken: [1, 2], bad: [1] })
    t.equal((await driver.queues())[2]!.counts.failed, 2)
  })

  t.test('a job failing for good tells its failure listener once', async (t) => {
    const backing = await suite.backing(t)
    let fixed = false
    const driver = await backing.open({
      'citation-refresh': {
        flaky: async ({ attempt }) => { if (attempt < 2) throw new Error('try again'); return {} },
        broken: async () => { if (!fixed) throw new Error('always broken'); return {} },
        bad: async () => { throw new PermanentJobError('no such person') },
      },
    })
    const told: { job: JobView; recorded: string | undefined }[] = []
    driver.onFailed(async (job) => { told.push({ job, recorded: (await driver.job(job.id))?.state }) })
    const flaky = await driver.enqueue('citation-refresh', 'flaky', {}, { attempts: 2, backoffMs: 40 })
    const broken = await driver.enqueue('citation-refresh', 'broken', {}, { attempts: 2, backoffMs: 40 })
    const bad = await driver.enqueue('citation-refresh', 'bad', {}, { attempts: 3, backoffMs: 40 })
    for (const { id } of [flaky, broken, bad]) await finished(driver, id)
    // One queue runs one job at a time, oldest first: once a later failure is told, any second telling of these would be in.
    const last = await driver.enqueue('citation-refresh', 'bad', { last: true }, { attempts: 1 })
    await until(async () => told.some((x) => x.job.id === last.id), 'the last failure to be told')
    const ids = told.map((x) => x.job.id)
    t.same([broken.id, bad.id, last.id].map((id) => ids.filter((i) => i === id).length), [1, 1, 1], 'each failure is told once')
    t.notOk(ids.includes(flaky.id), 'a job that failed an attempt and then succeeded is not told')
    t.match(told.find((x) => x.job.id === broken.id), { job: { queue: 'citation-refresh', name: 'broken', state: 'failed', attempts: 2, error: 'always broken' }, recorded: 'failed' })
    t.match(told.find((x) => x.job.id === bad.id), { job: { state: 'failed', attempts: 1, error: 'no such person' }, recorded: 'failed' }, 'a permanent error at its first attempt')
    t.ok(told.every((x) => x.job.finished_at), 'the finishing time is told')

    await driver.retry('citation-refresh', broken.id)
    await until(async () => told.filter((x) => x.job.id === broken.id).length === 2, 'the retried job\'s second failure')
    const [first, second] = told.filter((x) => x.job.id === broken.id)
    t.not(second!.job.finished_at, first!.job.finished_at, 'a retried job that fails again is another failure, told again')
    fixed = true
    await driver.retry('citation-refresh', broken.id)
    t.match(await until(async () => { const job = await driver.job(broken.id); return job?.state === 'completed' ? job : null }, 'the fixed job'), { state: 'completed' })
    t.equal(told.filter((x) => x.job.id === broken.id).length, 2, 'a success tells nothing')
  })

  t.test('a failed job can be retried; only a failed one, and only in its own queue', async (t) => {
    const backing = await suite.backing(t)
    let fixed = false
    const driver = await backing.open({
      'campus-sync': { people: async () => { if (!fixed) throw new Error('feed down'); return { updated: 1 } } },
      maintenance: { noop: async () => ({}) },
    })
    const { id } = await driver.enqueue('campus-sync', 'people', {}, { attempts: 1 })
    t.match(await finished(driver, id), { state: 'failed', error: 'feed down' })
    await t.rejects(driver.retry('maintenance', id), { statusCode: 404, message: `No job ${id} in queue maintenance` })
    await t.rejects(driver.retry('campus-sync', 'nope'), { statusCode: 404, message: 'No job nope in queue campus-sync' })
    fixed = true
    const retried = await driver.retry('campus-sync', id)
    t.equal(retried.id, id)
    t.match(await finished(driver, id), { state: 'completed', attempts: 1, error: null, result: { updated: 1 } })
    await t.rejects(driver.retry('campus-sync', id), { statusCode: 409, message: `Job ${id} is completed; only a failed job can be retried` })
  })

  t.test('a paused queue keeps its jobs waiting until resumed; other queues go on', async (t) => {
    const backing = await suite.backing(t)
    const driver = await backing.open({ 'campus-sync': { courses: async () => ({ ran: true }) }, maintenance: { noop: async () => ({}) } })
    await driver.pause('campus-sync')
    t.equal((await driver.queues())[0]!.paused, true)
    const held = await driver.enqueue('campus-sync', 'courses', {})
    const other = await driver.enqueue('maintenance', 'noop', {})
    t.match(await finished(driver, other.id), { state: 'completed' }, 'another queue runs')
    await new Promise((resolve) => setTimeout(resolve, 300))
    t.match(await driver.job(held.id), { state: 'waiting', attempts: 0 }, 'the paused queue ran nothing')
    t.equal((await driver.queues())[0]!.counts.waiting, 1)
    await driver.resume('campus-sync')
    t.equal((await driver.queues())[0]!.paused, false)
    t.match(await finished(driver, held.id), { state: 'completed', result: { ran: true } })
  })

  t.test('schedulers are upserted, listed with their next run, fire, and are removed', async (t) => {
    const backing = await suite.backing(t)
    const driver = await backing.open({ maintenance: { 'sweep': async ({ data }) => ({ swept: data.scope }) } })
    const before = Date.now()
    const nightly = await driver.upsertScheduler('publication-import', { id: 'nightly', name: 'import-all', pattern: '0 3 * * *', tz: 'America/New_York', data: { all: true } })
    t.match(nightly, { queue: 'publication-import', id: 'nightly', name: 'import-all', pattern: '0 3 * * *', every: null, tz: 'America/New_York', data: { all: true } })
    const expected = nextRun({ pattern: '0 3 * * *', tz: 'America/New_York' }, before)
    t.equal(nightly.next_run, new Date(expected).toISOString(), 'the next run is the pattern read in its time zone')
    t.equal(new Date(expected).getUTCHours() % 24 === 7 || new Date(expected).getUTCHours() === 8, true, '03:00 in New York is 07:00 or 08:00 UTC')
    const moved = await driver.upsertScheduler('publication-import', { id: 'nightly', name: 'import-all', pattern: '30 4 * * 1', data: { all: true } })
    t.equal(moved.next_run, new Date(nextRun({ pattern: '30 4 * * 1' }, Date.now())).toISOString())
    t.same((await driver.schedulers()).map((s) => [s.queue, s.id, s.pattern]), [['publication-import', 'nightly', '30 4 * * 1']], 'an upsert replaces, never duplicates')
    await driver.upsertScheduler('maintenance', { id: 'sweep', every: 1000, data: { scope: 'tokens' } })
    const fired = await until(async () => (await driver.list({ queue: 'maintenance', state: 'completed', limit: 5, offset: 0 })).items[0], 'a scheduled run')
    t.match(fired, { name: 'sweep', data: { scope: 'tokens' }, result: { swept: 'tokens' } }, 'an interval scheduler makes jobs that run')
    t.same((await driver.schedulers('maintenance')).map((s) => [s.id, s.every]), [['sweep', 1000]])
    t.ok(Date.parse((await driver.schedulers('maintenance'))[0]!.next_run!) >= before, 'an interval scheduler names its next run')
    t.equal(await driver.removeScheduler('maintenance', 'sweep'), true)
    t.equal(await driver.removeScheduler('maintenance', 'sweep'), false, 'removing a missing scheduler says so')
    t.equal(await driver.removeScheduler('publication-import', 'nightly'), true)
    t.same(await driver.schedulers(), [])
    await t.rejects(driver.upsertScheduler('maintenance', { id: 'x', pattern: '61 * * * *' }), { statusCode: 400, message: /Invalid cron pattern "61 \* \* \* \*"/ })
    await t.rejects(driver.upsertScheduler('maintenance', { id: 'x', pattern: 'every day' }), { statusCode: 400, message: /every day/ })
    await t.rejects(driver.upsertScheduler('maintenance', { id: 'x', every: 5 }), { statusCode: 400, message: /every must be/ })
    await t.rejects(driver.upsertScheduler('maintenance', { id: 'x', pattern: '* * * * *', every: 5000 }), { statusCode: 400, message: /exactly one/ })
    await t.rejects(driver.upsertScheduler('maintenance', { id: 'x', pattern: '* * * * *', tz: 'Mars/Olympus' }), { statusCode: 400, message: /Unknown time zone "Mars\/Olympus"/ })
    t.same(await driver.schedulers(), [], 'refused schedules leave nothing behind')
  })

  t.test('a second run of a sync already queued or running folds into it', async (t) => {
    const backing = await suite.backing(t)
    const release = gate()
    let runs = 0
    const driver = await backing.open({ 'campus-sync': { people: async () => { runs++; await release.opened; return {} } } })
    const first = await driver.enqueue('campus-sync', 'people', { source: 'sis' }, { dedupKey: 'people:sis' })
    await until(async () => (await driver.job(first.id))?.state === 'active', 'the first run to start')
    const second = await driver.enqueue('campus-sync', 'people', { source: 'sis' }, { dedupKey: 'people:sis' })
    t.same(second, { id: first.id, folded: true }, 'the manual run is the running one')
    const other = await driver.enqueue('campus-sync', 'people', { source: 'csv' }, { dedupKey: 'people:csv' })
    t.equal(other.folded, false, 'another source is another job')
    release.open()
    await finished(driver, first.id)
    await finished(driver, other.id)
    t.equal(runs, 2)
    const later = await driver.enqueue('campus-sync', 'people', { source: 'sis' }, { dedupKey: 'people:sis' })
    t.equal(later.folded, false, 'once it finished, a new run is a new job')
    t.not(later.id, first.id)
    await finished(driver, later.id)
  })

  t.test('closing hands a running job back; the next process runs it', async (t) => {
    const backing = await suite.backing(t)
    const stopped = gate()
    const first = await backing.open({
      'campus-sync': {
        sections: async ({ signal }) => {
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
          stopped.open()
          throw new Error('stopped at a checkpoint')
        },
      },
    })
    const { id } = await first.enqueue('campus-sync', 'sections', {})
    await until(async () => (await first.job(id))?.state === 'active', 'the job to start')
    await first.close()
    await stopped.opened
    const handedBack = await first.job(id)
    t.match(handedBack, { state: 'waiting', attempts: 0, error: null }, 'back to waiting, not a failed attempt')
    const second = await backing.open({ 'campus-sync': { sections: async ({ attempt }) => ({ attempt }) } })
    t.match(await finished(second, id), { state: 'completed', result: { attempt: 1 } })
  })

  t.test('a process killed mid-job: the next one runs the job again, and its effect is there once', async (t) => {
    let store: EmbeddedStore | undefined
    const dataDir = await tempDir(t, async () => store?.close())
    const startsFile = join(dataDir, 'starts.log')
    const env = { ...process.env, ...suite.fixtureEnv(t, dataDir), DATA_DIR: dataDir, STARTS_FILE: startsFile }
    const fixture = join(import.meta.dirname, 'fixtures', 'run-driver.ts')
    const first = spawn(process.execPath, ['--import', 'tsx', fixture], { env: { ...env, ENQUEUE: '1', HANG: '1' }, stdio: ['ignore', 'pipe', 'inherit'] })
    t.teardown(() => { first.kill('SIGKILL') })
    let out = ''
    first.stdout.on('data', (chunk) => (out += chunk))
    const id = await until(async () => /"enqueued":"([^"]+)"/.exec(out)?.[1], 'the job id')
    await until(async () => (await readFile(startsFile, 'utf8').catch(() => '')).includes('start'), 'the job to start')
    const exited = new Promise((resolve) => first.on('exit', resolve))
    first.kill('SIGKILL')
    await exited
    const second = spawn(process.execPath, ['--import', 'tsx', fixture], { env: { ...env, WAIT_FOR: id }, stdio: ['ignore', 'pipe', 'inherit'] })
    t.teardown(() => { second.kill('SIGKILL') })
    let answer = ''
    second.stdout.on('data', (chunk) => (answer += chunk))
    const code = await new Promise((resolve) => second.on('exit', resolve))
    t.equal(code, 0, 'the second process finished')
    const { job } = JSON.parse(answer.trim().split('\n').pop()!) as { job: JobView }
    t.match(job, { id, state: 'completed', result: { key: 'k1' } })
    const starts = (await readFile(startsFile, 'utf8')).trim().split('\n')
    t.equal(starts.length, 2, 'the job started in both processes')
    t.not(starts[0]!.split(' ')[1], starts[1]!.split(' ')[1], 'each in its own process')
    store = await EmbeddedStore.open(dataDir)
    t.equal(await store.collection('effects').count({}), 1, 'the effect is there once')
  })
}
