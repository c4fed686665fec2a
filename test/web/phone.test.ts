import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { campus, provider } from '../campus-sync/support.js'
import { finished, restSource } from '../routes/campus-sync/support.js'
import { path, startOne, type Name } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser, newPage } from './browser.js'
import { webDepartment } from './support.js'

/**
 * Every page of the app on a 375 px phone: nothing wider than the screen (docs/web.md, "Phones"), and
 * axe-core clean there and at 1280 px. Each page is opened by a person who sees it, with the data that
 * makes its tables full: a thesis and a major plan in review, a failed job, sync runs with row errors.
 */
const browser = await launchBrowser(t)
const d = await webDepartment(t)
const una = path(d.ids.una)

/** The department's data that fills the pages' tables, made once for the file by the first test that needs it. */
let made: Promise<{ thesis: string; plan: string; course: string }> | undefined
function data(t: Test) {
  made ??= (async () => {
    const check = (ok: boolean, what: string) => { if (!ok) throw new Error(`setting up: ${what}`) }
    const thesis = await startOne(t, d, 'honors_thesis', 1)
    const plan = await startOne(t, d, 'major_plans')
    await startOne(t, d, 'award_nominations', 1)
    check((await d.callers.una({ method: 'POST', url: '/api/thesis/requests', payload: { student: d.ids.una, advisor: d.ids.fay, title: 'A draft with a rather long working title that has to wrap on a phone', abstract: 'x', term: '26S' } })).statusCode === 201, 'a draft')
    // Sync runs as a first-time admin makes them (people before sections, so rows fail), then a job the feed refuses.
    const feed = await provider(t, campus())
    const configure = async (secret: string) => check((await d.admin({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: { ...restSource(feed.url), client_secret: secret } } })).statusCode === 200, 'the sync configuration')
    const run = async (url: string) => {
      const res = await d.admin({ method: 'POST', url, payload: {} })
      check(res.statusCode === 202, `${url}: ${res.body}`)
      return finished(d.admin, res.json().jobId)
    }
    await configure('s3cret')
    await run('/api/campus-sync/courses')
    await run('/api/campus-sync/people')
    await configure('not-the-secret')
    const { id: failedJob } = await d.app.jobs.enqueue('campus-sync', 'courses', { kind: 'courses' }, { attempts: 1 })
    check((await finished(d.admin, failedJob)).state === 'failed', 'a failed job for the jobs page')
    const course = (await d.admin({ method: 'GET', url: '/api/courses?search=CS%20101&limit=1' })).json().items[0]._id as string
    return { thesis: thesis.id, plan: plan.id, course }
  })()
  return made
}

/** Each page, who opens it, and what its <h1> says. */
const pagesOf = ({ thesis, plan, course }: Awaited<ReturnType<typeof data>>): readonly [Name | null, string, string | RegExp][] => [
  [null, '/sign-in', 'Sign in'],
  [null, '/auth/saml-callback?error=Signature%20validation%20failed', 'Sign-in failed'],
  ['una', '/dashboard', 'Dashboard'],
  ['una', `/students/${una}/progress`, 'Degree progress: Una Under'],
  ['una', `/students/${una}/transcript`, 'Transcript: Una Under'],
  ['una', `/students/${una}/plans`, /plan/i],
  ['una', '/requests', 'My requests'],
  ['una', `/requests?domain=thesis&id=${path(thesis)}`, 'My requests'],
  ['una', '/profile', 'Your profile'],
  ['una', '/notifications', 'Notifications'],
  ['una', '/settings/api-keys', 'API keys'],
  ['una', '/no/such/page', 'Page not found'],
  ['fay', '/dashboard', 'Dashboard'],
  ['fay', '/approvals', 'Approvals'],
  ['fay', `/approvals/thesis/${path(thesis)}`, 'Thesis 1'],
  ['fay', `/approvals/major-plans/${path(plan)}`, /Major plan/],
  ['fay', '/advisees', 'Advisees'],
  ['fay', '/people', 'People'],
  ['fay', `/people/${path(d.ids.fay)}`, 'fay Faculty'],
  ['fay', '/courses', 'Courses'],
  ['fay', `/courses/${path(course)}`, /^CS 101/],
  ['fay', '/labs', 'Labs'],
  ['fay', '/publications', 'Publications'],
  ['fay', '/search?q=CS', 'Search'],
  ['admin', '/dashboard', 'Dashboard'],
  ['admin', '/approvals', 'Approvals'],
  ['admin', '/advisees', 'Advisees'],
  ['admin', '/admin', 'Administration'],
  ['admin', '/admin/users', 'Users'],
  ['admin', '/admin/groups', 'Groups'],
  ['admin', '/admin/jobs', 'Jobs'],
  ['admin', '/admin/sync', 'Campus sync'],
  ['admin', '/admin/audit', 'Audit log'],
  ['admin', '/admin/cache', 'Cache'],
  ['admin', '/admin/trash', 'Trash'],
  ['admin', '/admin/backups', 'Backups'],
  ['admin', '/admin/records', 'Records'],
  ['admin', '/admin/records/Course', 'Course records'],
  ['admin', '/admin/records/Course/new', /Course/],
  ['admin', `/admin/records/Course/${path(course)}`, /CS 101|Course/],
]

/** Runs in the page, sent as its source: the page's CSP forbids evaluating strings there. */
function scrolledSideways(): boolean {
  const { document } = globalThis as unknown as { document: { activeElement: { scrollLeft: number } | null } }
  return (document.activeElement?.scrollLeft ?? 0) > 0
}

const width = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth')

/** The elements reaching past the screen's right edge, outermost first: where a failure starts looking. */
const wideElements = (page: Page) => page.evaluate<string[]>(`(() => {
  const edge = document.documentElement.clientWidth
  const out = []
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect()
    if (box.right <= edge + 0.5 || box.width === 0) continue
    // Inside a container that scrolls by itself, an element may be wider than the screen.
    let scrolled = false
    for (let up = el.parentElement; up; up = up.parentElement) if (getComputedStyle(up).overflowX === 'auto' || getComputedStyle(up).overflowX === 'scroll') { scrolled = true; break }
    if (!scrolled) out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '') + ' ' + Math.round(box.right))
  }
  return out.slice(0, 5)
})()`)

/** Until the page has shown (or refused) what it loads. */
async function settled(page: Page, heading: string | RegExp) {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
  await page.getByRole('status').filter({ hasText: /^(Loading|Checking)/ }).first().waitFor({ state: 'detached' })
}

/** One signed-in page per person and test, closed with the test. */
const sessions = new WeakMap<Test, Map<Name | null, Page>>()
async function pageOf(t: Test, who: Name | null): Promise<Page> {
  if (!sessions.has(t)) sessions.set(t, new Map())
  const open = sessions.get(t)!.get(who)
  if (open) return open
  const page = await newPage(t, browser)
  if (who) {
    await page.goto(await d.linkFor(who))
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
  }
  sessions.get(t)!.set(who, page)
  return page
}

t.test('every page fits a 375 px screen without scrolling sideways, and axe-core finds nothing serious at 375 and 1280 px', async (t) => {
  const widths: string[] = []
  for (const [who, url, heading] of pagesOf(await data(t))) {
    const page = await pageOf(t, who)
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto(`${d.base}${url}`)
    // One page that never shows is reported, and the others are still measured.
    const shown = await settled(page, heading).then(() => true, (error: unknown) => { t.fail(`${url}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`); return false })
    if (!shown) continue
    const narrow = await width(page)
    widths.push(`${url} (${who ?? 'signed out'}): ${narrow}`)
    t.ok(narrow <= 375, `${url} as ${who ?? 'a visitor'}: ${narrow} px wide at 375${narrow > 375 ? `; wide: ${(await wideElements(page)).join(', ')}` : ''}`)
    t.same(await axeViolations(page), [], `${url}: no serious or critical violation at 375 px`)
    await page.setViewportSize({ width: 1280, height: 800 })
    t.ok(await width(page) <= 1280, `${url}: no sideways scrolling at 1280 px`)
    t.same(await axeViolations(page), [], `${url}: no serious or critical violation at 1280 px`)
  }
  t.comment(`widths at 375 px:\n${widths.join('\n')}`)
})

t.test('a table wider than the phone scrolls inside its own named region, which the keyboard reaches', async (t) => {
  await data(t)
  const page = await pageOf(t, 'admin')
  await page.setViewportSize({ width: 375, height: 800 })
  await page.goto(`${d.base}/admin/jobs`)
  await settled(page, 'Jobs')
  const region = page.getByRole('region', { name: /jobs, newest first/ })
  await region.waitFor()
  t.equal(await region.getAttribute('tabindex'), '0', 'the region takes focus, so the keyboard can scroll it')
  await region.focus()
  t.ok(await page.evaluate<boolean>('document.activeElement.scrollWidth > document.activeElement.clientWidth'), 'the jobs table is wider than the screen and scrolls within its region')
  await page.keyboard.press('ArrowRight')
  await page.waitForFunction(scrolledSideways)
  t.pass('ArrowRight scrolls it')
  t.ok(await width(page) <= 375, 'and the page itself does not scroll sideways')
})
