import t from 'tap'
import { path } from '../routes/workflows/support.js'
import { launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

const browser = await launchBrowser(t)
const d = await webDepartment(t)
const signedIn = signInAs(browser, d)

// Course's metadata says what an absent `active` means (`defaults: { active: true }`), and the served
// schemas carry it as the property's default: the page is tested against the schema as served.

const readCourse = async (id: string) => (await d.admin({ method: 'GET', url: `/api/courses/${path(id)}` })).json() as Record<string, unknown>

t.test('a check box the record leaves out shows its default, and saving leaves it out', async (t) => {
  const created = await d.admin({ method: 'POST', url: '/api/courses', payload: { course_code: 'DEF 101', title: 'Defaults Shown' } })
  t.equal(created.statusCode, 201)
  const id = (created.json() as { _id: string })._id
  t.equal((await readCourse(id)).active, undefined, 'the record has no active')

  const page = await signedIn(t, 'admin')
  await page.goto(`${d.base}/admin/records/Course/${encodeURIComponent(id)}`)
  await page.getByRole('heading', { level: 1, name: 'Edit Course' }).waitFor()
  const active = page.getByRole('checkbox', { name: 'Active' })
  await active.waitFor()
  t.equal(await active.isChecked(), true, 'absent, shown as its default: checked')

  await page.getByRole('textbox', { name: 'Title' }).first().fill('Defaults Kept')
  await page.getByRole('button', { name: 'Save' }).click()
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
  const saved = await readCourse(id)
  t.equal(saved.title, 'Defaults Kept', 'the change is saved')
  t.equal(saved.active, undefined, 'the untouched default is not written')
  t.equal(await active.isChecked(), true, 'still shown checked after the save')

  await active.uncheck()
  await page.getByRole('button', { name: 'Save' }).click()
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
  t.equal((await readCourse(id)).active, false, 'unchecking it deactivates the course')
  t.equal(await active.isChecked(), false, 'and the box shows it')
})

t.test('a record that holds the value shows the value, not the default', async (t) => {
  const created = await d.admin({ method: 'POST', url: '/api/courses', payload: { course_code: 'DEF 102', title: 'Inactive Already', active: false } })
  t.equal(created.statusCode, 201)
  const id = (created.json() as { _id: string })._id
  const page = await signedIn(t, 'admin')
  await page.goto(`${d.base}/admin/records/Course/${encodeURIComponent(id)}`)
  const active = page.getByRole('checkbox', { name: 'Active' })
  await active.waitFor()
  t.equal(await active.isChecked(), false, 'false is shown as false')
})
