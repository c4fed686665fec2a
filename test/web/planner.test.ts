import t, { type Test } from 'tap'
import type { Locator, Page } from 'playwright-core'
import { path } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

/**
 * The planner (docs/web.md, "The planner"): a plan's terms side by side, courses moved by keyboard and
 * by drag and saved at once, the API's warnings on the course they concern, and the projected progress
 * following the plan.
 */
const browser = await launchBrowser(t)
const d = await webDepartment(t)
const una = path(d.ids.una)
const signedIn = signInAs(browser, d)

async function courseId(code: string): Promise<string> {
  const res = await d.admin({ method: 'GET', url: `/api/courses?search=${encodeURIComponent(code)}&limit=10` })
  return (res.json().items as { _id: string; course_code: string }[]).find((c) => c.course_code === code)!._id
}

// CS 301 needs CS 102: planned in the same term as CS 102, it draws the API's prerequisite warning.
const created = await d.admin({ method: 'POST', url: '/api/courses', payload: { course_code: 'CS 301', title: 'Course CS 301', credits: 4, prerequisites: [await courseId('CS 102')] } })
if (created.statusCode !== 201) throw new Error(`CS 301: ${created.body}`)
const ids = { cs102: await courseId('CS 102'), cs201: await courseId('CS 201'), cs202: await courseId('CS 202'), cs301: await courseId('CS 301') }

interface Plan { _id: string; _version: number; plan_name: string; planned_courses: { course: string; term: string; status?: string }[]; warnings: { kind: string; course?: string; term: string; message: string }[] }

/** A plan of Una's, made through the API as she would: each test has its own. */
async function newPlan(t: Test, name: string, planned: readonly (readonly [string, string])[]): Promise<Plan> {
  const res = await d.callers.una({ method: 'POST', url: '/api/student-plans', payload: {
    student: d.ids.una, plan_name: name, target_degree: d.degree, planned_courses: planned.map(([course, term]) => ({ course, term })),
  } })
  t.equal(res.statusCode, 201, `plan ${name} made`)
  return res.json()
}

async function planOf(id: string): Promise<Plan> {
  const items = (await d.callers.una({ method: 'GET', url: `/api/student-plans/${una}` })).json().items as Plan[]
  return items.find((p) => p._id === id)!
}

/** Una's plans page with `name` open on the board, opened with its "Edit" button. */
async function openBoard(t: Test, name: string): Promise<Page> {
  const page = await signedIn(t, 'una', `/students/${una}/plans`)
  await page.getByRole('button', { name: `Edit ${name}` }).click()
  await page.getByRole('heading', { level: 2, name: `Edit ${name}` }).waitFor()
  await page.getByRole('progressbar', { name: 'Projected overall progress' }).waitFor()
  return page
}

const term = (page: Page, code: string) => page.getByRole('region', { name: `Term ${code}`, exact: true })

async function attributes(all: Locator, name: string): Promise<string[]> {
  const found: string[] = []
  for (const one of await all.all()) found.push(await one.getAttribute(name) ?? '')
  return found
}

/** The course cards of a term's column, by the code each card's move choice names. */
async function codesIn(column: Locator): Promise<string[]> {
  const names = await attributes(column.getByRole('combobox', { name: /^Move / }), 'aria-label')
  return names.map((n) => n.replace(/^Move (.+) in \S+ to$/, '$1'))
}

/** The name and label of what has the focus: how a keyboard user knows where they are. */
const focusedName = (page: Page) => page.evaluate<string>(`(() => {
  const el = document.activeElement
  if (!el) return ''
  return el.getAttribute('aria-label') || (el.labels && el.labels[0] ? el.labels[0].textContent : '') || el.textContent || ''
})()`)

async function tabTo(t: Test, page: Page, name: string) {
  for (let i = 0; i < 120 && await focusedName(page) !== name; i++) await page.keyboard.press('Tab')
  t.equal(await focusedName(page), name, `Tab reaches "${name}"`)
}

t.test('the plan is its terms side by side, each warning the API gives on the course it concerns', async (t) => {
  const plan = await newPlan(t, 'Side by side', [[ids.cs102, '26S'], [ids.cs301, '26S'], [ids.cs201, '26F'], [ids.cs202, '27S']])
  const warning = plan.warnings.find((w) => w.kind === 'prerequisite')
  t.ok(warning, 'the API warns that CS 301 comes before its prerequisite is passed')
  t.equal(warning!.course, ids.cs301)
  t.equal(warning!.term, '26S')

  const page = await openBoard(t, 'Side by side')
  const columns = await attributes(page.locator('.terms > section'), 'data-term')
  t.same(columns, ['26S', '26F', '27S'], 'one column per term, in time order')
  t.same(await codesIn(term(page, '26S')), ['CS 102', 'CS 301'])
  t.same(await codesIn(term(page, '26F')), ['CS 201'])
  const [first, second] = await Promise.all([term(page, '26S').boundingBox(), term(page, '26F').boundingBox()])
  t.ok(first && second && Math.abs(first.y - second.y) < 1 && second.x > first.x, 'at 1280 px the terms stand side by side')

  const warnings = term(page, '26S').getByRole('list', { name: 'Warnings about CS 301 in 26S' })
  t.equal(await warnings.innerText(), warning!.message, 'the API\'s message, on CS 301 in 26S')
  const move = page.getByRole('combobox', { name: 'Move CS 301 in 26S to' })
  t.equal(await move.getAttribute('aria-describedby'), await warnings.getAttribute('id'), 'and it describes the card\'s controls')
  t.equal(await page.getByRole('list', { name: /^Warnings about/ }).count(), 1, 'no other course carries a warning')
  t.same(await axeViolations(page), [], 'axe-core: nothing serious or critical at 1280 px')

  await page.setViewportSize({ width: 375, height: 800 })
  const [narrowFirst, narrowSecond] = await Promise.all([term(page, '26S').boundingBox(), term(page, '26F').boundingBox()])
  t.ok(narrowFirst && narrowSecond && narrowSecond.y > narrowFirst.y, 'at 375 px the terms wrap, one under another')
  t.ok(await page.evaluate<number>('document.documentElement.scrollWidth') <= 375, 'and the page does not scroll sideways')
  t.same(await axeViolations(page), [], 'axe-core: nothing serious or critical at 375 px')
})

t.test('a course moved by keyboard alone is saved, announced, and its warning goes with the API\'s answer', async (t) => {
  const plan = await newPlan(t, 'By keyboard', [[ids.cs102, '26S'], [ids.cs301, '26S'], [ids.cs201, '26F']])
  const page = await signedIn(t, 'una', `/students/${una}/plans`)
  await page.getByRole('heading', { level: 1, name: 'Study plans' }).waitFor()
  await tabTo(t, page, 'Edit By keyboard')
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { level: 2, name: 'Edit By keyboard' }).waitFor()
  t.equal(await focusedName(page), 'Edit By keyboard', 'the board\'s heading takes the focus')
  await page.getByRole('list', { name: 'Warnings about CS 301 in 26S' }).waitFor()

  await tabTo(t, page, 'Move CS 301 in 26S to')
  t.equal(await page.getByRole('combobox', { name: 'Move CS 301 in 26S to' }).inputValue(), '26F', 'the next term is offered first')
  await page.keyboard.press('Tab')
  t.equal(await focusedName(page), 'Move CS 301', 'then its button')
  await page.keyboard.press('Enter')
  const status = page.getByRole('status').filter({ hasText: 'CS 301 moved from 26S to 26F.' })
  await status.filter({ hasText: 'Saved' }).waitFor()
  t.equal(await status.innerText(), 'CS 301 moved from 26S to 26F. Saved.', 'announced, and saved with no warning left')

  const saved = await planOf(plan._id)
  t.same(saved.planned_courses.map((c) => [c.course, c.term]), [[ids.cs102, '26S'], [ids.cs201, '26F'], [ids.cs301, '26F']], 'the API holds the move')
  t.same(saved.warnings, [], 'and warns of nothing: CS 102 now comes a term before CS 301')
  t.same(await codesIn(term(page, '26F')), ['CS 201', 'CS 301'], 'the card is in its new column')
  t.equal(await page.getByRole('list', { name: /^Warnings about/ }).count(), 0, 'with no warning left on the board')
  t.equal(await focusedName(page), 'Move CS 301 in 26F to', 'the focus followed the card')

  // Moving back brings the warning back, from the API's answer, on the course it concerns.
  await page.keyboard.press('Tab')
  await page.keyboard.press('Enter')
  await page.getByRole('status').filter({ hasText: 'CS 301 moved from 26F to 26S. Saved, with 1 warning.' }).waitFor()
  const back = await planOf(plan._id)
  t.equal(back.warnings.length, 1)
  t.equal(await term(page, '26S').getByRole('list', { name: 'Warnings about CS 301 in 26S' }).innerText(), back.warnings[0]!.message)
})

t.test('a course dragged to another term is saved, and the API holds the move', async (t) => {
  const plan = await newPlan(t, 'By drag', [[ids.cs102, '26S'], [ids.cs201, '26S'], [ids.cs202, '26F']])
  const page = await openBoard(t, 'By drag')
  const card = term(page, '26S').getByRole('listitem').filter({ has: page.getByRole('combobox', { name: 'Move CS 201 in 26S to' }) })
  // Taken by its top, where its title is, as a person takes a card: its controls are not where a drag starts.
  await card.dragTo(term(page, '26F'), { sourcePosition: { x: 12, y: 12 } })
  await page.getByRole('status').filter({ hasText: 'CS 201 moved from 26S to 26F. Saved' }).waitFor()
  const saved = await planOf(plan._id)
  t.same(saved.planned_courses.map((c) => [c.course, c.term]), [[ids.cs102, '26S'], [ids.cs202, '26F'], [ids.cs201, '26F']], 'the API holds the move')
  t.same(await codesIn(term(page, '26F')), ['CS 202', 'CS 201'], 'dropped at the end of the column')
  t.same(await codesIn(term(page, '26S')), ['CS 102'])

  await page.reload()
  await page.getByRole('heading', { level: 2, name: 'Edit By drag' }).waitFor()
  t.same(await codesIn(term(page, '26F')), ['CS 202', 'CS 201'], 'a reload shows the saved plan, open by its address')
})

t.test('the projected progress follows the plan as courses are added and removed', async (t) => {
  const plan = await newPlan(t, 'Projected', [[ids.cs201, '26S']])
  const projection = async () => (await d.callers.una({ method: 'GET', url: `/api/students/${una}/degree-progress?plan=${path(plan._id)}` })).json().projected_progress as number
  const bar = (page: Page, value: number) => page.locator(`[role=progressbar][aria-label="Projected overall progress"][aria-valuenow="${value}"]`)
  const page = await openBoard(t, 'Projected')
  const before = await projection()
  await bar(page, before).waitFor()
  t.pass(`the bar shows the API's projection, ${before}`)

  await page.getByRole('combobox', { name: 'Course', exact: true }).selectOption({ label: 'CS 102: Course CS 102' })
  await page.getByRole('button', { name: 'Add course' }).click()
  await page.getByRole('status').filter({ hasText: 'CS 102 added to 26S. Saved.' }).waitFor()
  const after = await projection()
  t.ok(after > before, 'the API projects more with CS 102 planned')
  await bar(page, after).waitFor()
  t.pass(`the bar follows, to ${after}`)

  await page.getByRole('button', { name: 'Remove CS 102 in 26S' }).click()
  await page.getByRole('status').filter({ hasText: 'CS 102 removed from 26S. Saved.' }).waitFor()
  await bar(page, before).waitFor()
  t.equal(await projection(), before, 'and back when it is removed')
})

t.test('a term is added from its field; a mistyped one is refused on the field', async (t) => {
  await newPlan(t, 'Terms', [[ids.cs201, '26S']])
  const page = await openBoard(t, 'Terms')
  const field = page.getByRole('textbox', { name: 'Term, e.g. 27S' })
  await field.fill('spring')
  await page.getByRole('button', { name: 'Add term' }).click()
  const alert = page.getByRole('alert')
  await alert.waitFor()
  t.match(await alert.innerText(), /season letter/)
  t.equal(await field.getAttribute('aria-invalid'), 'true', 'the field is marked invalid')
  await field.fill('27f')
  await page.getByRole('button', { name: 'Add term' }).click()
  await term(page, '27F').waitFor()
  t.equal(await field.getAttribute('aria-invalid'), null, 'no longer invalid')
  t.equal(await page.getByRole('combobox', { name: 'Move CS 201 in 26S to' }).inputValue(), '27F', 'the new term is where a course can move')
})

t.test('a save the server refuses shows its message and the board as the server has it', async (t) => {
  const plan = await newPlan(t, 'Stale', [[ids.cs201, '26S'], [ids.cs202, '26F']])
  const page = await openBoard(t, 'Stale')
  // Someone else (an advisor, another tab) changes the plan after the board read it.
  const changed = await d.callers.una({ method: 'PUT', url: `/api/student-plans/${path(plan._id)}`, payload: {
    planned_courses: [...plan.planned_courses, { course: ids.cs102, term: '27S' }],
  } })
  t.equal(changed.statusCode, 200)
  await page.getByRole('button', { name: 'Move CS 201', exact: true }).click()
  const alert = page.getByRole('alert')
  await alert.waitFor()
  t.match(await alert.innerText(), /^CS 201 moved from 26S to 26F\. Not saved: /, 'the move, not saved, with the server\'s reason')
  t.same(await codesIn(term(page, '26S')), ['CS 201'], 'the card is back where the server has it')
  t.same(await codesIn(term(page, '27S')), ['CS 102'], 'with the other change, read again')
  t.same((await planOf(plan._id)).planned_courses.map((c) => c.term), ['26S', '26F', '27S'], 'and the API has only the other change')

  await page.getByRole('button', { name: 'Move CS 201', exact: true }).click()
  await page.getByRole('status').filter({ hasText: 'CS 201 moved from 26S to 26F. Saved' }).waitFor()
  t.same((await planOf(plan._id)).planned_courses.map((c) => c.term), ['26F', '27S', '26F'], 'the move, tried again on the version read, is saved')
})
