import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { provider } from '../campus-sync/support.js'
import { accepted, finished, restSource } from '../routes/campus-sync/support.js'
import { path } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

const browser = await launchBrowser(t)
const d = await webDepartment(t)
const signIn = signInAs(browser, d)

interface TrashItem { id: string; type: string; title?: string; version: number; deleted_at: string; deleted_by: string; deleted_by_name?: string; via: string }
interface Run { _id: string; kind: string; dry_run: boolean; reverts?: string; reverted_by?: string }
interface Job { id: string; name: string; state: string; data: Record<string, unknown>; result: Record<string, unknown> | null }

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const res = await d.admin({ method, url, ...(payload ? { payload } : {}) })
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`)
  return res.json()
}

async function deletedCourse(code: string, title: string): Promise<string> {
  const { _id: id } = await call('POST', '/api/courses', { course_code: code, title, credits: 3 }) as { _id: string }
  await call('DELETE', `/api/courses/${path(id)}`)
  return id
}

async function adminAt(t: Test, to: string, heading: string): Promise<Page> {
  const page = await signIn(t, 'admin', to)
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
  return page
}

const trashRow = (page: Page, id: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: id, exact: true }) })

t.test('the trash lists a deleted record with who deleted it, filters by type, and restores it', async (t) => {
  const id = await deletedCourse('TRS 101', 'Binned')
  const page = await adminAt(t, '/admin', 'Administration')
  await page.getByRole('main').getByRole('link', { name: 'Trash', exact: true }).click()
  await page.getByRole('heading', { level: 1, name: 'Trash' }).waitFor()
  const row = trashRow(page, id)
  await row.waitFor()

  const trash = await call('GET', '/api/admin/trash?limit=25') as { items: TrashItem[]; total: number }
  const item = trash.items.find((i) => i.id === id)!
  t.match(item, { type: 'Course', title: 'TRS 101 Binned' })
  t.equal(trash.items[0]!.id, id, 'the newest deletion comes first in the API')
  t.same(await page.locator('tbody tr th').allInnerTexts(), trash.items.map((i) => i.title ?? i.id), 'the API\'s deleted records, in its order')
  t.same(await row.getByRole('cell').allInnerTexts().then((cells) => [cells[0], cells[1], cells[3], cells[4]]), [item.type, id, item.deleted_by_name ?? item.deleted_by, item.via], 'type, id, who deleted it, through what')
  t.equal(await row.locator('time').getAttribute('datetime'), item.deleted_at, 'when')
  t.match(await page.getByRole('table').locator('caption').innerText(), `${trash.total} deleted`)

  const labId = (await call('POST', '/api/labs', { name: 'Binned lab', pi: d.ids.fay })) as { _id: string }
  await call('DELETE', `/api/labs/${path(labId._id)}`)
  await page.getByRole('combobox', { name: 'Type' }).selectOption('Lab')
  await page.getByRole('button', { name: 'Filter' }).click()
  await page.getByRole('table').locator('caption').filter({ hasText: 'of type Lab' }).waitFor()
  const labs = await call('GET', '/api/admin/trash?type=Lab') as { items: TrashItem[] }
  t.same(await page.locator('tbody tr td:nth-of-type(1)').allInnerTexts(), labs.items.map((i) => i.type), 'only labs, as the API filters them')
  t.equal(await trashRow(page, id).count(), 0, 'the course is filtered out')
  t.equal(new URL(page.url()).searchParams.get('type'), 'Lab', 'the filter is in the address')

  await page.getByRole('combobox', { name: 'Type' }).selectOption('')
  await page.getByRole('button', { name: 'Filter' }).click()
  await trashRow(page, id).getByRole('button', { name: `Restore TRS 101 Binned (${id})` }).click()
  await page.getByRole('status').filter({ hasText: `${id} restored from the trash` }).waitFor()
  t.match(await call('GET', `/api/courses/${path(id)}`), { _id: id, title: 'Binned' }, 'the API has the course back under its id')
  await trashRow(page, id).waitFor({ state: 'detached' })
  t.pass('it has left the trash')
  t.equal(await page.getByRole('link', { name: `Open TRS 101 Binned (${id})` }).getAttribute('href'), `/admin/records/Course/${path(id)}`, 'a link to the restored record')
  t.same(await axeViolations(page), [], 'no serious or critical violation')
})

t.test('a restore the server refuses (its email taken since) shows the server\'s message and leaves the record in the trash', async (t) => {
  const person = { first_name: 'Tess', last_name: 'Trash', email: 'tess@dept.edu' }
  const { id } = await call('POST', '/api/people', { type: 'Staff', ...person }) as { id: string }
  await call('DELETE', `/api/people/${path(id)}`)
  await call('POST', '/api/people', { type: 'Staff', ...person, first_name: 'Tessa' })
  const page = await adminAt(t, '/admin/trash?type=Person', 'Trash')
  await trashRow(page, id).getByRole('button', { name: `Restore Tess Trash (${id})` }).click()
  const alert = page.getByRole('alert')
  await alert.waitFor()
  const refusal = await d.admin({ method: 'POST', url: `/api/admin/trash/${path(id)}/restore` })
  t.equal(refusal.statusCode, 409)
  t.equal(refusal.json().code, 'ADKS_RESTORE_CONFLICT')
  t.equal(await alert.innerText(), refusal.json().error, 'the server\'s message')
  t.equal(await trashRow(page, id).count(), 1, 'still in the trash')
  t.equal((await d.admin({ method: 'GET', url: `/api/people/${path(id)}` })).statusCode, 404, 'not restored')
  t.same(await axeViolations(page), [], 'the refusal: no serious or critical violation')
})

t.test('a non-admin opening the trash sees the server\'s refusal and no record', async (t) => {
  await deletedCourse('TRS 103', 'Not for faculty')
  const page = await signIn(t, 'fay', '/admin/trash')
  await page.getByRole('heading', { level: 1, name: 'Trash' }).waitFor()
  const alert = page.getByRole('alert')
  await alert.waitFor()
  const refusal = await d.callers.fay({ method: 'GET', url: '/api/admin/trash' })
  t.equal(refusal.statusCode, 403)
  t.equal(await alert.innerText(), refusal.json().error)
  t.equal(await page.getByRole('table').count(), 0, 'no list')
})

t.test('a campus sync run is reverted from /admin/sync: its dry-run report first, then the revert, as the API reports them', async (t) => {
  const feed = await provider(t)
  await call('PUT', '/api/campus-sync/config', { source: restSource(feed.url) })
  const done = await finished(d.admin, await accepted(t, d.admin, '/api/campus-sync/courses'))
  t.equal(done.state, 'completed')
  const [run] = (await call('GET', '/api/campus-sync/runs?limit=1')).items as Run[]
  t.match(run, { kind: 'courses', dry_run: false })
  const synced = ((await call('GET', '/api/courses?limit=200')).items as { _id: string; course_code: string }[]).filter((c) => c.course_code.startsWith('CSX'))
  t.equal(synced.length, 2, 'the run created two courses')
  // One of them changed by an admin since: the revert leaves it and says so.
  const [kept, dropped] = synced
  await call('PUT', `/api/courses/${path(kept!._id)}`, { title: 'Kept by the department' })

  const page = await adminAt(t, '/admin/sync', 'Campus sync')
  await page.getByRole('button', { name: `Revert run ${run!._id}` }).click()
  const panel = page.getByRole('region', { name: `Revert run ${run!._id}` })
  await panel.getByRole('heading', { level: 3, name: 'Dry run: completed' }).waitFor()
  const jobs = (await call('GET', '/api/admin/jobs?queue=campus-sync&limit=10')).items as Job[]
  const dry = jobs.find((j) => j.name === 'revert' && j.data.dryRun === true)!
  const report = dry.result as { reverted: number; changes: { id: string; op: string }[]; conflicts: { id: string; changed_by: string; changed_by_name?: string; at: string }[] }
  t.match(report, { dry_run: true, reverted: 1, changes: [{ id: dropped!._id, op: 'delete' }], conflicts: [{ id: kept!._id }] }, 'the API\'s dry run')
  t.equal(await panel.getByRole('status').innerText(), 'The revert would put back 1 record; 1 record changed by someone else since the run would be left as they are.')
  const rows = async (name: string) => Promise.all((await panel.getByRole('table', { name }).locator('tbody tr').all()).map((row) => row.getByRole('cell').allInnerTexts()))
  t.same(await rows('What the revert would change'), report.changes.map((c) => [c.id, 'deleted (the run created it)']), 'which records would go back, and how')
  const conflicts = await rows('Changed since the run: left as they are')
  t.same(conflicts.map((c) => c.slice(0, 2)), report.conflicts.map((c) => [c.id, c.changed_by_name ?? c.changed_by]), 'the conflicts, with who changed them')
  t.equal(await panel.getByRole('table', { name: 'Changed since the run: left as they are' }).locator('time').getAttribute('datetime'), report.conflicts[0]!.at, 'and when')
  t.equal(report.conflicts[0]!.changed_by_name ?? report.conflicts[0]!.changed_by, 'ada@dept.edu', 'the admin who changed it')
  t.equal((await d.admin({ method: 'GET', url: `/api/courses/${path(dropped!._id)}` })).statusCode, 200, 'the dry run changed nothing')
  t.same(await axeViolations(page), [], 'the dry-run report: no serious or critical violation')

  await panel.getByRole('button', { name: 'Confirm revert' }).click()
  await panel.getByRole('heading', { level: 3, name: 'Revert: completed' }).waitFor()
  const status = await panel.getByRole('status').innerText()
  const runs = (await call('GET', '/api/campus-sync/runs?limit=50')).items as Run[]
  const revert = runs.find((r) => r.reverts === run!._id)!
  t.ok(revert, 'the API lists the revert as a run of its own')
  t.equal(status, `Reverted 1 record; 1 record changed by someone else since the run were left as they are. The revert is run ${revert._id}.`)
  t.equal(runs.find((r) => r._id === run!._id)!.reverted_by, revert._id, 'the API says the run was reverted')
  t.equal((await d.admin({ method: 'GET', url: `/api/courses/${path(dropped!._id)}` })).statusCode, 404, 'the course the run created is gone')
  t.match(await call('GET', `/api/courses/${path(kept!._id)}`), { title: 'Kept by the department' }, 'the course changed since is left as it is')

  const runsTable = page.getByRole('region', { name: 'Runs' })
  await runsTable.getByText(`reverted by ${revert._id}`).waitFor()
  await runsTable.getByText(`reverts ${run!._id}`).waitFor()
  t.pass('the runs list says which run reverted which')
  t.same(await axeViolations(page), [], 'the revert\'s outcome: no serious or critical violation')
})
