/**
 * Every page of the app on a 375 px phone: nothing wider than the screen (docs/web.md, "Phones"), and
 * axe-core clean there and at 1280 px. Each page is opened by a person who sees it, with the data that
 * makes its tables full: a thesis and a major plan in review, a failed job, sync runs with row errors.
 * The pages are checked in two files, the people's (phone-people.test.ts) and the admin's
 * (phone-admin.test.ts), so tap's two jobs can run them side by side.
 */
import type { Test } from 'tap'
import type { Browser, Page } from 'playwright-core'
import { campus, provider } from '../campus-sync/support.js'
import { finished, restSource } from '../routes/campus-sync/support.js'
import { startOne, type Name } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser, newPage } from './browser.js'
import { webDepartment } from './support.js'

type Department = Awaited<ReturnType<typeof webDepartment>>
export type Filled = { thesis: string; plan: string; course: string }
/** A page, who opens it, and what its <h1> says. */
export type PageCase = readonly [Name | null, string, string | RegExp]

/** Runs in the page, sent as its source: the page's CSP forbids evaluating strings there. */
export function scrolledSideways(): boolean {
  const { document } = globalThis as unknown as { document: { activeElement: { scrollLeft: number } | null } }
  return (document.activeElement?.scrollLeft ?? 0) > 0
}

export const width = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth')

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
export async function settled(page: Page, heading: string | RegExp) {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
  await page.getByRole('status').filter({ hasText: /^(Loading|Checking)/ }).first().waitFor({ state: 'detached' })
}

/**
 * The browser, the department and the people's signed-in pages for one file. The data that fills the
 * pages' tables is made once, by the first test that needs it; the sync runs and the failed job only
 * when the file checks the admin's pages.
 */
export async function phoneFixture(t: Test, { syncRuns }: { syncRuns: boolean }) {
  const browser: Browser = await launchBrowser(t)
  const d: Department = await webDepartment(t)

  let made: Promise<Filled> | undefined
  const data = (t: Test) => {
    made ??= (async () => {
      const check = (ok: boolean, what: string) => { if (!ok) throw new Error(`setting up: ${what}`) }
      const thesis = await startOne(t, d, 'honors_thesis', 1)
      const plan = await startOne(t, d, 'major_plans')
      await startOne(t, d, 'award_nominations', 1)
      check((await d.callers.una({ method: 'POST', url: '/api/thesis/requests', payload: { student: d.ids.una, advisor: d.ids.fay, title: 'A draft with a rather long working title that has to wrap on a phone', abstract: 'x', term: '26S' } })).statusCode === 201, 'a draft')
      if (syncRuns) {
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
      }
      const course = (await d.admin({ method: 'GET', url: '/api/courses?search=CS%20101&limit=1' })).json().items[0]._id as string
      return { thesis: thesis.id, plan: plan.id, course }
    })()
    return made
  }

  /** One signed-in page per person and test, closed with the test. */
  const sessions = new WeakMap<Test, Map<Name | null, Page>>()
  const pageOf = async (t: Test, who: Name | null): Promise<Page> => {
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

  /** Each page at 375 px and at 1280 px: its width, and axe-core's serious and critical findings. */
  const checkPages = async (t: Test, pages: readonly PageCase[]) => {
    const widths: string[] = []
    for (const [who, url, heading] of pages) {
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
  }

  return { d, data, pageOf, checkPages }
}
