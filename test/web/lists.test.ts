import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { axeViolations, launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

/**
 * The catalog lists people use (docs/web.md, "Lists"): people by kind, courses by subject and level,
 * publications by year and author; columns sorted through the API with `aria-sort`; the filters and
 * the sort in the address, so a reload or a shared link shows the same view.
 */
const browser = await launchBrowser(t)
const d = await webDepartment(t)
const signedIn = signInAs(browser, d)

async function created(url: string, payload: object): Promise<string> {
  const res = await d.admin({ method: 'POST', url, payload })
  if (res.statusCode !== 201) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.body}`)
  return (res.json()._id ?? res.json().id) as string
}
for (const [code, credits] of [['CS 250', 4], ['MATH 210', 3], ['MATH 301', 4], ['CS 299', 1]] as const) {
  await created('/api/courses', { course_code: code, title: `Course ${code}`, credits })
}
for (const [title, year, authors, citations] of [
  ['Planar graphs', 2024, [d.ids.fay], 12], ['Graph colouring', 2024, [d.ids.fay, d.ids.gus], 3], ['Old graphs', 2023, [d.ids.fay], 40],
  ['Compilers', 2024, [d.ids.gus], 7], ['Sparse graphs', 2024, [d.ids.fay], 25],
] as const) {
  await created('/api/publications', { title, authors: ['A. Author'], dept_authors: authors, venue: 'J. Graphs', year, citation_count: citations })
}

/** The API's answer, failing the test on anything but a 200. */
async function read(t: Test, url: string) {
  const res = await d.callers.fay({ method: 'GET', url })
  t.equal(res.statusCode, 200, `GET ${url}`)
  return res.json() as { items: Record<string, unknown>[]; total: number }
}

/** Waits until the list's rows are shown: no "Loading…" left. */
async function settled(page: Page) {
  await page.getByRole('table').or(page.getByText('Nothing found.')).or(page.getByRole('alert')).first().waitFor()
  await page.getByRole('status').filter({ hasText: 'Loading' }).first().waitFor({ state: 'detached' })
}

const firstCells = (page: Page) => page.locator('tbody tr td:first-child').allInnerTexts()

/** Each column header's `aria-sort`, by the column's name: only sorted columns carry one. */
async function sortStates(page: Page): Promise<Record<string, string>> {
  const states: Record<string, string> = {}
  for (const header of await page.getByRole('columnheader').all()) {
    const state = await header.getAttribute('aria-sort')
    if (state) states[(await header.innerText()).replace(/[▲▼↕]/g, '').trim()] = state
  }
  return states
}

/** Sorts by a column with its header's button, and waits for the list to be read again. */
async function sortBy(page: Page, column: string, state: 'ascending' | 'descending') {
  await page.getByRole('columnheader', { name: column }).getByRole('button').click()
  await page.locator(`th[aria-sort="${state}"]`).filter({ hasText: column }).waitFor()
  await settled(page)
}

async function wellFormed(t: Test, page: Page, what: string) {
  t.same(await axeViolations(page), [], `${what}: axe-core finds nothing serious or critical at 1280 px`)
  await page.setViewportSize({ width: 375, height: 800 })
  t.ok(await page.evaluate<number>('document.documentElement.scrollWidth') <= 375, `${what}: no sideways scrolling at 375 px`)
  t.same(await axeViolations(page), [], `${what}: nor at 375 px`)
  await page.setViewportSize({ width: 1280, height: 800 })
}

t.test('people by kind, sorted by email: the API\'s rows, aria-sort on the column, and the same view after a reload', async (t) => {
  const page = await signedIn(t, 'fay', '/people')
  await page.getByRole('heading', { level: 1, name: 'People' }).waitFor()
  await settled(page)
  t.same(await sortStates(page), { Name: 'ascending' }, 'the API\'s own order, by name, is said on its column')

  await page.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Faculty' })
  await page.getByRole('button', { name: 'Search' }).click()
  await page.waitForURL(/kind=Faculty/)
  await settled(page)
  await sortBy(page, 'Email', 'ascending')
  await sortBy(page, 'Email', 'descending')
  const url = new URL(page.url())
  t.equal(url.searchParams.get('kind'), 'Faculty', 'the filter is in the address')
  t.equal(url.searchParams.get('sort'), '-email', 'and the sort')
  t.same(await sortStates(page), { Email: 'descending' }, 'aria-sort on Email alone')

  const api = await read(t, '/api/people?type=Faculty&sort=-email&limit=25')
  t.ok(api.total >= 5, 'the API lists the faculty')
  const names = api.items.map((p) => `${p.first_name} ${p.last_name}`)
  t.same(await firstCells(page), names, 'the API\'s faculty, in its order')
  t.same(await page.locator('tbody tr td:nth-child(2)').allInnerTexts(), names.map(() => 'Faculty'), 'all of the kind chosen')
  t.equal(await page.locator('caption').innerText(), `${api.total} records (Kind: Faculty)`)

  await page.reload()
  await settled(page)
  t.same(await firstCells(page), names, 'a reload shows the same rows')
  t.same(await sortStates(page), { Email: 'descending' }, 'sorted the same way')
  t.equal(await page.getByRole('combobox', { name: 'Kind' }).inputValue(), 'Faculty', 'with the filter in its field')
  await wellFormed(t, page, 'people by kind')

  const shared = await signedIn(t, 'gus', `${url.pathname}${url.search}`)
  await settled(shared)
  t.same(await firstCells(shared), names, 'the link, opened by someone else, shows the same view')
})

t.test('courses by subject and level, sorted by credits; the level applied to every course of the subject', async (t) => {
  const page = await signedIn(t, 'una', '/courses')
  await page.getByRole('heading', { level: 1, name: 'Courses' }).waitFor()
  await settled(page)
  t.same(await sortStates(page), { Code: 'ascending' })
  await page.getByRole('textbox', { name: 'Subject' }).fill('cs')
  await page.getByRole('combobox', { name: 'Level' }).selectOption({ label: '200-level' })
  await page.getByRole('button', { name: 'Search' }).click()
  await page.waitForURL(/level=200/)
  await settled(page)
  await sortBy(page, 'Credits', 'ascending')
  await sortBy(page, 'Credits', 'descending')
  const url = new URL(page.url())
  t.same([url.searchParams.get('subject'), url.searchParams.get('level'), url.searchParams.get('sort')], ['cs', '200', '-credits'], 'filters and sort in the address')

  // The API filters by subject; the level is the course number's hundreds (docs/web.md).
  const api = await read(t, '/api/courses?department=cs&sort=-credits&limit=200')
  const codes = api.items.map((c) => String(c.course_code)).filter((code) => /^CS ?2\d\d$/.test(code))
  t.same([codes[0], codes.at(-1), codes.length], ['CS 250', 'CS 299', 4], 'the API has the 4-credit course first and the 1-credit one last')
  t.same(await firstCells(page), codes, 'the API\'s CS courses numbered 200 to 299, in its order')
  t.equal(await page.locator('caption').innerText(), `${codes.length} records (Subject: cs, Level: 200-level)`, 'counted after the level')
  t.same(await sortStates(page), { Credits: 'descending' })

  await page.reload()
  await settled(page)
  t.same(await firstCells(page), codes, 'a reload shows the same rows')
  t.same(await sortStates(page), { Credits: 'descending' })
  t.equal(await page.getByRole('textbox', { name: 'Subject' }).inputValue(), 'cs')
  t.equal(await page.getByRole('combobox', { name: 'Level' }).inputValue(), '200')
  await wellFormed(t, page, 'courses by subject and level')

  await page.getByRole('link', { name: 'Clear' }).click()
  await page.waitForURL((u) => u.search === '')
  await settled(page)
  t.equal(await page.getByRole('combobox', { name: 'Level' }).inputValue(), '', '"Clear" empties the filters')
})

t.test('publications by year and author, sorted by citations; the newest year first by default', async (t) => {
  const page = await signedIn(t, 'fay', '/publications')
  await page.getByRole('heading', { level: 1, name: 'Publications' }).waitFor()
  await settled(page)
  t.same(await sortStates(page), { Year: 'descending' }, 'the API lists the newest year first, and the column says so')
  await page.getByRole('textbox', { name: 'Year' }).fill('2024')
  await page.getByRole('combobox', { name: 'Author' }).selectOption({ label: 'fay Faculty' })
  await page.getByRole('button', { name: 'Search' }).click()
  await page.waitForURL(/author=/)
  await settled(page)
  await sortBy(page, 'Citations', 'ascending')
  const url = new URL(page.url())
  t.same([url.searchParams.get('year'), url.searchParams.get('author'), url.searchParams.get('sort')], ['2024', d.ids.fay, 'citations'])

  const api = await read(t, `/api/publications?year=2024&author=${encodeURIComponent(d.ids.fay)}&sort=citation_count&limit=25`)
  const titles = api.items.map((p) => String(p.title))
  t.same(titles, ['Graph colouring', 'Planar graphs', 'Sparse graphs'], 'fay\'s three of 2024, fewest citations first')
  t.same(await firstCells(page), titles, 'the API\'s, in its order')
  t.same(await sortStates(page), { Citations: 'ascending' })
  t.equal(await page.locator('caption').innerText(), '3 records (Year: 2024, Author: fay Faculty)')

  await page.reload()
  await settled(page)
  t.same(await firstCells(page), titles, 'a reload shows the same rows')
  t.same(await sortStates(page), { Citations: 'ascending' })
  t.equal(await page.getByRole('combobox', { name: 'Author' }).inputValue(), d.ids.fay)
  await wellFormed(t, page, 'publications by year and author')

  await page.getByRole('textbox', { name: 'Year' }).fill('last year')
  await page.getByRole('button', { name: 'Search' }).click()
  const alert = page.getByRole('alert')
  await alert.waitFor()
  const refusal = await d.callers.fay({ method: 'GET', url: '/api/publications?year=last%20year' })
  t.equal(refusal.statusCode, 400)
  t.equal(await alert.innerText(), refusal.json().error, 'a year the API refuses shows its message')
})
