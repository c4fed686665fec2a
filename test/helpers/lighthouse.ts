import { launch, type LaunchedChrome } from 'chrome-launcher'
import lighthouse, { type Flags, type Result } from 'lighthouse'
// Lighthouse's own puppeteer-core: the page handed to it must be of the version it drives.
import puppeteer, { type Browser } from 'puppeteer-core'
import { chromiumArgs, chromiumPath } from '../web/browser.js'

export const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const
export type Category = (typeof categories)[number]

/**
 * Lighthouse's defaults, written out so a reader need not know them: a mid-range phone (mobile form
 * factor and screen), a slow 4G network and a CPU four times slower, applied by simulation (Lantern
 * models the throttled load from the trace of an unthrottled one). A simulated score depends mostly on
 * what the page loads and in what order; the trace's CPU time is still the machine's, so a busy machine
 * moves it, though less than it moves a throttled load.
 */
export const flags: Flags = {
  formFactor: 'mobile',
  throttlingMethod: 'simulate',
  onlyCategories: [...categories],
  output: 'json',
  logLevel: 'error',
  // Chromium under a loaded machine can be slow to settle; Lighthouse's own bound is 45 s.
  maxWaitForLoad: 90_000,
}

export interface Audited {
  readonly url: string
  /** Each category's score, 0 to 1; null when Lighthouse could not score it. */
  readonly scores: Readonly<Record<Category, number | null>>
  readonly lhr: Result
  /** The runs Lighthouse threw away for a trace it could not read (see `badTrace`), each by its code. */
  readonly retried: readonly string[]
}

/**
 * The codes Lighthouse gives a trace it recorded badly ("Something went wrong with recording the trace
 * over your page load. Please run Lighthouse again."): Chromium's trace, not the page, failed, so the
 * audit is run again, twice at most. Any other runtime error, a missing paint among them, fails the test.
 */
const badTrace = new Set(['NO_TRACING_STARTED', 'NO_RESOURCE_REQUEST', 'NO_NAVSTART', 'NO_DCL'])
const auditRuns = 3

export type Session = readonly (readonly [string, string])[]

/** Every wait on the browser is bounded generously: both cores may be busy with other suites. */
const timeout = 120_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface Lighthouse {
  /**
   * Audits `url` in a fresh tab whose sessionStorage holds `session` for `origin` before any of the
   * page's scripts run, as a tab that signed in earlier holds it; the page is loaded with an empty cache.
   */
  audit(url: string, origin: string, session: Session): Promise<Audited>
  /** Follows a one-time sign-in link to the dashboard; the tab's sessionStorage then is the session. */
  signIn(link: string): Promise<Session>
  close(): Promise<void>
}

/** Debian's Chromium, headless, started by chrome-launcher on a debugging port that puppeteer attaches to. */
export async function launchLighthouse(): Promise<Lighthouse> {
  const chrome: LaunchedChrome = await launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', ...chromiumArgs],
    // Its default gives Chromium 25 s to open the debugging port; a busy machine can take longer.
    maxConnectionRetries: 120,
  })
  let browser: Browser | undefined
  try {
    browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null })
  } catch (error) {
    chrome.kill()
    throw error
  }
  const connected = browser
  return {
    async audit(url, origin, session) {
      const retried: string[] = []
      for (;;) {
        const page = await connected.newPage()
        try {
          // Sent over the debugging protocol, it runs before the page's scripts and under no CSP of the page's.
          await page.evaluateOnNewDocument(`if (location.origin === ${JSON.stringify(origin)}) for (const [k, v] of ${JSON.stringify(session)}) sessionStorage.setItem(k, v)`)
          const result = await lighthouse(url, flags, undefined, page)
          if (!result) throw new Error(`Lighthouse returned no result for ${url}`)
          const { lhr } = result
          const failed = lhr.runtimeError
          if (failed && badTrace.has(failed.code) && retried.length + 1 < auditRuns) {
            retried.push(failed.code)
            continue
          }
          if (failed) throw new Error(`Lighthouse could not audit ${url}: ${failed.code} ${failed.message}${retried.length ? ` (after ${retried.join(', ')})` : ''}`)
          const scores = Object.fromEntries(categories.map((c) => [c, lhr.categories[c]?.score ?? null])) as Record<Category, number | null>
          return { url, scores, lhr, retried }
        } finally {
          await page.close()
        }
      }
    },
    async signIn(link) {
      const page = await connected.newPage()
      try {
        await page.goto(link, { timeout })
        // Polled with evaluations over the debugging protocol, which the page's CSP (no eval) does not govern.
        for (let waited = 0; await page.evaluate("document.querySelector('main h1')?.textContent") !== 'Dashboard'; waited += 100) {
          if (waited > timeout) throw new Error(`signing in through ${new URL(link).pathname} never showed the dashboard (the page is at ${page.url()})`)
          await sleep(100)
        }
        return await page.evaluate('Object.entries(sessionStorage)') as [string, string][]
      } finally {
        await page.close()
      }
    },
    async close() {
      await connected.disconnect()
      chrome.kill()
    },
  }
}

export interface FailingAudit {
  readonly id: string
  readonly title: string
  readonly score: number | null
  readonly displayValue?: string
  /** What the audit found, when it lists items: their selectors, URLs or snippets, the first few. */
  readonly items: readonly string[]
}

/** A few words for one item of an audit's details table. */
function describeItem(item: Record<string, unknown>): string {
  const node = item.node as { selector?: string; snippet?: string; explanation?: string } | undefined
  if (node) return [node.selector, node.snippet, node.explanation].filter(Boolean).join(' ')
  const parts: string[] = []
  for (const key of ['url', 'reason', 'description', 'source', 'label', 'wastedBytes', 'wastedMs', 'totalBytes']) {
    const value = item[key]
    if (value === undefined || value === null) continue
    parts.push(typeof value === 'object' ? `${key}: ${JSON.stringify(value).slice(0, 200)}` : `${key}: ${String(value)}`)
  }
  return parts.join(', ')
}

/**
 * The audits of a category that cost it points (score under 1, weighted in the category, or a failed
 * binary audit), with what each found, so a failing score names its causes.
 */
export function failingAudits(lhr: Result, category: Category): FailingAudit[] {
  const refs = lhr.categories[category]?.auditRefs ?? []
  const failing: FailingAudit[] = []
  for (const ref of refs) {
    const audit = lhr.audits[ref.id]
    if (!audit) continue
    const mode = audit.scoreDisplayMode
    if (mode === 'notApplicable' || mode === 'manual' || mode === 'informative') continue
    if (audit.score === null || audit.score >= 1) continue
    // A weighed audit (a metric, an accessibility check) short by a little still costs the score; an
    // unweighed one Lighthouse itself counts as passed from 0.9.
    if (ref.weight === 0 && audit.score >= 0.9) continue
    const details = audit.details as { items?: Record<string, unknown>[] } | undefined
    failing.push({
      id: audit.id, title: audit.title, score: audit.score,
      ...(audit.displayValue ? { displayValue: audit.displayValue } : {}),
      items: (details?.items ?? []).slice(0, 5).map(describeItem).filter(Boolean),
    })
  }
  return failing
}

/** One line an audit, then its items indented: for a test's diagnostic. */
export function describeFailing(audits: readonly FailingAudit[]): string {
  return audits.map((a) => [
    `${a.id} (score ${a.score ?? 'n/a'}): ${a.title}${a.displayValue ? ` — ${a.displayValue}` : ''}`,
    ...a.items.map((i) => `    ${i}`),
  ].join('\n')).join('\n')
}
