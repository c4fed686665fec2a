/**
 * npm run bench:web: the web app's budgets (docs/web.md) in Debian's Chromium on the sample department
 * (web-served.ts), signed in as one of its admins:
 * - the JavaScript a first signed-in load of /dashboard fetches with an empty cache, each script's body
 *   gzipped here at zlib's default level and summed (150 KiB);
 * - from navigation start to the page's data shown, the median of 10 loads, each in a fresh context
 *   (an empty cache) whose tab already holds the session (1 s each); the time is the page's own
 *   performance.now() in the first animation frame that shows the data;
 * - the requests to /api of a full signed-in load of /approvals (7).
 * A page the app does not have yet ("Page not found") is reported as missing. Exits 1 when a figure
 * exceeds its budget.
 */
import { gzipSync } from 'node:zlib'
import type { Browser, Page } from 'playwright-core'
import { fmt } from './report.js'
import { machine } from './setup.js'
import { launchChromium, sampleAdmin, sampleStudent, serveSample, signedInContext, signIn, timeout, type ServedSample } from './web-served.js'

const budgets = { scriptKiB: 150, shownMs: 1000, approvalsApiRequests: 7 }
const loads = 10

/** What "the page's data shown" is, per page. */
type Shown = 'sections' | 'progress bar' | 'inbox row' | 'records row'

interface Timed {
  readonly path: string
  readonly shown: Shown
  /** The same, in words. */
  readonly words: string
}

const timed: readonly Timed[] = [
  { path: '/dashboard', shown: 'sections', words: 'its sections loaded (no "Loading" status left)' },
  { path: `/students/${encodeURIComponent(sampleStudent)}/progress`, shown: 'progress bar', words: 'the first progress bar' },
  { path: '/approvals', shown: 'inbox row', words: 'the inbox\'s first row link' },
  { path: '/admin/records/Course', shown: 'records row', words: 'the first row of its table' },
]

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

interface Scripts { files: number; bytes: number; gzipped: number }

async function dashboardScripts(browser: Browser, served: ServedSample, session: Session): Promise<Scripts> {
  const bodies: Promise<Buffer>[] = []
  // The bodies are read before the context closes with its page.
  const all = await load(browser, served, session, '/dashboard', async (page) => {
    await shownAt(page, 'sections')
    await page.waitForLoadState('networkidle')
    return Promise.all(bodies)
  }, (page) => page.on('response', (response) => {
    if (/javascript/.test(response.headers()['content-type'] ?? '')) bodies.push(response.body())
  }))
  return { files: all.length, bytes: all.reduce((sum, b) => sum + b.length, 0), gzipped: all.reduce((sum, b) => sum + gzipSync(b).length, 0) }
}

async function approvalsApiRequests(browser: Browser, served: ServedSample, session: Session): Promise<number> {
  let requests = 0
  await load(browser, served, session, '/approvals', async (page) => {
    await shownAt(page, 'inbox row')
    await page.waitForLoadState('networkidle')
  }, (page) => page.on('request', (request) => { if (new URL(request.url()).pathname.startsWith('/api/')) requests++ }))
  return requests
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

async function main(): Promise<number> {
  const served = await serveSample()
  const browser = await launchChromium()
  const version = browser.version()
  const rows: Row[] = []
  try {
    const session = await signIn(browser, await served.link(sampleAdmin))

    const scripts = await dashboardScripts(browser, served, session)
    const kib = scripts.gzipped / 1024
    rows.push({
      figure: 'JavaScript of a first signed-in load of /dashboard, gzipped',
      value: `${fmt(kib, 1)} KiB (${scripts.files} files, ${fmt(scripts.bytes / 1024, 1)} KiB uncompressed)`,
      budget: `${budgets.scriptKiB} KiB`, within: kib <= budgets.scriptKiB ? 'yes' : 'no',
    })

    // Round by round, every page once a round, so a slow spell of the machine falls on all of them alike.
    const times = new Map<string, (number | null)[]>(timed.map((t) => [t.path, []]))
    for (let round = 0; round < loads; round++) {
      for (const t of timed) {
        const seen = times.get(t.path)!
        if (seen.includes(null)) continue
        seen.push(await load(browser, served, session, t.path, (page) => shownAt(page, t.shown)))
      }
    }
    for (const t of timed) {
      const seen = times.get(t.path)!
      const row = { figure: `${t.path}: to ${t.words}, median of ${loads}`, budget: `${fmt(budgets.shownMs)} ms` }
      if (seen.includes(null)) {
        rows.push({ ...row, value: 'missing: the app has no such page yet', within: 'missing' })
        continue
      }
      const ms = median(seen as number[])
      const range = `${fmt(Math.min(...seen as number[]))} to ${fmt(Math.max(...seen as number[]))}`
      rows.push({ ...row, value: ms === Infinity ? `not shown within ${timeout / 1000} s` : `${fmt(ms)} ms (${range})`, within: ms <= budgets.shownMs ? 'yes' : 'no' })
    }

    const requests = await approvalsApiRequests(browser, served, session)
    rows.push({ figure: 'requests to /api in a full signed-in load of /approvals', value: String(requests), budget: String(budgets.approvalsApiRequests), within: requests <= budgets.approvalsApiRequests ? 'yes' : 'no' })
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
