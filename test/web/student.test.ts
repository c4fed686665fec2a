import t from 'tap'
import type { Page } from 'playwright-core'
import { decide, path, startOne } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

const browser = await launchBrowser(t)
const d = await webDepartment(t)
const una = path(d.ids.una)

const signedIn = signInAs(browser, d)

async function courseId(code: string): Promise<string> {
  const res = await d.admin({ method: 'GET', url: `/api/courses?search=${encodeURIComponent(code)}&limit=10` })
  return (res.json().items as { _id: string; course_code: string }[]).find((c) => c.course_code === code)!._id
}

interface Plan { _id: string; plan_name: string; planned_courses: { course: string; term: string }[]; warnings: { course?: string; term: string; message: string }[]; review?: string }
async function plans(): Promise<Plan[]> {
  return (await d.callers.una({ method: 'GET', url: `/api/student-plans/${una}` })).json().items
}

async function loaded(page: Page) {
  await page.getByRole('status').filter({ hasText: /Loading/ }).first().waitFor({ state: 'detached' })
}

t.test('a student adds a course to a plan term by term; the API has it, and its warning is shown on the course', async (t) => {
  const cs102 = await courseId('CS 102')
  const page = await signedIn(t, 'una', `/students/${una}/plans`)
  await page.getByRole('heading', { level: 1, name: 'Study plans' }).waitFor()
  await page.getByRole('button', { name: 'Edit Four years' }).click()
  for (const term of ['26S', '26F']) {
    await page.getByRole('textbox', { name: 'Term, e.g. 27S' }).fill(term)
    await page.getByRole('button', { name: 'Add term' }).click()
    await page.getByRole('region', { name: `Term ${term}` }).waitFor()
    await page.getByRole('combobox', { name: 'Course', exact: true }).selectOption({ label: 'CS 102: Course CS 102' })
    await page.getByRole('combobox', { name: 'Term', exact: true }).selectOption(term)
    await page.getByRole('button', { name: 'Add course' }).click()
    await page.getByRole('status').filter({ hasText: `CS 102 added to ${term}. Saved` }).waitFor()
  }
  const plan = (await plans()).find((p) => p._id === d.plan)!
  t.same(plan.planned_courses.map((c) => [c.course, c.term]), [[cs102, '26S'], [cs102, '26F']], 'the API has the courses the student added')
  const warning = plan.warnings.find((w) => w.course === cs102)
  t.ok(warning, 'the API warns about the repeat')
  t.equal(warning!.term, '26F')
  await page.getByRole('status').filter({ hasText: 'Saved, with 1 warning.' }).waitFor()
  const second = page.getByRole('combobox', { name: 'Move CS 102 in 26F to' })
  const described = await second.getAttribute('aria-describedby')
  t.ok(described, 'the repeated course is described by its warning')
  t.equal(await page.locator(`[id="${described}"]`).innerText(), warning!.message, 'the API\'s message, on that course')
  t.match(await page.getByRole('region', { name: 'Term 26F' }).innerText(), warning!.message, 'in the course\'s own term')
  t.equal(await page.getByRole('combobox', { name: 'Move CS 102 in 26S to' }).getAttribute('aria-describedby'), null, 'and not on the first')
})

t.test('the plan edit from the keyboard alone', async (t) => {
  const cs201 = await courseId('CS 201')
  const page = await signedIn(t, 'una', `/students/${una}/plans`)
  await page.getByRole('heading', { level: 1, name: 'Study plans' }).waitFor()
  const focused = () => page.evaluate<string>(`(() => {
    const el = document.activeElement
    return (el && (el.getAttribute('aria-label') || (el.labels && el.labels[0] ? el.labels[0].textContent : '') || el.textContent)) || ''
  })()`)
  const tabTo = async (text: string, key = 'Tab') => {
    for (let i = 0; i < 80 && await focused() !== text; i++) await page.keyboard.press(key)
    t.equal(await focused(), text, `${key} reaches ${text}`)
  }
  await tabTo('Edit Four years')
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { level: 2, name: 'Edit Four years' }).waitFor()
  await tabTo('Term, e.g. 27S')
  await page.keyboard.type('27S')
  await page.keyboard.press('Enter')
  await page.getByRole('region', { name: 'Term 27S' }).waitFor()
  t.pass('Enter in the field adds the term')
  await tabTo('Course', 'Shift+Tab')
  const course = page.getByRole('combobox', { name: 'Course', exact: true })
  for (let i = 0; i < 10 && await course.inputValue() !== cs201; i++) await page.keyboard.press('ArrowDown')
  t.equal(await course.inputValue(), cs201, 'the course chosen with the arrow keys')
  await page.keyboard.press('Tab')
  t.equal(await page.getByRole('combobox', { name: 'Term', exact: true }).inputValue(), '27S', 'the term just added is offered')
  await tabTo('Add course')
  await page.keyboard.press('Enter')
  await page.getByRole('status').filter({ hasText: /^CS 201 added to 27S\. Saved/ }).waitFor()
  const plan = (await plans()).find((p) => p._id === d.plan)!
  t.same(plan.planned_courses.at(-1), { course: cs201, term: '27S', status: 'planned' }, 'saved, as the API shows')
})

t.test('what-if and projected progress bars carry the API\'s values', async (t) => {
  const post = async (url: string, payload: object) => (await d.admin({ method: 'POST', url, payload })).json()._id as string
  const other = await post('/api/degrees', { name: 'Mathematics', degree_type: 'BA' })
  const rule = await post('/api/requirement-rules', { name: 'Three courses', rule_type: 'all_of', courses: [await courseId('CS 101'), await courseId('CS 201'), await courseId('CS 202')] })
  await post('/api/requirement-groups', { name: 'Math core', degree: other, order: 1, rules: [rule] })
  const page = await signedIn(t, 'una', `/students/${una}/progress`)
  await page.getByRole('heading', { level: 1, name: 'Degree progress: Una Under' }).waitFor()

  await page.getByRole('combobox', { name: 'Degree' }).selectOption({ label: 'Mathematics (BA)' })
  await page.getByRole('button', { name: 'Audit against this degree' }).click()
  const whatIf = page.getByRole('progressbar', { name: 'What-if overall progress' })
  await whatIf.waitFor()
  const api = (await d.callers.una({ method: 'GET', url: `/api/students/${una}/degree-progress?degree=${path(other)}` })).json()
  t.equal(api.degree.name, 'Mathematics')
  t.ok(api.overall_progress > 0 && api.overall_progress < 1, 'a value strictly between 0 and 1')
  t.equal(Number(await whatIf.getAttribute('aria-valuenow')), api.overall_progress, 'what-if overall')
  t.equal(Number(await page.getByRole('progressbar', { name: 'What-if: Math core progress' }).getAttribute('aria-valuenow')), api.groups[0].progress, 'what-if group')

  await page.getByRole('combobox', { name: 'Plan' }).selectOption({ label: 'Four years' })
  await page.getByRole('button', { name: 'Project this plan' }).click()
  const projected = page.getByRole('progressbar', { name: 'Projected overall progress' })
  await projected.waitFor()
  const projection = (await d.callers.una({ method: 'GET', url: `/api/students/${una}/degree-progress?plan=${path(d.plan)}` })).json()
  t.not(projection.projected_progress, projection.overall_progress, 'the plan changes the progress, so the bar shows the projection')
  t.equal(Number(await projected.getAttribute('aria-valuenow')), projection.projected_progress, 'projected overall')
  t.equal(Number(await page.getByRole('progressbar', { name: `Projected: ${d.groupName} progress` }).getAttribute('aria-valuenow')), projection.projection.groups[0].progress, 'projected group')
})

t.test('the student submits the plan for review through the major-plan workflow', async (t) => {
  const page = await signedIn(t, 'una', `/students/${una}/plans`)
  await page.getByRole('button', { name: 'Submit Four years for review' }).click()
  await page.getByRole('status').filter({ hasText: 'submitted for review' }).waitFor()
  const plan = (await plans()).find((p) => p._id === d.plan)!
  t.ok(plan.review, 'the plan names its review')
  const review = (await d.callers.una({ method: 'GET', url: `/api/major-plan-approvals/${path(plan.review!)}` })).json()
  t.equal(review.status, 'submitted')
  t.equal(review.plan, d.plan)
  const row = page.getByRole('row').filter({ hasText: 'Four years' })
  await row.getByText(/submitted, at stage advisor/).waitFor()
  t.pass('the plan\'s row shows where its review stands')
})

t.test('the transcript shows the API\'s rows', async (t) => {
  const page = await signedIn(t, 'una', `/students/${una}/transcript`)
  await page.getByRole('heading', { level: 1, name: 'Transcript: Una Under' }).waitFor()
  const api = (await d.callers.una({ method: 'GET', url: `/api/students/${una}/transcript` })).json()
  const rows = api.terms.flatMap((term: { term: string; courses: { course_code: string; grade: string | null; credits: number }[] }) => term.courses.map((c) => ({ term: term.term, ...c })))
  t.ok(rows.length > 0, 'the API has rows')
  for (const row of rows) {
    const table = page.getByRole('table', { name: new RegExp(`^Term ${row.term}:`) })
    const shown = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: row.course_code }) })
    const cells = await shown.getByRole('cell').allInnerTexts()
    t.ok(cells.includes(row.grade ?? '—'), `${row.course_code}: grade ${row.grade}`)
    t.ok(cells.includes(String(row.credits)), `${row.course_code}: ${row.credits} credits`)
  }
  t.equal(await page.getByRole('rowheader').count(), rows.length, 'no more rows than the API gives')
})

t.test('a student answers a revision request: edits and resubmits, and the API shows the next round', async (t) => {
  const started = await startOne(t, d, 'honors_thesis', 5)
  const asked = await decide(d, 'honors_thesis', 'fay', started.id, 'request_revision', { comment: 'Shorten the abstract' })
  t.equal(asked.statusCode, 200)
  const page = await signedIn(t, 'una', '/requests')
  await page.getByRole('heading', { level: 1, name: 'My requests' }).waitFor()
  await page.getByRole('link', { name: 'Thesis 5' }).click()
  await page.getByRole('heading', { level: 2, name: 'Honors thesis: Thesis 5' }).waitFor()
  await page.getByText('“Shorten the abstract”').first().waitFor()
  t.pass('the approver\'s comment is shown on the route')
  const opened = page.getByRole('region', { name: 'Honors thesis: Thesis 5' })
  await opened.getByRole('textbox', { name: 'Abstract' }).fill('Graphs, briefly')
  await opened.getByRole('button', { name: 'Save and resubmit' }).click()
  await page.getByRole('status').filter({ hasText: 'Resubmitted.' }).waitFor()
  const thesis = (await d.callers.una({ method: 'GET', url: `/api/thesis/requests/${path(started.id)}` })).json()
  t.equal(thesis.abstract, 'Graphs, briefly', 'the edit is saved')
  t.equal(thesis.status, 'submitted')
  t.equal(thesis.instance.round, 2, 'a new round')
  await page.getByText(/Round 2, in review\. Next: fay Faculty/).waitFor()
  t.pass('the page shows the new round and who is next')
})

t.test('another student opening una\'s transcript and plans sees the server\'s refusal and nothing of hers', async (t) => {
  const page = await signedIn(t, 'otto')
  for (const [url, apiUrl] of [[`/students/${una}/transcript`, `/api/students/${una}/transcript`], [`/students/${una}/plans`, `/api/student-plans/${una}`]]) {
    await page.goto(`${d.base}${url}`)
    const alert = page.getByRole('alert')
    await alert.waitFor()
    const refusal = await d.callers.otto({ method: 'GET', url: apiUrl })
    t.equal(refusal.statusCode, 403)
    t.equal(await alert.innerText(), refusal.json().error, `${url}: the server's message`)
    const text = await page.locator('main').innerText()
    t.notMatch(text, /Una|Under|Four years|CS 1/, `${url}: nothing of the refused record`)
  }
})

t.test('axe-core finds no serious or critical violation on the students\' pages, each with one <h1>', async (t) => {
  const thesis = await startOne(t, d, 'honors_thesis', 6)
  const page = await signedIn(t, 'una')
  const checks: [string, string, string, (() => Promise<void>)?][] = [
    ['dashboard', '/dashboard', 'Dashboard'],
    ['transcript', `/students/${una}/transcript`, 'Transcript: Una Under'],
    ['plans', `/students/${una}/plans`, 'Study plans', async () => {
      await page.getByRole('button', { name: 'Edit Four years' }).click()
      await page.getByRole('heading', { level: 2, name: 'Edit Four years' }).waitFor()
    }],
    ['requests', `/requests?domain=thesis&id=${path(thesis.id)}`, 'My requests', async () => {
      await page.getByRole('heading', { level: 3, name: 'History' }).waitFor()
    }],
    ['progress with a what-if', `/students/${una}/progress`, 'Degree progress: Una Under', async () => {
      await page.getByRole('combobox', { name: 'Degree' }).selectOption({ label: 'Mathematics (BA)' })
      await page.getByRole('button', { name: 'Audit against this degree' }).click()
      await page.getByRole('progressbar', { name: 'What-if overall progress' }).waitFor()
    }],
  ]
  for (const [label, url, heading, then] of checks) {
    await page.goto(`${d.base}${url}`)
    await page.getByRole('heading', { level: 1, name: heading }).waitFor()
    await loaded(page)
    if (then) await then()
    await loaded(page)
    t.equal(await page.getByRole('heading', { level: 1 }).count(), 1, `${label}: one <h1>`)
    t.same(await axeViolations(page), [], `${label}: no serious or critical violation`)
  }
})

t.test('the dashboard lists the student\'s open requests with their status, linking to them', async (t) => {
  const page = await signedIn(t, 'una')
  await page.getByRole('link', { name: 'Thesis 6' }).waitFor()
  const region = page.getByRole('region', { name: 'Your requests' })
  t.match(await region.innerText(), /Thesis 6 \(Honors thesis\): submitted/, 'with its status')
  await page.getByRole('link', { name: 'Thesis 6' }).click()
  await page.getByRole('heading', { level: 2, name: 'Honors thesis: Thesis 6' }).waitFor()
  t.pass('opens the request on /requests')
})

t.test('a student\'s dashboard links to their own progress, transcript and plans', async (t) => {
  const page = await signedIn(t, 'una')
  const studies = page.getByRole('region', { name: 'Your studies' })
  for (const [name, to] of [['Your degree progress', 'progress'], ['Your transcript', 'transcript'], ['Your plans', 'plans']] as const) {
    t.equal(await studies.getByRole('link', { name }).getAttribute('href'), `/students/${una}/${to}`, name)
  }
  await studies.getByRole('link', { name: 'Your transcript' }).click()
  await page.getByRole('heading', { level: 1, name: 'Transcript: Una Under' }).waitFor()
  t.pass('the link opens her transcript')
})

t.test('a faculty member\'s and an unlinked admin\'s dashboards list the requests they can own, with no refusal', async (t) => {
  const nomination = await startOne(t, d, 'award_nominations', 7)
  const gus = await signedIn(t, 'gus')
  await gus.getByRole('link', { name: 'Best student 7' }).waitFor()
  const region = gus.getByRole('region', { name: 'Your requests' })
  t.match(await region.innerText(), /Best student 7 \(Award nomination\): submitted/, 'the nomination he made')
  t.equal(await region.getByRole('alert').count(), 0, 'no domain refused')
  const nominated = (await d.callers.gus({ method: 'GET', url: `/api/award-nominations/nominations/${path(nomination.id)}` })).json()
  t.equal(nominated.nominator, d.ids.gus, 'his, as the API says')

  const admin = await signedIn(t, 'admin')
  const adminRegion = admin.getByRole('region', { name: 'Your requests' })
  await adminRegion.getByText('No open requests.').waitFor()
  t.equal(await adminRegion.getByRole('alert').count(), 0, 'an admin linked to no Person owns none, and no filter is refused')
})

t.test('the new-request form offers the kinds the caller can create: a student\'s own; to faculty also a student\'s, with a picker', async (t) => {
  const kinds = async (name: 'una' | 'gus') => {
    const page = await signedIn(t, name, '/requests')
    const select = page.getByRole('combobox', { name: 'Kind of request' })
    await select.waitFor()
    return select.locator('option').allInnerTexts()
  }
  t.same(await kinds('una'), ['Honors thesis', 'Independent research', 'Fellowship', 'Graduate milestone'], 'a student')
  t.same(await kinds('gus'), ['Honors thesis', 'Independent research', 'Fellowship', 'Award nomination', 'Graduate milestone'], 'a faculty member: a student-owned kind names its student in a picker (test/web/honest-forms.test.ts)')
})
