import t from 'tap'
import type { Page } from 'playwright-core'
import { path, startOne } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

const browser = await launchBrowser(t)
const d = await webDepartment(t)
const signedIn = signInAs(browser, d)

interface Listed { items: { _id: string; title: string; read_at: string | null }[]; total: number; unread: number }
const fays = async (query = ''): Promise<Listed> => (await d.callers.fay({ method: 'GET', url: `/api/notifications${query}` })).json()

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' })
/** The navigation's entry, by the name it has with `count` unread (none: the bare label). */
const entry = (page: Page, count: number) => nav(page).getByRole('link', count ? { name: `Notifications, ${count} unread`, exact: true } : { name: 'Notifications', exact: true })

t.test('an advisor told of a submission: the count in the navigation, the item on the page, its link to the approval, mark all read', async (t) => {
  const thesis = await startOne(t, d, 'honors_thesis', 1)
  await d.app.notifications.relay.idle()
  t.equal((await fays()).unread, 1, 'the API has one unread notification for Fay')

  const page = await signedIn(t, 'fay')
  await entry(page, 1).waitFor()
  t.equal(await entry(page, 1).innerText(), 'Notifications 1', 'shown as "Notifications 1"')
  await page.getByRole('region', { name: 'Notifications' }).getByRole('link', { name: '1 unread notification' }).waitFor()

  await entry(page, 1).click()
  await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor()
  const row = page.getByRole('row').filter({ hasText: 'Thesis 1' })
  await row.waitFor()
  t.same(await row.getByRole('cell').allInnerTexts().then((cells) => [cells[1], cells[3]]), ['Awaits your decision', 'Unread'], 'what happened, and unread in words')
  t.equal(await row.getByRole('button', { name: 'Mark as read: Thesis 1' }).count(), 1, 'its own "Mark as read"')
  t.equal(await page.getByRole('heading', { level: 1 }).count(), 1, 'one <h1>')
  await page.getByRole('region', { name: 'Email' }).getByRole('status').filter({ hasText: 'Loading' }).waitFor({ state: 'detached' })
  t.same(await axeViolations(page), [], 'no serious or critical violation')

  await row.getByRole('link', { name: 'Thesis 1' }).click()
  await page.getByRole('heading', { level: 1, name: 'Thesis 1' }).waitFor()
  t.equal(page.url(), `${d.base}/approvals/thesis/${path(thesis.id)}`, 'the link leads to the approval page')
  await entry(page, 0).waitFor()
  const after = await fays()
  t.equal(after.unread, 0, 'opening it marked it read')
  t.ok(after.items[0]!.read_at, 'with the time it was read')

  // Two more: the filter, one marked from its row, then all.
  await startOne(t, d, 'honors_thesis', 2)
  await startOne(t, d, 'honors_thesis', 3)
  await d.app.notifications.relay.idle()
  await page.goto(`${d.base}/notifications`)
  await entry(page, 2).waitFor()
  await page.getByRole('row').filter({ hasText: 'Thesis 1' }).waitFor()
  const titles = async () => (await page.locator('tbody tr td:first-child').allInnerTexts())
  const listed = (await fays()).items.map((i) => i.title)
  t.same(await titles(), listed, 'the API\'s items, in its order (newest first)')
  t.same([...listed].sort(), ['Thesis 1', 'Thesis 2', 'Thesis 3'], 'all three')
  t.equal(await page.getByRole('row').filter({ hasText: 'Thesis 1' }).getByRole('cell', { name: 'Read', exact: true }).count(), 1, 'the opened one is read')

  await page.getByRole('checkbox', { name: 'Unread only' }).check()
  await page.waitForURL(`${d.base}/notifications?unread=true`)
  await page.getByRole('row').filter({ hasText: 'Thesis 1' }).waitFor({ state: 'detached' })
  // The read one goes as the list reloads; the unread list is in once its rows are.
  const unread = (await fays('?unread=true')).items.map((i) => i.title)
  await page.locator('tbody tr').nth(unread.length - 1).waitFor()
  t.same(await titles(), unread, 'unread only, as the API lists them')
  t.equal((await titles()).length, 2)

  await page.getByRole('row').filter({ hasText: 'Thesis 3' }).getByRole('button', { name: 'Mark as read' }).click()
  await page.getByRole('status').filter({ hasText: 'Marked as read: Thesis 3.' }).waitFor()
  await entry(page, 1).waitFor()
  t.equal(await page.evaluate<string>('document.activeElement?.textContent ?? ""'), 'Thesis 3', 'focus stays on the item, at its link')
  t.equal((await fays('?unread=true')).total, 1, 'the API has it read')

  await page.getByRole('button', { name: 'Mark all as read' }).click()
  await page.getByRole('status').filter({ hasText: 'Marked 1 notification as read.' }).waitFor()
  await entry(page, 0).waitFor()
  t.equal(await nav(page).locator('.count').count(), 0, 'no count left in the navigation')
  t.equal(await page.getByRole('cell', { name: 'Unread', exact: true }).count(), 0, 'every row shown read')
  t.equal((await fays()).unread, 0, 'the API has none unread')
})

t.test('the count comes with the page load\'s /api/auth/me, and is read once per navigation', async (t) => {
  const page = await signedIn(t, 'fay')
  const reads: string[] = []
  page.on('request', (request) => { if (new URL(request.url()).pathname === '/api/notifications') reads.push(request.url()) })
  await page.goto(`${d.base}/dashboard`)
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
  await page.waitForLoadState('networkidle')
  t.equal(reads.length, 0, 'no read of its own on a full load: /api/auth/me carried it')
  await nav(page).getByRole('link', { name: 'People' }).click()
  await page.getByRole('heading', { level: 1, name: 'People' }).waitFor()
  await page.waitForLoadState('networkidle')
  t.equal(reads.length, 1, 'one on a navigation')
})

t.test('the email preference: chosen from four, saved with the API, a status on save', async (t) => {
  const page = await signedIn(t, 'fay', '/notifications')
  const section = page.getByRole('region', { name: 'Email' })
  const current = await d.callers.fay({ method: 'GET', url: '/api/notifications/preferences' })
  t.equal(current.statusCode, 200, `the API answers the preference (${current.body})`)
  const labels = { immediate: 'Immediately', daily: 'Daily digest', weekly: 'Weekly digest', off: 'Off' } as const
  await section.getByRole('radio', { name: labels[current.json().email as keyof typeof labels], exact: true }).waitFor()
  t.ok(await section.getByRole('radio', { name: labels[current.json().email as keyof typeof labels], exact: true }).isChecked(), 'the API\'s preference is checked')
  t.equal(await section.getByRole('radio').count(), 4, 'four choices')
  t.equal(current.json().default, true, 'nothing chosen yet: the role\'s default')
  t.equal(await section.getByText('You have not chosen yet').count(), 1, 'a default is said to be one')
  for (const [email, label, saved] of [['weekly', 'Weekly digest', 'Saved: you get a weekly digest.'], ['off', 'Off', 'Saved: you get no email.']] as const) {
    await section.getByRole('radio', { name: label, exact: true }).check()
    await section.getByRole('button', { name: 'Save' }).click()
    await section.getByRole('status').filter({ hasText: saved }).waitFor()
    t.equal((await d.callers.fay({ method: 'GET', url: '/api/notifications/preferences' })).json().email, email, `the API has ${email}`)
  }
  await page.reload()
  await section.getByRole('radio', { name: 'Off', exact: true }).waitFor()
  t.ok(await section.getByRole('radio', { name: 'Off', exact: true }).isChecked(), 'a new load shows what was saved')
  t.same(await axeViolations(page), [], 'no serious or critical violation')
})
