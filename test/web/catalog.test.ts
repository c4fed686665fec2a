import t, { type Test } from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { domains } from '../../web/src/lib/domains.js'
import { instanceOf, path, pendingIn, startOne } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

const browser = await launchBrowser(t)
const d = await webDepartment(t)

async function created(url: string, payload: object): Promise<string> {
  const res = await d.admin({ method: 'POST', url, payload })
  if (res.statusCode !== 201) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.body}`)
  return (res.json()._id ?? res.json().id) as string
}

/** The API's answer to `caller`, failing the test on anything but a 200. */
async function read(t: Test, caller: (typeof d.callers)[keyof typeof d.callers], url: string) {
  const res = await caller({ method: 'GET', url })
  t.equal(res.statusCode, 200, `GET ${url}`)
  return res.json()
}

const courses = (await d.admin({ method: 'GET', url: `/api/courses?search=${encodeURIComponent('CS 101')}` })).json().items as { _id: string; course_code: string }[]
const cs101 = courses.find((c) => c.course_code === 'CS 101')!._id
for (const [number, term] of [['001', '25F'], ['002', '26S']]) {
  await created('/api/sections', { course: cs101, term, section_number: number, schedule: 'MWF 10:00', location: `Hall ${number}` })
}
await created('/api/labs', { name: 'Graph Theory Lab', pi: d.ids.fay, description: 'Graphs and networks', location: 'Room 5' })
await created('/api/labs', { name: 'Systems Lab', pi: d.ids.cal })
await created('/api/publications', { title: 'On Planar Graphs', authors: ['F. Faculty'], dept_authors: [d.ids.fay], venue: 'J. Graphs', year: 2024 })

const signedIn = signInAs(browser, d)

type Page = Awaited<ReturnType<typeof signedIn>>

/** Waits until the page's data is shown (or refused): no "Loading…" status left. */
async function settled(page: Page) {
  await page.getByRole('status').filter({ hasText: 'Loading' }).first().waitFor({ state: 'detached' })
}

/** The first cell of each body row of the page's table. */
async function firstCells(page: Page): Promise<string[]> {
  return page.locator('tbody tr td:first-child').allInnerTexts()
}

t.test('each catalog list shows the records the API lists to the caller, with the API\'s count', async (t) => {
  const page = await signedIn(t, 'fay')
  const lists: [string, string, string, (item: Record<string, unknown>) => string][] = [
    ['People', '/people', '/api/people', (p) => `${p.first_name} ${p.last_name}`],
    ['Courses', '/courses', '/api/courses', (c) => String(c.course_code)],
    ['Labs', '/labs', '/api/labs', (l) => String(l.name)],
    ['Publications', '/publications', '/api/publications', (p) => String(p.title)],
  ]
  for (const [title, url, apiUrl, name] of lists) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title }).click()
    await page.getByRole('heading', { level: 1, name: title }).waitFor()
    await settled(page)
    t.equal(page.url(), `${d.base}${url}`, `${title}: reached from the navigation`)
    const answer = await read(t, d.callers.fay, `${apiUrl}?limit=25`)
    t.ok(answer.total > 0, `${title}: the API lists some`)
    t.same(await firstCells(page), (answer.items as Record<string, unknown>[]).map(name), `${title}: the API's records, in its order`)
    t.equal(await page.locator('caption').innerText(), answer.total === 1 ? '1 record' : `${answer.total} records`, `${title}: the API's total`)
  }
  const people = (await read(t, d.callers.fay, '/api/people?limit=25')).items as { type: string }[]
  t.notOk(people.some((p) => /Student/.test(p.type)), 'the people the API shows a faculty member hold no student, so neither does the page')
})

t.test('a list\'s search asks the API and shows its matches', async (t) => {
  const page = await signedIn(t, 'fay', '/courses')
  await page.getByRole('heading', { level: 1, name: 'Courses' }).waitFor()
  await page.getByRole('searchbox', { name: 'Search courses' }).fill('CS 20')
  await page.getByRole('button', { name: 'Search' }).click()
  await page.locator('caption').filter({ hasText: 'matching' }).waitFor()
  const answer = await read(t, d.callers.fay, `/api/courses?search=${encodeURIComponent('CS 20')}&limit=25`)
  t.same(await firstCells(page), (answer.items as { course_code: string }[]).map((c) => c.course_code))
  t.same(await firstCells(page), ['CS 201', 'CS 202'], 'the two matching courses')
})

t.test('search finds a person and a course, and each result opens its page', async (t) => {
  const page = await signedIn(t, 'fay', '/search')
  await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor()
  await page.getByRole('searchbox', { name: 'Search people, courses and labs' }).fill('gus')
  await page.keyboard.press('Enter')
  const gus = page.getByRole('link', { name: 'gus Faculty' })
  await gus.waitFor()
  t.match(page.url(), /\/search\?q=gus$/, 'the query is in the address')
  const answer = await read(t, d.callers.fay, '/api/search/all?q=gus')
  t.equal(await page.locator('.results li').count(), answer.results.length, 'as many results as the API gives')
  await gus.click()
  await page.getByRole('heading', { level: 1, name: 'gus Faculty' }).waitFor()
  t.equal(new URL(page.url()).pathname, `/people/${path(d.ids.gus)}`, 'the person\'s page, the id URL-encoded')
  t.match(await page.locator('main').innerText(), 'gus@dept.edu', 'with the record the API shows')

  await page.goto(`${d.base}/search?q=${encodeURIComponent('CS 102')}`)
  const course = (await read(t, d.callers.fay, `/api/search/all?q=${encodeURIComponent('CS 102')}`)).results[0]
  t.equal(course.kind, 'course', 'the API ranks the course first')
  await page.getByRole('link', { name: course.label, exact: true }).click()
  await page.getByRole('heading', { level: 1, name: 'CS 102: Course CS 102' }).waitFor()
})

t.test('a search the API refuses shows its message', async (t) => {
  const page = await signedIn(t, 'fay', '/search?q=x')
  const alert = page.getByRole('alert')
  await alert.waitFor()
  const refusal = await d.callers.fay({ method: 'GET', url: '/api/search/all?q=x' })
  t.equal(refusal.statusCode, 400)
  t.equal(await alert.innerText(), refusal.json().error)
})

t.test('a course page lists the sections the API gives for it', async (t) => {
  const page = await signedIn(t, 'una', `/courses/${path(cs101)}`)
  await page.getByRole('heading', { level: 1, name: 'CS 101: Course CS 101' }).waitFor()
  await settled(page)
  const sections = await read(t, d.callers.una, `/api/courses/${path(cs101)}/sections`)
  t.equal(sections.total, 2)
  t.same(await firstCells(page), (sections.items as { term: string }[]).map((s) => s.term), 'each section, by term')
  t.match(await page.getByRole('table', { name: '2 sections' }).locator('tbody').innerText(), /Hall 001[\s\S]*Hall 002/)
})

t.test('a faculty member edits their own profile, and the API answers the new values', async (t) => {
  const page = await signedIn(t, 'fay')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click()
  await page.getByRole('heading', { level: 1, name: 'Your profile' }).waitFor()
  await page.getByRole('textbox', { name: 'Office' }).fill('Room 12')
  await page.getByRole('textbox', { name: /Research interests/ }).fill('graphs\nnetworks')
  await page.getByRole('button', { name: 'Save' }).click()
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
  const fay = await read(t, d.callers.fay, `/api/people/${path(d.ids.fay)}`)
  t.equal(fay.office, 'Room 12')
  t.same(fay.research_interests, ['graphs', 'networks'])

  await page.getByRole('textbox', { name: 'Website' }).fill('not an address')
  await page.getByRole('button', { name: 'Save' }).click()
  const alert = page.getByRole('alert')
  await alert.waitFor()
  t.match(await alert.innerText(), /website/, 'the server\'s 400 names the field')
  t.equal((await read(t, d.callers.fay, `/api/people/${path(d.ids.fay)}`)).website, undefined, 'and nothing was saved')
})

t.test('a graduate student edits his own profile, and the API answers the new values', async (t) => {
  const page = await signedIn(t, 'gabe')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click()
  await page.getByRole('heading', { level: 1, name: 'Your profile' }).waitFor()
  await page.getByText('Gabe Grad, gabe@dept.edu').waitFor()
  t.equal(await page.getByRole('textbox', { name: /Research interests/ }).count(), 0, 'no faculty fields')
  await page.getByRole('textbox', { name: 'Phone' }).fill('555-0102')
  await page.getByRole('textbox', { name: 'Biography' }).fill('Trees, mostly.')
  await page.getByRole('button', { name: 'Save' }).click()
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
  const gabe = await read(t, d.callers.gabe, `/api/people/${path(d.ids.gabe)}`)
  t.equal(gabe.phone, '555-0102')
  t.equal(gabe.bio, 'Trees, mostly.')
})

t.test('an undergraduate edits their own phone number from /profile', async (t) => {
  const refusal = await d.callers.una({ method: 'GET', url: `/api/people/${path(d.ids.una)}` })
  t.equal(refusal.statusCode, 404, 'the API shows an undergraduate\'s record by id to admins only')
  await d.admin({ method: 'PUT', url: `/api/people/${path(d.ids.una)}`, payload: { office: 'Dorm 3', phone: '555-0100' } })
  const own = await read(t, d.callers.una, '/api/auth/me/person')
  const page = await signedIn(t, 'una', '/profile')
  await page.getByRole('heading', { level: 1, name: 'Your profile' }).waitFor()
  const phone = page.getByRole('textbox', { name: 'Phone' })
  await phone.waitFor()
  t.equal(await phone.inputValue(), own.phone, 'her current phone number, as the self route answers it')
  t.equal(await page.getByRole('textbox', { name: 'Office' }).inputValue(), own.office, 'and her other current values')
  t.equal(await page.getByRole('alert').count(), 0, 'no refusal')
  await phone.fill('555-0101')
  await page.getByRole('button', { name: 'Save' }).click()
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
  const una = await read(t, d.admin, `/api/people/${path(d.ids.una)}`)
  t.equal(una.phone, '555-0101')
  t.equal(una.office, 'Dorm 3', 'the fields left as they were keep their values')
  t.equal((await read(t, d.callers.una, '/api/auth/me/person')).phone, '555-0101', 'and she reads it back herself')
  await page.reload()
  await page.getByRole('heading', { level: 1, name: 'Your profile' }).waitFor()
  await page.getByRole('textbox', { name: 'Phone' }).waitFor()
  t.equal(await page.getByRole('textbox', { name: 'Phone' }).inputValue(), '555-0101', 'the page shows the saved value on a fresh load')
})

t.test('a caller linked to no Person is told they have no profile', async (t) => {
  t.equal((await read(t, d.admin, '/api/auth/me')).personId, null, 'the API links the admin to no Person')
  const page = await signedIn(t, 'admin', '/profile')
  await page.getByRole('heading', { level: 1, name: 'Your profile' }).waitFor()
  await page.getByText('You have no profile: no department record is linked to your account.').waitFor()
  t.equal(await page.getByRole('form').count(), 0, 'no form')
})

t.test('the inbox names each request\'s submitter as the API does, or its id when the API has no name', async (t) => {
  await startOne(t, d, 'honors_thesis', 4)
  await startOne(t, d, 'graduate_milestones', 1)
  // A second admin, linked to no Person, submits for Una; Ada stays to decide the department stage.
  const abe = d.as('abe@dept.edu', 'admin')
  const drafted = await abe({ method: 'POST', url: '/api/thesis/requests', payload: { student: d.ids.una, advisor: d.ids.fay, title: 'Thesis 5', abstract: 'On trees', term: '25F' } })
  t.equal(drafted.statusCode, 201, 'an admin drafts a thesis for Una')
  const submitted = await abe({ method: 'POST', url: `/api/thesis/requests/${path(drafted.json()._id)}/submit` })
  t.equal(submitted.statusCode, 200, `and submits it (${submitted.body.slice(0, 200)})`)
  const expected = new Map<string, string>()
  for (const domain of domains) {
    const queue = (await read(t, d.callers.fay, `${domain.pending}?limit=200`)).items as { id: string; submitter: string; submitter_name: string | null }[]
    for (const item of queue) expected.set(`/approvals/${domain.key}/${path(item.id)}`, item.submitter_name ?? item.submitter)
  }
  const page = await signedIn(t, 'fay', '/approvals')
  await page.getByRole('link', { name: 'Thesis 5' }).waitFor()
  const rows = page.locator('tbody tr')
  t.equal(await rows.count(), expected.size, 'a row per pending item')
  const shown = new Map<string, string>()
  for (const row of await rows.all()) shown.set((await row.getByRole('link').getAttribute('href'))!, await row.locator('td').nth(2).innerText())
  t.same(Object.fromEntries(shown), Object.fromEntries(expected), 'each row\'s submitter is the API\'s')
  const values = [...expected.values()]
  t.ok(values.includes('Una Under') && values.includes('Gabe Grad'), 'submitters named by the API')
  t.ok(values.includes(userIdForEmail('abe@dept.edu')), 'and the admin, linked to no Person, by their user id')
  t.equal(await page.getByRole('columnheader', { name: 'Submitter' }).count(), 1)
})

/**
 * The advisees the page lists are the API's, in its order, each linking to their progress with a bar
 * carrying the API's overall progress, or the server's reason for giving none.
 */
async function adviseesMatch(t: Test, page: Page, caller: (typeof d.callers)[keyof typeof d.callers], query: string) {
  const answer = await read(t, caller, `/api/advisees?limit=25${query}`)
  const students = answer.items as { _id: string; first_name: string; last_name: string }[]
  const names = students.map((s) => `${s.first_name} ${s.last_name}`)
  t.same(await page.locator('li.advisee > a').allInnerTexts(), names, 'the API\'s advisees, in its order')
  let bars = 0
  for (const [i, student] of students.entries()) {
    const name = names[i]!
    const item = page.locator('li.advisee').filter({ has: page.getByRole('link', { name, exact: true }) })
    t.equal(await item.getByRole('link', { name, exact: true }).getAttribute('href'), `/students/${path(student._id)}/progress`, `${name}: links to their progress`)
    const progress = await caller({ method: 'GET', url: `/api/students/${path(student._id)}/degree-progress` })
    if (progress.statusCode === 200) {
      bars++
      const bar = item.getByRole('progressbar', { name: `${name} overall progress` })
      t.equal(Number(await bar.getAttribute('aria-valuenow')), progress.json().overall_progress, `${name}: the API's value`)
    } else {
      t.equal(await item.getByRole('alert').innerText(), progress.json().error, `${name}: the server's reason, no bar`)
      t.equal(await item.getByRole('progressbar').count(), 0)
    }
  }
  t.equal(await page.getByRole('progressbar').count(), bars, 'no other bar')
  return { names, bars }
}

t.test('advisees: an advisor sees the API\'s advisees, each bar the overall progress the API gives', async (t) => {
  const page = await signedIn(t, 'fay')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Advisees' }).click()
  await page.getByRole('heading', { level: 1, name: 'Advisees' }).waitFor()
  await settled(page)
  t.equal(await page.getByRole('combobox', { name: 'Advisor' }).count(), 0, 'no advisor to choose but oneself')
  const { names, bars } = await adviseesMatch(t, page, d.callers.fay, '')
  t.same(names, ['Gabe Grad', 'Una Under'], 'Fay advises Gabe and Una, and no one else')
  t.equal(bars, 1, 'Una, the one with a degree to audit, has a bar; Gabe has the server\'s reason')
})

t.test('advisees: an admin, who advises no one, is told so, and sees Fay\'s advisees on choosing her', async (t) => {
  const page = await signedIn(t, 'admin', '/advisees')
  await page.getByRole('heading', { level: 1, name: 'Advisees' }).waitFor()
  await settled(page)
  t.equal((await read(t, d.admin, '/api/advisees')).total, 0, 'the API gives the admin no advisees of their own')
  await page.getByText('You advise no one: no department record is linked to your account.').waitFor()
  const options = (await read(t, d.admin, '/api/people/faculty-options')).items as { _id: string; label: string }[]
  const picker = page.getByRole('combobox', { name: 'Advisor' })
  await picker.locator('option').nth(options.length).waitFor({ state: 'attached' })
  t.same((await picker.locator('option').allInnerTexts()).slice(1), options.map((o) => o.label), 'the API\'s faculty to choose from')
  await picker.selectOption({ label: options.find((o) => o._id === d.ids.fay)!.label })
  await page.locator('li.advisee').first().waitFor()
  await settled(page)
  t.equal(new URL(page.url()).searchParams.get('advisor'), d.ids.fay, 'the advisor is in the address')
  const { names } = await adviseesMatch(t, page, d.admin, `&advisor=${path(d.ids.fay)}`)
  const fays = (await read(t, d.callers.fay, '/api/advisees?limit=25')).items as { first_name: string; last_name: string }[]
  t.same(names, fays.map((s) => `${s.first_name} ${s.last_name}`), 'the advisees Fay herself sees')
})

t.test('the advisees link is offered to faculty and admins only', async (t) => {
  const page = await signedIn(t, 'una')
  t.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Advisees' }).count(), 0)
})

t.test('a delegate chosen with the person picker becomes the API\'s delegate', async (t) => {
  const thesis = await startOne(t, d, 'honors_thesis', 3)
  const page = await signedIn(t, 'fay', `/approvals/thesis/${path(thesis.id)}`)
  await page.getByRole('heading', { level: 1, name: 'Thesis 3' }).waitFor()
  await page.getByRole('searchbox', { name: 'Find a delegate' }).fill('cal')
  await page.getByRole('group', { name: 'Delegate to' }).getByRole('radio', { name: /^cal Faculty/ }).check()
  await page.getByRole('textbox', { name: 'Comment' }).fill('Cal knows this area')
  await page.getByRole('button', { name: 'Delegate' }).click()
  await page.getByRole('status').filter({ hasText: 'Delegated.' }).waitFor()
  const instance = await instanceOf(d, thesis.instance)
  t.same(pendingIn(instance), [d.ids.cal], 'Cal now decides the stage')
  t.ok(instance.history.some((h) => h.action === 'delegate'), 'the delegation is in the history')
})

t.test('the picker also delegates in a domain decided through its /decision route', async (t) => {
  const research = await startOne(t, d, 'independent_research', 1)
  const page = await signedIn(t, 'fay', `/approvals/independent-research/${path(research.id)}`)
  await page.getByRole('heading', { level: 1, name: 'Research 1' }).waitFor()
  await page.getByRole('searchbox', { name: 'Find a delegate' }).fill('cora')
  await page.keyboard.press('Enter')
  await page.getByRole('radio', { name: /^cora Faculty/ }).check()
  await page.getByRole('button', { name: 'Delegate' }).click()
  await page.getByRole('status').filter({ hasText: 'Delegated.' }).waitFor()
  t.same(pendingIn(await instanceOf(d, research.instance)), [d.ids.cora], 'Cora now decides the stage; Enter in the search did not approve')
})

t.test('a person page the caller may not see shows the server\'s refusal and nothing of the record', async (t) => {
  const page = await signedIn(t, 'fay', `/people/${path(d.ids.una)}`)
  const alert = page.getByRole('alert')
  await alert.waitFor()
  const refusal = await d.callers.fay({ method: 'GET', url: `/api/people/${path(d.ids.una)}` })
  t.ok(refusal.statusCode >= 400, `the API refuses (${refusal.statusCode})`)
  t.equal(await alert.innerText(), refusal.json().error, 'the server\'s message')
  t.notMatch(await page.locator('main').innerText(), /Una|una@/, 'nothing of the record')
})

t.test('axe-core finds no serious or critical violation on the catalog pages, each with one <h1>', async (t) => {
  const fay = await signedIn(t, 'fay')
  const admin = await signedIn(t, 'admin')
  const una = await signedIn(t, 'una')
  const gabe = await signedIn(t, 'gabe')
  const pages: [string, Page, string, string][] = [
    ['people', fay, '/people', 'People'],
    ['person', fay, `/people/${path(d.ids.fay)}`, 'fay Faculty'],
    ['refused person', fay, `/people/${path(d.ids.una)}`, 'Person'],
    ['courses', fay, '/courses', 'Courses'],
    ['course', fay, `/courses/${path(cs101)}`, 'CS 101: Course CS 101'],
    ['labs', fay, '/labs', 'Labs'],
    ['publications', fay, '/publications', 'Publications'],
    ['search', fay, '/search?q=graph', 'Search'],
    ['profile', fay, '/profile', 'Your profile'],
    ['graduate student\'s profile', gabe, '/profile', 'Your profile'],
    ['undergraduate\'s profile', una, '/profile', 'Your profile'],
    ['advisees', fay, '/advisees', 'Advisees'],
    ['advisees (admin)', admin, '/advisees', 'Advisees'],
    ['advisees (admin, Fay chosen)', admin, `/advisees?advisor=${path(d.ids.fay)}`, 'Advisees'],
  ]
  for (const [label, page, url, heading] of pages) {
    await page.goto(`${d.base}${url}`)
    await page.getByRole('heading', { level: 1, name: heading }).waitFor()
    await settled(page)
    t.equal(await page.getByRole('heading', { level: 1 }).count(), 1, `${label}: one <h1>`)
    t.same(await axeViolations(page), [], `${label}: no serious or critical violation`)
  }
})
