import t from 'tap'
import type { Page } from 'playwright-core'
import { path } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

const browser = await launchBrowser(t)
const d = await webDepartment(t)

const signedIn = signInAs(browser, d)

const courseTotal = async () => (await d.admin({ method: 'GET', url: '/api/courses?limit=1' })).json().total as number
const courseByCode = async (code: string) => {
  const found = (await d.admin({ method: 'GET', url: `/api/courses?search=${encodeURIComponent(code)}&limit=200` })).json().items as { _id: string; course_code: string }[]
  return found.find((c) => c.course_code === code)
}
/** The id in an edit page's address, /admin/records/<class>/<id>. */
const idIn = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!)

t.test('an admin creates a course through the generated form and the API has it with those values', async (t) => {
  const page = await signedIn(t, 'admin', '/admin/records/Course')
  await page.getByRole('heading', { level: 1, name: 'Course records' }).waitFor()
  const table = page.getByRole('table', { name: 'Course records' })
  await table.waitFor()
  const firstLink = table.locator('tbody tr').first().locator('td').first().getByRole('link')
  t.match(await firstLink.getAttribute('href'), /^\/admin\/records\/Course\/Course%2F/, 'rows start with a link to the edit page')
  await page.getByRole('link', { name: 'New', exact: true }).click()
  await page.getByRole('heading', { level: 1, name: 'New Course' }).waitFor()
  t.equal(new URL(page.url()).pathname, '/admin/records/Course/new')
  await page.getByRole('textbox', { name: 'Course code' }).fill('HIS 210')
  await page.getByRole('textbox', { name: 'Title', exact: false }).first().fill('Medieval Europe')
  await page.getByRole('spinbutton', { name: 'Credits' }).fill('4')
  await page.getByRole('button', { name: 'Save' }).click()
  await page.getByRole('heading', { level: 1, name: 'Edit Course' }).waitFor()
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
  const saved = (await d.admin({ method: 'GET', url: `/api/courses/${path(idIn(page))}` })).json()
  t.match(saved, { course_code: 'HIS 210', title: 'Medieval Europe', credits: 4 }, 'the API has the values typed')
  t.equal(await page.getByRole('textbox', { name: 'Course code' }).inputValue(), 'HIS 210', 'the edit form shows them')
})

t.test('no field is labelled with its raw snake_case name', async (t) => {
  const page = await signedIn(t, 'admin', '/admin/records/Section/new')
  await page.getByRole('heading', { level: 1, name: 'New Section' }).waitFor()
  await page.getByRole('textbox', { name: 'Section number' }).waitFor()
  const labels = await page.locator('form label').allInnerTexts()
  t.ok(labels.length >= 4, `${labels.length} labels`)
  t.notOk(labels.some((l) => /_/.test(l)), `labels are words: ${labels.join(' | ')}`)
})

t.test('a value the server refuses is shown on its field, and nothing is written', async (t) => {
  const before = await courseTotal()
  const page = await signedIn(t, 'admin', '/admin/records/Course/new')
  await page.getByRole('textbox', { name: 'Course code' }).fill('BAD 100')
  await page.getByRole('textbox', { name: 'Title' }).first().fill('Negative credits')
  const credits = page.getByRole('spinbutton', { name: 'Credits' })
  await credits.fill('-1')
  await page.getByRole('button', { name: 'Save' }).click()
  const refusal = await d.admin({ method: 'POST', url: '/api/courses', payload: { course_code: 'BAD 100', title: 'Negative credits', credits: -1 } })
  t.equal(refusal.statusCode, 400)
  const message = refusal.json().error as string
  t.match(message, /'credits'/, 'the server names the field')
  const alert = page.getByRole('alert').filter({ hasText: message })
  await alert.waitFor()
  t.equal(await credits.getAttribute('aria-invalid'), 'true', 'the field is marked invalid')
  const described = (await credits.getAttribute('aria-describedby')) ?? ''
  t.ok(described.split(' ').includes(await alert.getAttribute('id') ?? '-'), 'the field is described by its message')
  t.equal(await page.getByRole('heading', { level: 1, name: 'New Course' }).count(), 1, 'still on the form')
  t.equal(await courseTotal(), before, 'no course was written')
})

t.test('a reference picker finds a record by typing and the saved record holds its id', async (t) => {
  const target = await courseByCode('CS 202')
  t.ok(target, 'CS 202 exists')
  const page = await signedIn(t, 'admin', '/admin/records/Section/new')
  const picker = page.getByRole('combobox', { name: 'Course' })
  await picker.fill('CS 202')
  const option = page.getByRole('option', { name: /CS 202/ })
  await option.waitFor()
  t.equal(await page.getByRole('option').count(), 1, 'the search finds that course alone')
  await option.click()
  t.equal(await picker.inputValue(), 'CS 202 Course CS 202', 'the picker shows the chosen course by name')
  await page.getByRole('textbox', { name: 'Term' }).fill('26S')
  await page.getByRole('textbox', { name: 'Section number' }).fill('07')
  await page.getByRole('button', { name: 'Save' }).click()
  await page.getByRole('heading', { level: 1, name: 'Edit Section' }).waitFor()
  const saved = (await d.admin({ method: 'GET', url: `/api/sections/${path(idIn(page))}` })).json()
  t.match(saved, { course: target!._id, term: '26S', section_number: '07' }, 'the section refers to the course picked')
})

t.test('saving a record changed underneath shows the conflict, and Reload brings its current values', async (t) => {
  const course = (await courseByCode('CS 101'))!
  const page = await signedIn(t, 'admin', `/admin/records/Course/${path(course._id)}`)
  await page.getByRole('heading', { level: 1, name: 'Edit Course' }).waitFor()
  const title = page.getByRole('textbox', { name: 'Title' }).first()
  // The form shows the record once it is loaded: its course code field holds the code.
  await page.getByRole('textbox', { name: 'Course code' }).and(page.locator(`[value="${course.course_code}"]`)).waitFor()
  const changed = await d.admin({ method: 'PUT', url: `/api/courses/${path(course._id)}`, payload: { title: 'Changed elsewhere' } })
  t.equal(changed.statusCode, 200)
  await title.fill('Changed here')
  await page.getByRole('button', { name: 'Save' }).click()
  const alert = page.getByRole('alert').filter({ hasText: /version/ })
  await alert.waitFor()
  const now = (await d.admin({ method: 'GET', url: `/api/courses/${path(course._id)}` })).json()
  t.equal(now.title, 'Changed elsewhere', 'the conflicting save wrote nothing')
  t.match(await alert.innerText(), new RegExp(`is at version ${now._version}`), 'the server\'s message')
  await page.getByRole('button', { name: 'Reload' }).click()
  await page.getByRole('status').filter({ hasText: 'Reloaded' }).waitFor()
  t.equal(await title.inputValue(), 'Changed elsewhere', 'the form shows the record as it now is')
  await title.fill('Changed here after all')
  await page.getByRole('button', { name: 'Save' }).click()
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
  t.equal((await d.admin({ method: 'GET', url: `/api/courses/${path(course._id)}` })).json().title, 'Changed here after all', 'saved on the reloaded version')
})

t.test('a course created with the keyboard alone', async (t) => {
  const page = await signedIn(t, 'admin', '/admin/records/Course')
  await page.getByRole('link', { name: 'New', exact: true }).waitFor()
  const focused = (what: 'id' | 'textContent') => page.evaluate<string>(`document.activeElement?.${what} ?? ""`)
  const tabTo = async (what: 'id' | 'textContent', value: string) => {
    for (let i = 0; i < 60 && await focused(what) !== value; i++) await page.keyboard.press('Tab')
    t.equal(await focused(what), value, `Tab reaches ${value}`)
  }
  await tabTo('textContent', 'New')
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { level: 1, name: 'New Course' }).waitFor()
  await tabTo('id', 'root_course_code')
  await page.keyboard.type('KEY 300')
  await tabTo('id', 'root_title')
  await page.keyboard.type('Typing alone')
  await tabTo('id', 'root_credits')
  await page.keyboard.type('2')
  await tabTo('textContent', 'Save')
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { level: 1, name: 'Edit Course' }).waitFor()
  t.match((await d.admin({ method: 'GET', url: `/api/courses/${path(idIn(page))}` })).json(), { course_code: 'KEY 300', title: 'Typing alone', credits: 2 })
})

t.test('a reference picked with the keyboard alone', async (t) => {
  const target = (await courseByCode('CS 201'))!
  const page = await signedIn(t, 'admin', '/admin/records/Section/new')
  const picker = page.getByRole('combobox', { name: 'Course' })
  await picker.focus()
  await page.keyboard.type('CS 201')
  await page.getByRole('option', { name: /CS 201/ }).waitFor()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  await page.getByText(`Chosen: ${target._id}`).waitFor()
  t.equal(await page.getByRole('heading', { level: 1, name: 'New Section' }).count(), 1, 'Enter picked the course without submitting')
})

t.test('a non-admin opening a records page sees the server\'s refusal and no records', async (t) => {
  const page = await signedIn(t, 'una', '/admin/records/Course')
  await page.getByRole('heading', { level: 1, name: 'Course records' }).waitFor()
  const alert = page.getByRole('alert')
  await alert.waitFor()
  const refusal = await d.callers.una({ method: 'GET', url: '/api/users?limit=1' })
  t.equal(refusal.statusCode, 403)
  t.equal(await alert.innerText(), refusal.json().error, 'the server\'s message')
  t.equal(await page.getByRole('table').count(), 0, 'no records shown')
  t.equal(await page.getByRole('link', { name: 'New', exact: true }).count(), 0, 'no New')
})

t.test('the list searches, sorts and pages through the class\'s route', async (t) => {
  const page = await signedIn(t, 'admin', '/admin/records/Course')
  const rows = page.getByRole('table', { name: 'Course records' }).locator('tbody tr')
  await rows.first().waitFor()
  await page.getByRole('searchbox', { name: 'Search' }).fill('CS 20')
  await page.getByRole('button', { name: 'Search' }).click()
  await page.waitForURL(/search=CS/)
  const api = (await d.admin({ method: 'GET', url: '/api/courses?search=CS%2020&limit=25' })).json()
  await page.getByRole('status').filter({ hasText: `of ${api.total}` }).waitFor()
  t.same(await rows.locator('td:first-child').allInnerTexts(), api.items.map((c: { course_code: string; title: string }) => `${c.course_code} ${c.title}`), 'the rows the API answers, in its order')
  await page.getByRole('button', { name: 'Course code' }).click()
  await page.getByRole('button', { name: 'Course code' }).click()
  await page.waitForURL(/sort=-course_code/)
  const sorted = (await d.admin({ method: 'GET', url: '/api/courses?search=CS%2020&sort=-course_code&limit=25' })).json()
  await page.getByRole('columnheader', { name: /Course code/ }).and(page.locator('[aria-sort="descending"]')).waitFor()
  await rows.first().filter({ hasText: sorted.items[0].course_code }).waitFor()
  t.same(await rows.locator('td:first-child').allInnerTexts(), sorted.items.map((c: { course_code: string; title: string }) => `${c.course_code} ${c.title}`), 'sorted by the server, descending')
})

t.test('one h1 and no serious or critical axe violation on the index, a list, the new and the edit form', async (t) => {
  const course = (await courseByCode('CS 102'))!
  const page = await signedIn(t, 'admin')
  const visits: [string, string, string][] = [
    ['/admin/records', 'Records', 'table'],
    ['/admin/records/Course', 'Course records', 'table'],
    ['/admin/records/Course/new', 'New Course', 'form'],
    [`/admin/records/Course/${path(course._id)}`, 'Edit Course', 'form'],
    ['/admin/records/Section/new', 'New Section', 'form'],
    ['/admin/records/Person', 'Person records', 'table'],
  ]
  for (const [url, heading, content] of visits) {
    await page.goto(`${d.base}${url}`)
    await page.getByRole('heading', { level: 1, name: heading }).waitFor()
    await page.locator(`main ${content}`).first().waitFor()
    t.equal(await page.locator('h1').count(), 1, `${url}: one h1`)
    t.same(await axeViolations(page), [], `${url}: no serious or critical violation`)
  }
  await page.goto(`${d.base}/admin/records/Course/new`)
  await page.getByRole('button', { name: 'Add Item' }).click()
  const item = page.getByRole('combobox', { name: 'Prerequisites' })
  await item.waitFor()
  t.same(await axeViolations(page), [], 'a list of references with an item: no serious or critical violation')
})

t.test('the first load of /dashboard fetches no script of the records forms; a form page does', async (t) => {
  const page = await signedIn(t, 'admin')
  const scripts = (url: string) => new Promise<string[]>((resolve) => {
    const bodies: Promise<string>[] = []
    const seen = (response: import('playwright-core').Response) => {
      if (response.request().resourceType() === 'script') bodies.push(response.text())
    }
    page.on('response', seen)
    void page.goto(`${d.base}${url}`).then(async () => {
      await page.locator('main h1').waitFor()
      await page.waitForLoadState('networkidle')
      page.off('response', seen)
      resolve(await Promise.all(bodies))
    })
  })
  // rjsf's Form gives its <form> the class "rjsf": a script holding the Form holds that name.
  const marker = /["']rjsf["']/
  await page.goto('about:blank')
  const dashboard = await scripts('/dashboard')
  t.ok(dashboard.length > 0, `${dashboard.length} scripts on /dashboard`)
  t.notOk(dashboard.some((s) => marker.test(s)), 'none holds rjsf')
  await page.goto('about:blank')
  const form = await scripts('/admin/records/Course/new')
  t.ok(form.some((s) => marker.test(s)), 'the form page loads it')
})
