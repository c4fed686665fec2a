import t, { type Test } from 'tap'
import type { Locator, Page } from 'playwright-core'
import { path, startOne, type Name } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

// The read-only History panels: a plan's, an enrollment's and a workflow entity's, whose routes have no restore.
const browser = await launchBrowser(t)
const d = await webDepartment(t)
const signIn = signInAs(browser, d)
const una = path(d.ids.una)

interface Entry { version: number; at: string; actor: string; actor_name?: string; via: string; op: string; changes: { path: string; before?: unknown; after?: unknown }[] }
interface Transcript { terms: { term: string; courses: { enrollment: string; course_code: string; grade: string | null }[] }[] }

async function call(who: Name, method: 'GET' | 'PUT', url: string, payload?: object) {
  const res = await d.callers[who]({ method, url, ...(payload ? { payload } : {}) })
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`)
  return res.json()
}

const historyOf = async (who: Name, url: string) => (await call(who, 'GET', `${url}?limit=200`)) as { items: Entry[]; total: number }

async function signedIn(t: Test, name: Name, to: string, heading: string): Promise<Page> {
  const page = await signIn(t, name, to)
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
  return page
}

/** The panel's entry for a version, once shown; `level` is its heading's (4 in a panel under an h2). */
async function entryOf(panel: Locator, version: number, op: string, level = 3): Promise<Locator> {
  const heading = { level, name: `Version ${version}: ${op}` }
  await panel.getByRole('heading', heading).waitFor()
  return panel.getByRole('listitem').filter({ has: panel.page().getByRole('heading', heading) })
}

/** A change's row in an entry: [before, after]. */
async function changeRow(entry: Locator, field: string): Promise<string[]> {
  const row = entry.getByRole('row').filter({ has: entry.page().getByRole('rowheader', { name: field, exact: true }) })
  return row.getByRole('cell').allInnerTexts()
}

t.test('a student opens her plan\'s history, renames the plan, and sees the rename in it', async (t) => {
  const page = await signedIn(t, 'una', `/students/${una}/plans`, 'Study plans')
  const disclosure = page.getByRole('button', { name: 'History of Four years' })
  t.equal(await disclosure.getAttribute('aria-expanded'), 'false', 'closed until asked for')
  t.equal(await page.getByRole('region', { name: /^History of/ }).count(), 0, 'no history read yet')
  await disclosure.click()
  t.equal(await disclosure.getAttribute('aria-expanded'), 'true')
  const before = page.getByRole('region', { name: 'History of Four years' })
  t.equal(await disclosure.getAttribute('aria-controls'), await before.getAttribute('id'), 'the button names the panel it opened')
  const created = await entryOf(before, 1, 'created', 4)
  t.same(await changeRow(created, 'Plan name'), ['(none)', 'Four years'], 'the plan as created')

  await page.getByRole('button', { name: 'Edit Four years' }).click()
  await page.getByRole('textbox', { name: 'Plan name' }).fill('Four years, revised')
  await page.getByRole('button', { name: 'Save name and degree' }).click()
  await page.getByRole('status').filter({ hasText: /Name and degree changed\. Saved/ }).waitFor()

  // The open panel reads the history again at the plan's new version, under its new name.
  const panel = page.getByRole('region', { name: 'History of Four years, revised' })
  const renamed = await entryOf(panel, 2, 'updated', 4)
  t.same(await changeRow(renamed, 'Plan name'), ['Four years', 'Four years, revised'], 'the name before and after')
  const [latest] = (await historyOf('una', `/api/student-plans/${path(d.plan)}/history`)).items
  t.match(latest, { version: 2, op: 'update', changes: [{ path: '/plan_name', before: 'Four years', after: 'Four years, revised' }] }, 'the API\'s history')
  t.match(await renamed.innerText(), `By ${latest!.actor_name ?? latest!.actor} on`, 'who renamed it, as the API names them')
  t.match(await renamed.innerText(), `through ${latest!.via}.`, 'through what')
  t.same(await panel.getByRole('heading', { level: 4 }).allInnerTexts(), ['Version 2: updated', 'Version 1: created'], 'newest first')
  t.equal(await page.getByRole('button', { name: /^Restore/ }).count(), 0, 'read-only: plans have no restore')

  await page.getByRole('button', { name: 'History of Four years, revised' }).click()
  await panel.waitFor({ state: 'detached' })
  t.pass('the disclosure closes the panel')
})

t.test('a student opens an enrollment\'s history from her transcript and sees its regrade', async (t) => {
  const transcript = await call('una', 'GET', `/api/students/${una}/transcript`) as Transcript
  const enrollment = transcript.terms.find((term) => term.term === '25F')!.courses.find((c) => c.course_code === 'CS 101')!.enrollment
  await call('admin', 'PUT', `/api/enrollments/${path(enrollment)}`, { grade: 'A-' })
  const page = await signedIn(t, 'una', `/students/${una}/transcript`, 'Transcript: Una Under')
  const button = page.getByRole('button', { name: 'History of CS 101 in 25F' })
  await button.click()
  t.equal(await button.getAttribute('aria-expanded'), 'true')
  const panel = page.getByRole('region', { name: 'History of CS 101 in 25F' })
  const regrade = await entryOf(panel, 2, 'updated', 4)
  t.same(await changeRow(regrade, 'Grade'), ['A', 'A-'], 'the grade before and after')
  const api = await historyOf('una', `/api/students/${una}/enrollments/${path(enrollment)}/history`)
  t.same(await panel.getByRole('heading', { level: 4 }).allInnerTexts(), api.items.map((e) => `Version ${e.version}: ${e.op}d`), 'the API\'s versions, newest first')
  t.equal(await page.getByRole('button', { name: /^Restore/ }).count(), 0, 'read-only: enrollments have no restore here')
})

t.test('an approver sees the entity\'s revisions on the approval page, read again after her decision', async (t) => {
  const started = await startOne(t, d, 'honors_thesis', 1)
  const page = await signedIn(t, 'fay', `/approvals/thesis/${path(started.id)}`, 'Thesis 1')
  const panel = page.getByRole('region', { name: 'History' })
  const submitted = await entryOf(panel, 2, 'updated')
  t.same(await changeRow(submitted, 'Status'), ['draft', 'submitted'], 'the submission')
  const before = await historyOf('fay', `/api/thesis/requests/${path(started.id)}/revisions`)
  t.match(await submitted.innerText(), `through ${before.items[0]!.via}.`, 'through the submit route, as the API says')
  t.same(await changeRow(await entryOf(panel, 1, 'created'), 'Title'), ['(none)', 'Thesis 1'], 'the request as created')
  t.equal(await page.getByRole('button', { name: /^Restore/ }).count(), 0, 'read-only: workflow entities have no restore')

  await page.getByRole('textbox', { name: 'Comment' }).fill('Please narrow the topic')
  await page.getByRole('button', { name: 'Request revision' }).click()
  await page.getByRole('status').filter({ hasText: 'Revision requested.' }).waitFor()
  const after = await historyOf('fay', `/api/thesis/requests/${path(started.id)}/revisions`)
  t.ok(after.total > before.total, 'the decision made a new version of the request')
  const latest = after.items[0]!
  const entry = await entryOf(panel, latest.version, 'updated')
  const status = latest.changes.find((c) => c.path === '/status')!
  t.same(await changeRow(entry, 'Status'), [status.before, status.after], 'the new version, its status before and after')
})

t.test('axe-core finds no serious or critical violation on the pages with read-only History panels open', async (t) => {
  const started = await startOne(t, d, 'honors_thesis', 2)
  const student = await signedIn(t, 'una', `/students/${una}/plans`, 'Study plans')
  await student.getByRole('button', { name: /^History of / }).first().click()
  await student.getByRole('region', { name: /^History of / }).getByRole('heading', { level: 4 }).first().waitFor()
  t.same(await axeViolations(student), [], 'plans, with a history open: none')
  await student.goto(`${d.base}/students/${una}/transcript`)
  await student.getByRole('button', { name: 'History of CS 101 in 25F' }).click()
  await student.getByRole('region', { name: 'History of CS 101 in 25F' }).getByRole('heading', { level: 4 }).first().waitFor()
  t.same(await axeViolations(student), [], 'transcript, with an enrollment\'s history open: none')
  const approver = await signedIn(t, 'fay', `/approvals/thesis/${path(started.id)}`, 'Thesis 2')
  await approver.getByRole('region', { name: 'History' }).getByRole('heading', { level: 3 }).first().waitFor()
  t.equal(await approver.getByRole('heading', { level: 1 }).count(), 1, 'the approval page: one <h1>')
  t.same(await axeViolations(approver), [], 'the approval page with its revisions: none')
})
