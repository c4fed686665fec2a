import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { path } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

/**
 * The degree progress page as an audit (docs/web.md, "The audit"): requirement groups as cards, one
 * header with the student, the degree and the day, and a "Print" button whose paper leaves out the
 * navigation and the forms but keeps every group with its satisfied and remaining rules.
 */
const browser = await launchBrowser(t)
const d = await webDepartment(t)
const una = path(d.ids.una)
const signedIn = signInAs(browser, d)

// A second group whose one rule Una has satisfied (she passed CS 101), so the audit has both kinds.
const post = async (url: string, payload: object) => {
  const res = await d.admin({ method: 'POST', url, payload })
  if (res.statusCode !== 201) throw new Error(`POST ${url}: ${res.body}`)
  return res.json()._id as string
}
const cs101 = ((await d.admin({ method: 'GET', url: '/api/courses?search=CS%20101' })).json().items as { _id: string; course_code: string }[]).find((c) => c.course_code === 'CS 101')!._id
await post('/api/requirement-groups', { name: 'Foundations', degree: d.degree, order: 2, rules: [await post('/api/requirement-rules', { name: 'First course', rule_type: 'all_of', courses: [cs101] })] })

interface Audit {
  student: { first_name: string; last_name: string }
  degree: { name: string; degree_type: string }
  groups: { _id: string; name: string; satisfied_rules: { name: string }[]; rules: { name: string; satisfied: boolean; remaining: { text: string } | null }[] }[]
}
const audit = async (): Promise<Audit> => (await d.callers.una({ method: 'GET', url: `/api/students/${una}/degree-progress` })).json()

async function openAudit(t: Test, who: 'una' | 'fay'): Promise<Page> {
  const page = await signedIn(t, who)
  // window.print opens the browser's own dialog, not the app's: the page records the call instead.
  await page.addInitScript('window.__printed = 0; window.print = () => { window.__printed += 1 }')
  await page.goto(`${d.base}/students/${una}/progress`)
  await page.getByRole('heading', { level: 1, name: 'Degree progress: Una Under' }).waitFor()
  await page.getByRole('progressbar', { name: 'Overall progress' }).waitFor()
  return page
}

/** Each group of the API's audit is on the page as a region with its satisfied and remaining rules, in the API's words. */
async function groupsShown(t: Test, page: Page, api: Audit) {
  t.equal(await page.locator('.group-card').count(), api.groups.length, 'one card per group the API gives')
  for (const group of api.groups) {
    const card = page.getByRole('region', { name: group.name, exact: true })
    t.ok(await card.isVisible(), `${group.name}: shown`)
    const satisfied = card.getByRole('list', { name: `Satisfied in ${group.name}` })
    const remaining = card.getByRole('list', { name: `Remaining in ${group.name}` })
    const open = group.rules.filter((r) => !r.satisfied)
    if (group.satisfied_rules.length) {
      const text = await satisfied.innerText()
      for (const rule of group.satisfied_rules) t.match(text, rule.name, `${group.name}: "${rule.name}" satisfied`)
    } else {
      t.match(await card.innerText(), /Satisfied\s+None yet\./, `${group.name}: nothing satisfied, said so`)
    }
    if (open.length) {
      const text = await remaining.innerText()
      for (const rule of open) t.match(text, `${rule.name}: ${rule.remaining!.text}`, `${group.name}: "${rule.name}" remaining, in the API's words`)
    } else {
      t.match(await card.innerText(), /Remaining\s+Nothing remains\./, `${group.name}: nothing remaining, said so`)
    }
  }
}

t.test('the audit has one header with the student, the degree and the day, and every group as a card', async (t) => {
  const api = await audit()
  t.equal(api.groups.length, 2)
  t.ok(api.groups.some((g) => g.satisfied_rules.length) && api.groups.some((g) => g.rules.some((r) => !r.satisfied)), 'the API has satisfied and remaining rules')
  const page = await openAudit(t, 'una')
  const today = await page.evaluate<string>('new Date().toLocaleDateString(undefined, { dateStyle: "long" })')
  const header = await page.locator('.audit-header').innerText()
  const fact = (name: string, value: string) => new RegExp(`${name}:\\s+${value.replace(/[()]/g, '\\$&')}`)
  t.match(header, fact('Student', 'Una Under'), 'the student')
  t.match(header, fact('Degree', `${api.degree.name} (${api.degree.degree_type})`), 'the degree the API audited')
  t.match(header, fact('Audited', today), 'the day')
  await groupsShown(t, page, api)
  const [core, foundations] = await Promise.all(api.groups.map((g) => page.getByRole('region', { name: g.name, exact: true }).boundingBox()))
  t.ok(core && foundations && Math.abs(core.y - foundations.y) < 1, 'at 1280 px the cards stand side by side')
  t.same(await axeViolations(page), [], 'axe-core: nothing serious or critical at 1280 px')

  await page.setViewportSize({ width: 375, height: 800 })
  t.ok(await page.evaluate<number>('document.documentElement.scrollWidth') <= 375, 'no sideways scrolling at 375 px')
  t.same(await axeViolations(page), [], 'axe-core: nothing serious or critical at 375 px')
})

t.test('"Print" prints; on paper the navigation, buttons and forms are gone, and every group with its rules is there', async (t) => {
  const api = await audit()
  const page = await openAudit(t, 'fay')
  await page.getByRole('button', { name: 'Print' }).click()
  t.equal(await page.evaluate<number>('window.__printed'), 1, 'the button asks the browser to print, once')

  const nav = page.getByRole('navigation', { name: 'Main' })
  t.ok(await nav.isVisible(), 'on screen the navigation is there')
  await page.emulateMedia({ media: 'print' })
  t.ok(await nav.isHidden(), 'on paper the navigation is not')
  t.ok(await page.getByRole('button', { name: 'Print' }).isHidden(), 'nor the Print button')
  t.ok(await page.getByRole('button', { name: 'Sign out' }).isHidden(), 'nor signing out')
  t.ok(await page.getByRole('heading', { name: 'What if you changed degree?' }).isHidden(), 'nor the what-if forms')
  t.ok(await page.getByRole('heading', { level: 1, name: 'Degree progress: Una Under' }).isVisible(), 'the header is')
  const header = await page.locator('.audit-header').innerText()
  t.match(header, new RegExp(`Degree:\\s+${api.degree.name}`), 'the degree')
  t.match(header, /Audited:\s+\S/, 'the day')
  await groupsShown(t, page, api)
  t.equal(await page.locator('.audit-header').count(), 1, 'one header')

  await page.emulateMedia({ media: 'screen' })
  t.ok(await nav.isVisible(), 'back on screen, the navigation returns')
})
