import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { backupOutcomeOf, outcomeText, sizeText } from '../../web/src/backups/text.js'
import { finished } from '../routes/campus-sync/support.js'
import { axeViolations, launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

const browser = await launchBrowser(t)
const d = await webDepartment(t)
const signIn = signInAs(browser, d)

interface Backup { file: string; bytes: number; created_at: string; encrypted: boolean | null; documents: number | null; verified_at: string | null; verify_error: string | null }
interface BackupList { items: Backup[]; settings: { dir: string; keep: number; every: number }; running_job: string | null }

async function call(method: 'GET' | 'POST', url: string) {
  const res = await d.admin({ method, url })
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`)
  return res.json()
}

const listed = () => call('GET', '/api/admin/backups') as Promise<BackupList>

async function backupsPage(t: Test): Promise<Page> {
  const page = await signIn(t, 'admin', '/admin/backups')
  await page.getByRole('heading', { level: 1, name: 'Backups' }).waitFor()
  return page
}

const table = (page: Page) => page.getByRole('table', { name: /newest first/ })
const rowOf = (page: Page, file: string) => table(page).getByRole('row').filter({ has: page.getByRole('rowheader', { name: file }) })

/** Whether the page is wider than its window: it would scroll sideways. */
const scrollsSideways = (page: Page) => page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth')

t.test('an admin sees the backups, backs up now with a live progress bar, and the new backup is listed', async (t) => {
  const first = await finished(d.admin, (await call('POST', '/api/admin/backups')).jobId as string)
  t.equal(first.state, 'completed', 'a backup made through the API')

  const page = await signIn(t, 'admin', '/admin')
  await page.getByRole('heading', { level: 1, name: 'Administration' }).waitFor()
  const [made] = (await listed()).items
  await page.getByText('Last backup:').waitFor()
  t.equal(await page.getByText('Last backup:').locator('time').getAttribute('datetime'), made!.created_at, 'the administration page names the last backup')
  await page.getByRole('main').getByRole('link', { name: 'Backups', exact: true }).click()
  await page.getByRole('heading', { level: 1, name: 'Backups' }).waitFor()

  const before = await listed()
  const row = rowOf(page, made!.file)
  await row.waitFor()
  const cells = (await row.getByRole('cell').allInnerTexts()).slice(0, 5)
  t.same(cells, [sizeText(made!.bytes), String(made!.documents), 'Encrypted', 'ada@dept.edu', 'Never verified'], 'size, documents, encryption, who made it, never verified')
  t.equal(await row.getByRole('rowheader').locator('time').getAttribute('datetime'), made!.created_at, 'when')
  const settings = await page.locator('.backup-settings').innerText()
  t.match(settings, `Backups are written to ${before.settings.dir}; the newest ${before.settings.keep} are kept.`)
  t.match(settings, 'A backup is made every day', 'BACKUP_EVERY in words')

  // Paused, the queue holds the job waiting, so its bar is on the page for as long as the test looks.
  await call('POST', '/api/queues/maintenance/pause')
  t.teardown(() => call('POST', '/api/queues/maintenance/resume'))
  await page.getByRole('button', { name: 'Back up now' }).click()
  const bar = page.getByRole('progressbar', { name: 'Backup progress' })
  await bar.waitFor()
  const jobId = (await listed()).running_job
  t.ok(jobId, 'the API has the backup waiting')
  t.equal(await bar.getAttribute('aria-valuenow'), '0', 'the bar starts empty')
  t.same(await axeViolations(page), [], 'with the bar: no serious or critical violation')

  await call('POST', '/api/queues/maintenance/resume')
  const status = page.getByRole('region', { name: 'Back up now' }).getByRole('status')
  await status.waitFor()
  await bar.waitFor({ state: 'detached' })
  const job = await finished(d.admin, jobId!)
  t.equal(job.state, 'completed')
  const outcome = backupOutcomeOf(job.result)!
  t.equal(await status.innerText(), outcomeText(outcome), 'the job\'s outcome announced')
  await rowOf(page, outcome.file).waitFor()
  const after = await listed()
  t.equal(after.items[0]!.file, outcome.file, 'the new backup is the API\'s newest')
  t.same(await table(page).locator('tbody th .file').allInnerTexts(), after.items.map((b) => b.file), 'the API\'s backups in its order')
})

t.test('"Verify" checks a backup and shows it verified; a damaged file shows the server\'s refusal', async (t) => {
  const page = await backupsPage(t)
  const [newest, older] = (await listed()).items
  await rowOf(page, newest!.file).getByRole('button', { name: `Verify ${newest!.file}` }).click()
  const status = page.getByRole('region', { name: 'Backup files' }).getByRole('status')
  await status.waitFor()
  t.equal(await status.innerText(), `${newest!.file} verified: the key opens it and every checksum matches.`)
  const verifiedAt = (await listed()).items[0]!.verified_at
  t.ok(verifiedAt, 'the API records the verification')
  const cell = rowOf(page, newest!.file).getByRole('cell').filter({ hasText: 'Verified' })
  await cell.waitFor()
  t.equal(await cell.locator('time').getAttribute('datetime'), verifiedAt, 'the row shows when it verified')

  const path = join(d.config.backups.dir, older!.file)
  const bytes = await readFile(path)
  const middle = Math.floor(bytes.length / 2)
  bytes.writeUInt8(bytes.readUInt8(middle) ^ 0x01, middle)
  await writeFile(path, bytes)
  await rowOf(page, older!.file).getByRole('button', { name: `Verify ${older!.file}` }).click()
  const alert = page.getByRole('region', { name: 'Backup files' }).getByRole('alert')
  await alert.waitFor()
  const refused = (await listed()).items.find((b) => b.file === older!.file)!
  t.ok(refused.verify_error, 'the API records the refusal')
  t.equal(await alert.innerText(), refused.verify_error, 'the server\'s message')
  t.match(refused.verify_error, older!.file, 'which names the file')
  await rowOf(page, older!.file).getByRole('cell', { name: `Refused: ${refused.verify_error!.replace(`${older!.file}: `, '')}` }).waitFor()
  t.pass('the row says why it was refused')
  t.same(await axeViolations(page), [], 'no serious or critical violation')
})

t.test('a non-admin has no way to the page and, opening it, sees the server\'s refusal and no backup', async (t) => {
  const page = await signIn(t, 'fay')
  const nav = page.getByRole('navigation', { name: 'Main' })
  t.equal(await nav.getByRole('link', { name: 'Administration' }).count(), 0, 'no Administration entry')
  t.equal(await nav.getByRole('link', { name: 'Backups' }).count(), 0, 'no Backups entry')
  await page.goto(`${d.base}/admin/backups`)
  await page.getByRole('heading', { level: 1, name: 'Backups' }).waitFor()
  const alert = page.getByRole('alert')
  await alert.waitFor()
  const refusal = await d.callers.fay({ method: 'GET', url: '/api/admin/backups' })
  t.equal(refusal.statusCode, 403)
  t.equal(await alert.innerText(), refusal.json().error, 'the server\'s message')
  t.equal(await page.getByRole('table').count(), 0, 'no list')
  t.equal(await page.getByRole('button', { name: 'Back up now' }).count(), 0, 'nothing to start')
  t.equal((await d.callers.fay({ method: 'POST', url: '/api/admin/backups' })).statusCode, 403, 'as the API refuses a backup')
})

t.test('the page reads without scrolling sideways at 1280 px and at 375 px', async (t) => {
  const page = await backupsPage(t)
  const { items } = await listed()
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 })
    await rowOf(page, items[0]!.file).waitFor()
    t.notOk(await scrollsSideways(page), `${width} px: no sideways scrolling`)
    t.equal(await table(page).getByRole('row').count(), items.length + 1, `${width} px: still a table of every backup`)
    t.same(await axeViolations(page), [], `${width} px: no serious or critical violation`)
  }
})
