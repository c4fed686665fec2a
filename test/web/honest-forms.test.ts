import t from 'tap'
import { path } from '../routes/workflows/support.js'
import { launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

const browser = await launchBrowser(t)
const d = await webDepartment(t)
const signedIn = signInAs(browser, d)

t.test('the new-course form offers no system-kept field, and the course it creates is active', async (t) => {
  const page = await signedIn(t, 'admin', '/admin/records/Course/new')
  await page.getByRole('heading', { level: 1, name: 'New Course' }).waitFor()
  await page.getByRole('textbox', { name: 'Course code' }).waitFor()
  const labels = await page.locator('form label, form legend').allInnerTexts()
  t.notOk(labels.some((l) => /^\s*(Active|Source)\b/i.test(l)), `no Active or Source control: ${labels.join(' | ')}`)
  t.equal(await page.getByRole('checkbox', { name: 'Active' }).count(), 0, 'no Active box')
  await page.getByRole('textbox', { name: 'Course code' }).fill('HON 120')
  await page.getByRole('textbox', { name: 'Title' }).first().fill('Truthful Forms')
  await page.getByRole('button', { name: 'Save' }).click()
  await page.getByRole('heading', { level: 1, name: 'Edit Course' }).waitFor()
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
  // An edit offers it: an administrator deactivates a record there.
  t.equal(await page.getByRole('checkbox', { name: 'Active' }).count(), 1, 'the edit form offers the Active box')
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!)
  const saved = (await d.admin({ method: 'GET', url: `/api/courses/${path(id)}` })).json() as Record<string, unknown>
  t.match(saved, { course_code: 'HON 120', title: 'Truthful Forms' })
  t.not(saved.active, false, 'the course is active (absent means active)')
  t.equal(saved.source, undefined, 'no source: only a sync writes it')
})

t.test('the served create schema marks what the metadata says the system keeps; the API still takes it', async (t) => {
  const schema = (await d.admin({ method: 'GET', url: '/api/schemas/Course?variant=create' })).json() as { properties: Record<string, { readOnly?: boolean }> }
  t.equal(schema.properties.active?.readOnly, true, 'create: active is readOnly')
  t.equal(schema.properties.source?.readOnly, true, 'create: source is readOnly')
  t.equal(schema.properties.title?.readOnly, undefined, 'create: title is not')
  const update = (await d.admin({ method: 'GET', url: '/api/schemas/Course?variant=update' })).json() as { properties: Record<string, { readOnly?: boolean }> }
  t.equal(update.properties.active?.readOnly, undefined, 'update: active is not, so an administrator can deactivate a record')
  const record = (await d.admin({ method: 'GET', url: '/api/schemas/Course' })).json() as { properties: Record<string, { readOnly?: boolean }> }
  t.equal(record.properties.active?.readOnly, undefined, 'the record variant is as before')
  const created = await d.admin({ method: 'POST', url: '/api/courses', payload: { course_code: 'HON 121', title: 'Sent anyway', active: true } })
  t.equal(created.statusCode, 201, 'a body naming active is accepted as before')
})

t.test('an enum drop-down the server refuses is marked aria-invalid with its error', async (t) => {
  const page = await signedIn(t, 'admin', '/admin/records/Resource/new')
  await page.getByRole('heading', { level: 1, name: 'New Resource' }).waitFor()
  await page.getByRole('textbox', { name: 'Name' }).first().fill('Telescope')
  const select = page.getByRole('combobox', { name: 'Resource type' })
  await select.waitFor()
  t.equal(await select.getAttribute('aria-invalid'), null, 'not marked before it is refused')
  await page.getByRole('button', { name: 'Save' }).click()
  const alert = page.getByRole('alert').filter({ hasText: 'resource_type' })
  await alert.waitFor()
  t.equal(await select.getAttribute('aria-invalid'), 'true', 'the drop-down is marked invalid')
  const described = (await select.getAttribute('aria-describedby')) ?? ''
  t.ok(described.split(' ').includes(await alert.getAttribute('id') ?? '-'), 'the drop-down is described by its message')
  const options = await select.locator('option').allInnerTexts()
  await select.selectOption({ label: options.find((o) => o.trim() !== '')! })
  await page.waitForFunction('document.querySelector("select[aria-invalid]") === null')
  t.pass('a changed value clears the mark')
})

t.test('an advisor\'s "New request" offers their students in a picker and creates the request for the one chosen', async (t) => {
  const page = await signedIn(t, 'fay', '/requests')
  const region = page.getByRole('region', { name: 'New request' })
  await region.getByRole('combobox', { name: 'Kind of request' }).selectOption({ label: 'Honors thesis' })
  const student = region.getByRole('combobox', { name: 'Student' })
  await student.waitFor()
  const offered = (await student.locator('option').allInnerTexts()).filter((o) => !o.startsWith('Choose'))
  t.same(offered.sort(), ['Gabe Grad', 'Una Under'], 'her advisees, and only them')
  await student.selectOption({ label: 'Una Under' })
  await region.getByRole('textbox', { name: 'Title' }).fill('Picked for Una')
  await region.getByRole('textbox', { name: 'Abstract' }).fill('On pickers')
  await region.getByRole('textbox', { name: 'Term' }).fill('25F')
  const advisor = region.getByRole('combobox', { name: 'Advisor' })
  await advisor.selectOption({ value: d.ids.fay })
  await region.getByRole('button', { name: 'Save draft' }).click()
  await page.waitForURL((url) => url.searchParams.get('domain') === 'thesis' && url.searchParams.has('id'))
  const id = new URL(page.url()).searchParams.get('id')!
  const created = (await d.admin({ method: 'GET', url: `/api/thesis/requests/${path(id)}` })).json() as Record<string, unknown>
  t.match(created, { title: 'Picked for Una', student: d.ids.una, status: 'draft' }, 'the request is Una\'s, as the API says')
  await page.getByRole('heading', { level: 2, name: /Picked for Una/ }).waitFor()
})

t.test('a student\'s "New request" names no student: the request is their own', async (t) => {
  const page = await signedIn(t, 'una', '/requests')
  const region = page.getByRole('region', { name: 'New request' })
  await region.getByRole('combobox', { name: 'Kind of request' }).selectOption({ label: 'Honors thesis' })
  await region.getByRole('textbox', { name: 'Title' }).waitFor()
  t.equal(await region.getByRole('combobox', { name: 'Student' }).count(), 0, 'no student picker')
})
