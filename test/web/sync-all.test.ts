/**
 * A first-time admin's "Sync everything" on /admin/sync: a fresh service with nothing configured syncs
 * the sample package (courses, sections, people as one job) and ends with 0 errors, as the API says.
 */
import t from 'tap'
import { launchBrowser, newPage } from './browser.js'
import { servedApp } from './support.js'

const browser = await launchBrowser(t)
const email = 'ops@dept.example.edu'

t.test('a first-time admin syncs everything from /admin/sync and ends with 0 errors', async (t) => {
  const served = await servedApp(t)
  const admin = served.as(email, 'admin')
  t.equal((await admin({ method: 'GET', url: '/api/campus-sync/runs' })).json().total, 0, 'nothing ever synced')
  const page = await newPage(t, browser)
  await page.goto(await served.link(email, 'admin'))
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
  await page.goto(`${served.base}/admin/sync`)
  await page.getByRole('heading', { level: 1, name: 'Campus sync' }).waitFor()
  await page.getByRole('button', { name: 'Sync everything' }).click()
  // The sample package on a machine shared with other suites: wait on the outcome, as long as it takes.
  await page.getByRole('heading', { level: 3, name: 'Sync everything: completed' }).waitFor({ timeout: 300_000 })
  const status = page.getByRole('status').filter({ hasText: /synced with/ })
  t.equal(await status.innerText(), 'courses, sections and people synced with 0 row errors', 'the outcome, as the job says it')
  const runs = page.getByRole('list', { name: 'Runs of the complete sync' }).getByRole('listitem')
  t.same(await runs.allInnerTexts(), ['courses: completed, 0 errors', 'sections: completed, 0 errors', 'people: completed, 0 errors'], 'each run in order, none with an error')
  t.ok(await page.getByRole('progressbar').count() > 0, 'the job\'s progress bar')

  const [job] = (await admin({ method: 'GET', url: '/api/admin/jobs?queue=campus-sync&limit=1' })).json().items as { name: string; state: string; result: { errors: number } }[]
  t.match(job, { name: 'all', state: 'completed', result: { errors: 0 } }, 'the API agrees')
  const listed = (await admin({ method: 'GET', url: '/api/campus-sync/runs' })).json().items as { kind: string; errors: unknown[] }[]
  t.same(listed.map((r) => [r.kind, r.errors.length]), [['people', 0], ['sections', 0], ['courses', 0]])
  const table = page.getByRole('table', { name: '3 runs, newest first' })
  await table.waitFor()
  t.same(await table.locator('tbody tr td:first-child').allInnerTexts(), ['people', 'sections', 'courses'], "the page's list of runs, refreshed once the job ended")
})
