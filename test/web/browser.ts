import { access, constants, readFile } from 'node:fs/promises'
import { chromium, type Browser, type Page } from 'playwright-core'
import type { Test } from 'tap'

/** Debian's chromium package; `npm test` installs it (scripts/test-deps.sh). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Headless, and nothing that reaches outside this machine (as test/http/swagger-ui.test.ts). */
export const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
]

/** Every wait on the browser is bounded generously: both cores may be busy with other suites. */
export const timeout = 60_000

/** One Chromium for the test file; each test opens a context of its own (its own sessionStorage). */
export async function launchBrowser(t: Test): Promise<Browser> {
  if (!await access(chromiumPath, constants.X_OK).then(() => true, () => false)) {
    throw new Error(`Chromium is needed but ${chromiumPath} is missing: apt-get install -y chromium (or set CHROMIUM_PATH)`)
  }
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs, timeout })
  t.teardown(() => browser.close())
  return browser
}

/** A fresh page in a fresh context, closed with the test; script errors and CSP violations fail the test. */
export async function newPage(t: Test, browser: Browser): Promise<Page> {
  const context = await browser.newContext()
  context.setDefaultTimeout(timeout)
  context.setDefaultNavigationTimeout(timeout)
  t.teardown(() => context.close())
  const page = await context.newPage()
  page.on('pageerror', (error) => t.fail(`script error on ${page.url()}: ${error.message}`))
  // The app must run under its own policy: a blocked script, style or request is a failure.
  page.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) t.fail(`CSP violation on ${page.url()}: ${message.text()}`) })
  return page
}

interface Violation { id: string; impact: string | null; help: string; targets: string[] }

let axeSource: Promise<string> | undefined

/**
 * axe-core's serious and critical violations on the page as it is. The script is evaluated through the
 * browser's debugging protocol, which the page's CSP does not govern, so the page is checked with its
 * real policy in force.
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  axeSource ??= readFile(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8')
  await page.evaluate(await axeSource)
  // A string, evaluated in the page: this project's TypeScript has no DOM types.
  const violations = await page.evaluate<Violation[]>(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => String(n.target)),
  })))`)
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}
