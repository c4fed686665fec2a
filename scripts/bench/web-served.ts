/**
 * The sample department served with its web app, for the scripts that drive it in Debian's Chromium
 * (`npm run screenshots`, `npm run bench:web`): seeded into a temporary directory as `npm start` seeds
 * it, served with `npm start`'s runtime flags (from the sources, through tsx) on a free loopback port
 * that is its PUBLIC_URL, and signed into with one-time links signed with the key the service verifies.
 */
import { access, constants, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core'
import { signInLink } from '../../src/auth/custom-token.js'
import { signingKeys } from '../../src/auth/keys.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { loadConfig } from '../../src/config.js'
import { workflowDomains, type WorkflowDomainKey } from '../../src/workflows/registry.js'
import { chromiumArgs, chromiumPath } from '../../test/web/browser.js'
import { ensureWebBuilt } from '../../test/web/build.js'
import { generateCatalog } from '../sample/index.js'
import { sampleWorkflows } from '../sample/workflow-cases.js'
import { freePort, run, serviceArgs, startServer, stop } from './processes.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** Every wait on the browser or the service is bounded by this. */
export const timeout = 60_000

const catalog = generateCatalog(1)
// The cast does not depend on the stage counts (workflow-seed.ts reads it the same way).
const { cast } = sampleWorkflows(catalog, Object.fromEntries(workflowDomains.map((d) => [d, 1])) as Record<WorkflowDomainKey, number>)

/** A department admin of the sample: an approver at the last stage of every workflow, so their inbox is full. */
export const sampleAdmin = cast.admins[0]!.body.email as string
/** The sample's first undergraduate, a senior of the BS in Computer Science. */
export const sampleStudent = catalog.undergraduates[0]!.id

const people = new Map([...catalog.faculty, ...catalog.staff, ...catalog.undergraduates, ...catalog.graduates].map((p) => [p.id, p]))

export interface SamplePerson {
  /** What they stand for, in a report's words. */
  readonly label: string
  readonly personId: string
  readonly email: string
}

function person(label: string, personId: string): SamplePerson {
  const found = people.get(personId)
  if (!found) throw new Error(`${personId} is not in the sample department`)
  return { label, personId, email: found.body.email as string }
}

/**
 * One signed-in user of the sample for each kind of dashboard (docs/web.md, "The dashboard"). Only
 * people the seeded workflow cases involve have users, so each is one of those, chosen for what their
 * dashboard has to load: the undergraduate's major plan is in review (their plans are read for its name:
 * a student's most requests), the graduate student has a request returned for revision and one rejected,
 * the advisor has requests at the advisor stage, the committee member a committee's queue, and the
 * admin, the department stage's approver, every workflow's last stage.
 */
export const sampleRoles = {
  undergraduate: person('undergraduate student', 'UndergraduateStudent/zgomez'),
  graduate: person('graduate student', 'GraduateStudent/mchen'),
  advisor: person('faculty advisor', 'Faculty/eflores'),
  committee: person('faculty committee member', 'Faculty/kcollins'),
  admin: person('department admin', cast.admins[0]!.id),
} as const satisfies Record<string, SamplePerson>

export interface ServedSample {
  /** http://127.0.0.1:<port>, the service's PUBLIC_URL. */
  readonly base: string
  /** A one-time sign-in link for a sample person's user. */
  link(email: string): Promise<string>
  close(): Promise<void>
}

export async function serveSample(): Promise<ServedSample> {
  const webDir = await ensureWebBuilt()
  const dataDir = await mkdtemp(join(tmpdir(), 'adks-web-'))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const env = { DATA_DIR: dataDir, PUBLIC_URL: base, WEB_DIR: webDir, LOG_LEVEL: 'warn' }
  await run(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--if-empty'], env, root)
  // tsx compiles the sources as they load, which takes seconds on a busy machine: a minute's polling.
  const { child } = await startServer(process.execPath, ['--import', 'tsx', ...serviceArgs.slice(0, -1), 'src/server.ts'], env, port, '/health', root, 3000)
  const config = loadConfig({ ...process.env, ...env, PORT: String(port) })
  const keys = await signingKeys(config)
  return {
    base,
    link: async (email) => signInLink(keys, config, { sub: userIdForEmail(email), email }),
    close: async () => {
      await stop(child)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

export async function launchChromium(): Promise<Browser> {
  if (!await access(chromiumPath, constants.X_OK).then(() => true, () => false)) {
    throw new Error(`Chromium is needed but ${chromiumPath} is missing: apt-get install -y chromium (or set CHROMIUM_PATH)`)
  }
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs, timeout })
}

/** The tab's sessionStorage after following a sign-in link to the dashboard: the signed-in session. */
export async function signIn(browser: Browser, link: string): Promise<[string, string][]> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(link, { timeout })
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout })
    return await page.evaluate<[string, string][]>('Object.entries(sessionStorage)')
  } finally {
    await context.close()
  }
}

/**
 * A fresh context (an empty cache) whose tabs start with the session in their sessionStorage, as a tab
 * that signed in earlier has it, so a load measures the signed-in page and not the sign-in. Script
 * errors and CSP violations are collected in `problems`: a page that breaks measures nothing.
 */
export async function signedInContext(browser: Browser, base: string, session: [string, string][], options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; problems: string[] }> {
  const context = await browser.newContext(options)
  context.setDefaultTimeout(timeout)
  context.setDefaultNavigationTimeout(timeout)
  // Run through the debugging protocol before the page's own scripts, so the page's CSP does not apply.
  await context.addInitScript(`if (location.origin === ${JSON.stringify(base)}) for (const [k, v] of ${JSON.stringify(session)}) sessionStorage.setItem(k, v)`)
  const problems: string[] = []
  context.on('weberror', (error) => problems.push(`script error on ${error.page()?.url()}: ${error.error().message}`))
  context.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) problems.push(`CSP violation on ${message.page()?.url()}: ${message.text()}`) })
  return { context, problems }
}
