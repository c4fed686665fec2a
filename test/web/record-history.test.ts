import t, { type Test } from 'tap'
import type { Locator, Page } from 'playwright-core'
import { path, type Name } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

const browser = await launchBrowser(t)
const d = await webDepartment(t)
const signIn = signInAs(browser, d)

interface Entry { version: number; at: string; actor: string; actor_name?: string; via: string; op: string; restored_from?: number; changes: { path: string; before?: unknown; after?: unknown }[] }
interface Course { _id: string; _version: number; course_code: string; title: string }

async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers?: Record<string, string>) {
  const res = await d.admin({ method, url, ...(payload ? { payload } : {}), ...(headers ? { headers } : {}) })
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`)
  return res.json()
}

/** A course made and then retitled through the API: version 1 has `first`, version 2 `second`. */
async function retitled(code: string, first: string, second: string): Promise<Course> {
  const created = await call('POST', '/api/courses', { course_code: code, title: first, credits: 3 }) as Course
  return await call('PUT', `/api/courses/${path(created._id)}`, { title: second }, { 'if-match': '"1"' }) as Course
}

const history = async (base: string, id: string) => (await call('GET', `${base}/${path(id)}/history?limit=200`)) as { items: Entry[]; total: number }

async function signedIn(t: Test, name: Name, to: string, heading: string): Promise<Page> {
  const page = await signIn(t, name, to)
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
  return page
}

/** The panel's entry for a version, once shown. */
async function entryOf(panel: Locator, version: number, op: string): Promise<Locator> {
  const heading = { level: 3, name: `Version ${version}: ${op}` }
  await panel.getByRole('heading', heading).waitFor()
  return panel.getByRole('listitem').filter({ has: panel.page().getByRole('heading', heading) })
}

/** A change's row in an entry: [before, after]. */
async function changeRow(entry: Locator, field: string): Promise<string[]> {
  const row = entry.getByRole('row').filter({ has: entry.page().getByRole('rowheader', { name: field, exact: true }) })
  return row.getByRole('cell').allInnerTexts()
}

t.test('a course\'s History panel shows a change made through the API: who, when, through what, before and after', async (t) => {
  const course = await retitled('HIS 301', 'Ancient Rome', 'Rome and its Empire')
  const [latest, first] = (await history('/api/courses', course._id)).items
  t.match(latest, { version: 2, op: 'update', changes: [{ path: '/title', before: 'Ancient Rome', after: 'Rome and its Empire' }] }, 'the API\'s history')

  for (const [to, heading] of [[`/courses/${path(course._id)}`, 'HIS 301: Rome and its Empire'], [`/admin/records/Course/${path(course._id)}`, 'Edit Course']] as const) {
    const page = await signedIn(t, 'admin', to, heading)
    const panel = page.getByRole('region', { name: 'History' })
    const entry = await entryOf(panel, 2, 'updated')
    t.same(await changeRow(entry, 'Title'), ['Ancient Rome', 'Rome and its Empire'], `${to}: the title before and after`)
    t.match(await entry.innerText(), `By ${latest!.actor_name ?? latest!.actor} on`, `${to}: who made it, as the API names them`)
    t.match(await entry.innerText(), `through ${latest!.via}.`, `${to}: through what`)
    t.equal(await entry.locator('time').getAttribute('datetime'), latest!.at, `${to}: when`)
    const created = await entryOf(panel, 1, 'created')
    t.same(await changeRow(created, 'Course code'), ['(none)', 'HIS 301'], `${to}: the creation, its values added`)
    t.equal(first!.op, 'create')
    t.equal(await panel.getByRole('listitem').count(), 2, `${to}: one entry per version, newest first`)
    t.same(await panel.getByRole('heading', { level: 3 }).allInnerTexts(), ['Version 2: updated', 'Version 1: created'])
  }
})

t.test('a person\'s page has the panel, and a long history is paged newest first', async (t) => {
  const person = `/api/people/${path(d.ids.cal)}`
  for (let n = 1; n <= 11; n++) await call('PUT', person, { office: `Room ${n}` })
  const all = await history('/api/people', d.ids.cal)
  t.ok(all.total > 10, `${all.total} versions`)
  const page = await signedIn(t, 'admin', `/people/${path(d.ids.cal)}`, 'cal Faculty')
  const panel = page.getByRole('region', { name: 'History' })
  await entryOf(panel, all.items[0]!.version, 'updated')
  t.match(await panel.innerText(), `${all.total} changes, newest first.`)
  t.same(await panel.getByRole('heading', { level: 3 }).allInnerTexts(), all.items.slice(0, 10).map((e) => `Version ${e.version}: ${e.op}d`), 'the first page: the ten newest')
  t.same(await changeRow(panel.getByRole('listitem').first(), 'Office'), ['Room 10', 'Room 11'])
  await panel.getByRole('button', { name: 'Next page' }).click()
  await entryOf(panel, all.items[10]!.version, all.items[10]!.op === 'create' ? 'created' : 'updated')
  t.same(await panel.getByRole('heading', { level: 3 }).allInnerTexts(), all.items.slice(10, 20).map((e) => `Version ${e.version}: ${e.op}d`), 'the next page: the older ones')
})

t.test('"Restore version 1" on the admin record page brings the old title back, in the form and in the API', async (t) => {
  const course = await retitled('HIS 302', 'Medieval Towns', 'Towns of the Middle Ages')
  const page = await signedIn(t, 'admin', `/admin/records/Course/${path(course._id)}`, 'Edit Course')
  const panel = page.getByRole('region', { name: 'History' })
  await entryOf(panel, 2, 'updated')
  t.equal(await panel.getByRole('button', { name: 'Restore version 2' }).count(), 0, 'the version the record is at is not offered')
  await panel.getByRole('button', { name: 'Restore version 1' }).click()
  await panel.getByRole('status').filter({ hasText: 'Restored version 1: the record is now version 3.' }).waitFor()
  const now = await call('GET', `/api/courses/${path(course._id)}`) as Course
  t.match(now, { _version: 3, title: 'Medieval Towns' }, 'the API has the old title as a new version')
  t.equal(await page.getByRole('textbox', { name: 'Title' }).first().inputValue(), 'Medieval Towns', 'the form shows the record as restored')
  const entry = await entryOf(panel, 3, 'updated')
  t.match(await entry.innerText(), 'restoring version 1', 'the restore is the newest entry')
  t.same(await changeRow(entry, 'Title'), ['Towns of the Middle Ages', 'Medieval Towns'])
  t.equal(await page.evaluate('document.activeElement && document.activeElement.textContent'), 'History', 'focus goes to the top of the new history')
  // The form now writes on top of version 3.
  await page.getByRole('textbox', { name: 'Title' }).first().fill('Medieval Towns and Trade')
  await page.getByRole('button', { name: 'Save' }).click()
  await entryOf(panel, 4, 'updated')
  t.match(await call('GET', `/api/courses/${path(course._id)}`), { _version: 4, title: 'Medieval Towns and Trade' }, 'a save after the restore is not refused as stale')
})

t.test('"Restore version 1" on a course page shows the course as restored', async (t) => {
  const course = await retitled('HIS 303', 'Early Modern Europe', 'Europe 1500-1800')
  const page = await signedIn(t, 'admin', `/courses/${path(course._id)}`, 'HIS 303: Europe 1500-1800')
  const panel = page.getByRole('region', { name: 'History' })
  await entryOf(panel, 2, 'updated')
  await panel.getByRole('button', { name: 'Restore version 1' }).click()
  await page.getByRole('heading', { level: 1, name: 'HIS 303: Early Modern Europe' }).waitFor()
  await entryOf(panel, 3, 'updated')
  t.match(await call('GET', `/api/courses/${path(course._id)}`), { _version: 3, title: 'Early Modern Europe' })
})

t.test('a reader who may not write the record sees its history and no restore', async (t) => {
  const course = await retitled('HIS 304', 'The Silk Road', 'Silk Roads')
  const me = (await d.callers.fay({ method: 'GET', url: '/api/auth/me' })).json() as { permissions: string[] }
  t.notOk(me.permissions.includes('write_courses') || me.permissions.includes('write_people'), 'a faculty member writes neither courses nor people')
  const page = await signedIn(t, 'fay', `/courses/${path(course._id)}`, 'HIS 304: Silk Roads')
  const panel = page.getByRole('region', { name: 'History' })
  const entry = await entryOf(panel, 2, 'updated')
  t.same(await changeRow(entry, 'Title'), ['The Silk Road', 'Silk Roads'], 'the change, before and after')
  t.equal(await page.getByRole('button', { name: /^Restore/ }).count(), 0, 'no restore offered on a course')

  await page.goto(`${d.base}/people/${path(d.ids.cal)}`)
  await page.getByRole('heading', { level: 1, name: 'cal Faculty' }).waitFor()
  await panel.getByRole('heading', { level: 3 }).first().waitFor()
  t.equal(await panel.getByRole('heading', { level: 3 }).count(), Math.min(10, (await history('/api/people', d.ids.cal)).total), 'a person\'s history')
  t.equal(await page.getByRole('button', { name: /^Restore/ }).count(), 0, 'no restore offered on a person')
  const refused = await d.callers.fay({ method: 'POST', url: `/api/courses/${path(course._id)}/restore`, payload: { version: 1 } })
  t.equal(refused.statusCode, 403, 'the server refuses her a restore, as the page let her expect')
  t.same(await axeViolations(page), [], 'a reader\'s panel: no serious or critical violation')
})

t.test('a restore the server refuses as stale shows its message, writes nothing, and offers the record as it is now', async (t) => {
  const course = await retitled('HIS 305', 'Atlantic Worlds', 'The Atlantic World')
  const page = await signedIn(t, 'admin', `/admin/records/Course/${path(course._id)}`, 'Edit Course')
  const panel = page.getByRole('region', { name: 'History' })
  await entryOf(panel, 2, 'updated')
  // Someone else writes the course after the page read it at version 2.
  await call('PUT', `/api/courses/${path(course._id)}`, { title: 'Atlantic History' })
  await panel.getByRole('button', { name: 'Restore version 1' }).click()
  const alert = panel.getByRole('alert')
  await alert.waitFor()
  const refusal = await d.admin({ method: 'POST', url: `/api/courses/${path(course._id)}/restore`, headers: { 'if-match': '"2"' }, payload: { version: 1 } })
  t.equal(refusal.statusCode, 409)
  t.equal(refusal.json().code, 'ADKS_VERSION_CONFLICT')
  t.equal(await alert.innerText(), refusal.json().error, 'the server\'s message')
  t.match(await call('GET', `/api/courses/${path(course._id)}`), { _version: 3, title: 'Atlantic History' }, 'nothing restored')
  t.same(await axeViolations(page), [], 'the refusal: no serious or critical violation')

  await panel.getByRole('button', { name: 'Reload the record' }).click()
  await panel.getByRole('status').filter({ hasText: 'Reloaded: the record is at version 3.' }).waitFor()
  await entryOf(panel, 3, 'updated')
  t.equal(await page.getByRole('textbox', { name: 'Title' }).first().inputValue(), 'Atlantic History', 'the form shows the record as it is now')
  await panel.getByRole('button', { name: 'Restore version 1' }).click()
  await panel.getByRole('status').filter({ hasText: 'Restored version 1: the record is now version 4.' }).waitFor()
  t.match(await call('GET', `/api/courses/${path(course._id)}`), { _version: 4, title: 'Atlantic Worlds' }, 'restored on top of the version reloaded')
})

t.test('axe-core finds no serious or critical violation on the record pages with their History panels', async (t) => {
  const course = await retitled('HIS 306', 'Empires', 'Empires and Nations')
  const pages: [string, string][] = [
    [`/courses/${path(course._id)}`, 'HIS 306: Empires and Nations'],
    [`/people/${path(d.ids.cal)}`, 'cal Faculty'],
    [`/admin/records/Course/${path(course._id)}`, 'Edit Course'],
  ]
  const page = await signedIn(t, 'admin', '/dashboard', 'Dashboard')
  for (const [url, heading] of pages) {
    await page.goto(`${d.base}${url}`)
    await page.getByRole('heading', { level: 1, name: heading }).waitFor()
    await page.getByRole('region', { name: 'History' }).getByRole('button', { name: /^Restore version/ }).first().waitFor()
    t.equal(await page.getByRole('heading', { level: 1 }).count(), 1, `${url}: one <h1>`)
    t.same(await axeViolations(page), [], `${url}: no serious or critical violation`)
  }
})
