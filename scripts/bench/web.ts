/**
 * npm run bench:web: the web app's budgets (docs/web.md) in Debian's Chromium on the sample department
 * (web-served.ts):
 * - every role's dashboard (web-served.ts sampleRoles: an undergraduate, a graduate student, a faculty
 *   advisor, a faculty committee member, a department admin), each signed in as that person: the
 *   JavaScript its first load fetches with an empty cache, each script's body gzipped here at zlib's
 *   default level and summed (150 KiB); the requests to /api of that full load (7); and from navigation
 *   start to its sections loaded, the median of 10 loads (1 s);
 * - as the admin, the same time to data (1 s) of a student's degree progress, the inbox and a records
 *   list, and the requests to /api of a full load of the inbox (7).
 * Each timed load is in a fresh context (an empty cache) whose tab already holds the session; the time is
 * the page's own performance.now() in the first animation frame that shows the data. A page the app
 * does not have yet ("Page not found") is reported as missing; a page that shows an error (role="alert")
 * where its data should be exceeds its budgets. Exits 1 when a figure exceeds its budget.
 */
import { gzipSync } from 'node:zlib'
import type { Browser, Page } from 'playwright-core'
import { fmt } from './report.js'
import { machine } from './setup.js'
import { launchChromium, sampleRoles, sampleStudent, serveSample, signedInContext, signIn, timeout, type SamplePerson, type ServedSample } from './web-served.js'

const budgets = { scriptKiB: 150, shownMs: 1000, apiRequests: 7 }
const loads = 10

/** What "the page's data shown" is, per page. */
type Shown = 'sections' | 'progress bar' | 'inbox row' | 'records row'

interface Timed {
  readonly path: string
  readonly shown: Shown
  /** The same, in words. */
  readonly words: string
  /** Who is signed in. */
  readonly who: SamplePerson
}

const roles: readonly SamplePerson[] = Object.values(sampleRoles)
const admin = sampleRoles.admin

const dashboards: readonly Timed[] = roles.map((who) => ({ path: '/dashboard', shown: 'sections', words: 'its sections loaded (no "Loading" status left)', who }))

const timed: readonly Timed[] = [
  ...dashboards,
  { path: `/students/${encodeURIComponent(sampleStudent)}/progress`, shown: 'progress bar', words: 'the first progress bar', who: admin },
  { path: '/approvals', shown: 'inbox row', words: 'the inbox\'s first row link', who: admin },
  { path: '/admin/records/Course', shown: 'records row', words: 'the first row of its table', who: admin },
]

const keyOf = (t: Timed) => `${t.who.personId} ${t.path}`

/** As much of the DOM as shownNow reads: this project's TypeScript has no DOM types. */
interface Dom {
  querySelector(selector: string): { textContent: string | null } | null
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>
}

/**
 * Runs in the page, where it is sent as its source (the page's CSP forbids evaluating strings there):
 * the page's performance.now() once `shown` is on the page, -1 on the app's "Page not found", else 0.
 */
function shownNow(shown: Shown): number {
  const dom = (globalThis as unknown as { document: Dom }).document
  const heading = dom.querySelector('main h1')?.textContent
  if (heading === 'Page not found') return -1
  const there = shown === 'sections'
    ? heading === 'Dashboard' && !Array.from(dom.querySelectorAll('[role=status]')).some((e) => (e.textContent ?? '').includes('Loading'))
    : shown === 'progress bar' ? dom.querySelector('main [role=progressbar]') !== null
      : shown === 'inbox row' ? dom.querySelector('main tbody tr a') !== null
        : heading === 'Course records' && dom.querySelector('main tbody tr') !== null
  return there ? performance.now() : 0
}

/**
 * The page's performance.now() in the first animation frame that shows the data; null when the app has
 * no such page; Infinity when the data is not shown within the wait.
 */
async function shownAt(page: Page, shown: Shown): Promise<number | null> {
  const handle = await page.waitForFunction(shownNow, shown, { polling: 'raf', timeout }).catch((error: unknown) => {
    if (error instanceof Error && error.name === 'TimeoutError') return null
    throw error
  })
  if (!handle) return Infinity
  const at = await handle.jsonValue()
  return at < 0 ? null : at
}

type Session = [string, string][]

/** One load of `path` in a fresh context; `watch` sees the page before it navigates. */
async function load<T>(browser: Browser, served: ServedSample, session: Session, path: string, measure: (page: Page) => Promise<T>, watch?: (page: Page) => void): Promise<T> {
  const { context, problems } = await signedInContext(browser, served.base, session)
  try {
    const page = await context.newPage()
    watch?.(page)
    await page.goto(served.base + path, { waitUntil: 'commit' })
    const result = await measure(page)
    if (problems.length) throw new Error(problems.join('; '))
    return result
  } finally {
    await context.close()
  }
}

interface FirstLoad {
  /** Script responses: how many, their bytes, and their bodies gzipped. */
  readonly files: number
  readonly bytes: number
  readonly gzipped: number
  /** Requests to /api, start-up calls included. */
  readonly apiRequests: number
  /** The texts of the errors (role="alert") the page shows once its data is due. */
  readonly alerts: readonly string[]
}

/**
 * A full first load of `path` with an empty cache, until the network is idle after the data is shown:
 * the scripts it fetched and the requests it made to /api.
 */
async function firstLoad(browser: Browser, served: ServedSample, session: Session, path: string, shown: Shown): Promise<FirstLoad> {
  const bodies: Promise<Buffer>[] = []
  let apiRequests = 0
  // The bodies are read before the context closes with its page.
  const { all, alerts } = await load(browser, served, session, path, async (page) => {
    await shownAt(page, shown)
    await page.waitForLoadState('networkidle')
    return { all: await Promise.all(bodies), alerts: await page.locator('main [role=alert]').allTextContents() }
  }, (page) => {
    page.on('response', (response) => {
      if (/javascript/.test(response.headers()['content-type'] ?? '')) bodies.push(response.body())
    })
    page.on('request', (request) => { if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests++ })
  })
  return {
    files: all.length, bytes: all.reduce((sum, b) => sum + b.length, 0), gzipped: all.reduce((sum, b) => sum + gzipSync(b).length, 0),
    apiRequests, alerts,
  }
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length / 2
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

interface Row { figure: string; value: string; budget: string; within: 'yes' | 'no' | 'missing' }

function table(rows: readonly Row[]): string {
  const cells = [['figure', 'value', 'budget', 'within budget'], ...rows.map((r) => [r.figure, r.value, r.budget, r.within])]
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)))
  const line = (c: string[]) => c.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n')
}

const who = (p: SamplePerson) => `the ${p.label} (${p.personId})`

async function main(): Promise<number> {
  const served = await serveSample()
  const browser = await launchChromium()
  const version = browser.version()
  const rows: Row[] = []
  try {
    const sessions = new Map<string, Session>()
    for (const person of roles) sessions.set(person.email, await signIn(browser, await served.link(person.email)))
    const sessionOf = (p: SamplePerson) => sessions.get(p.email)!

    // Each dashboard's first load: what it fetches, and that it shows no error.
    const broken = new Set<string>()
    for (const d of dashboards) {
      const first = await firstLoad(browser, served, sessionOf(d.who), d.path, d.shown)
      const kib = first.gzipped / 1024
      const error = first.alerts.length ? `; it shows an error: ${first.alerts.join(' / ')}` : ''
      if (error) broken.add(keyOf(d))
      rows.push({
        figure: `/dashboard of ${who(d.who)}: JavaScript of a first load, gzipped`,
        value: `${fmt(kib, 1)} KiB (${first.files} files, ${fmt(first.bytes / 1024, 1)} KiB uncompressed)${error}`,
        budget: `${budgets.scriptKiB} KiB`, within: kib <= budgets.scriptKiB && !error ? 'yes' : 'no',
      })
      rows.push({
        figure: `/dashboard of ${who(d.who)}: requests to /api in a full load`,
        value: String(first.apiRequests), budget: String(budgets.apiRequests), within: first.apiRequests <= budgets.apiRequests && !error ? 'yes' : 'no',
      })
    }

    // Round by round, every page once a round, so a slow spell of the machine falls on all of them alike.
    const times = new Map<string, (number | null)[]>(timed.map((t) => [keyOf(t), []]))
    for (let round = 0; round < loads; round++) {
      for (const t of timed) {
        const seen = times.get(keyOf(t))!
        if (seen.includes(null)) continue
        seen.push(await load(browser, served, sessionOf(t.who), t.path, (page) => shownAt(page, t.shown)))
      }
    }
    for (const t of timed) {
      const seen = times.get(keyOf(t))!
      const row = { figure: `${t.path} as ${who(t.who)}: to ${t.words}, median of ${loads}`, budget: `${fmt(budgets.shownMs)} ms` }
      if (seen.includes(null)) {
        rows.push({ ...row, value: 'missing: the app has no such page yet', within: 'missing' })
        continue
      }
      const ms = median(seen as number[])
      const range = `${fmt(Math.min(...seen as number[]))} to ${fmt(Math.max(...seen as number[]))}`
      const shown = ms === Infinity ? `not shown within ${timeout / 1000} s` : `${fmt(ms)} ms (${range})`
      const error = broken.has(keyOf(t)) ? ' (an error, not its data: above)' : ''
      rows.push({ ...row, value: shown + error, within: ms <= budgets.shownMs && !error ? 'yes' : 'no' })
    }

    const inbox = await firstLoad(browser, served, sessionOf(admin), '/approvals', 'inbox row')
    const error = inbox.alerts.length ? `; it shows an error: ${inbox.alerts.join(' / ')}` : ''
    rows.push({
      figure: `/approvals as ${who(admin)}: requests to /api in a full load`, value: `${inbox.apiRequests}${error}`,
      budget: String(budgets.apiRequests), within: inbox.apiRequests <= budgets.apiRequests && !error ? 'yes' : 'no',
    })
  } finally {
    await browser.close()
    await served.close()
  }
  console.log(`\nMachine: ${machine()}; Chromium ${version}, headless.\n`)
  console.log(table(rows))
  console.log('\nTimes are from navigation start to the data shown, by the page\'s own clock, each load in a fresh context holding the session.')
  return rows.some((r) => r.within === 'no') ? 1 : 0
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(`bench:web failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
