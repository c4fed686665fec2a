/**
 * npm run screenshots [-- NAME...]: the README's pictures of the web app, taken in Debian's Chromium on
 * the sample department (scripts/bench/web-served.ts) at 1280x800, each signed in as whoever uses the
 * page (web-served.ts sampleRoles): docs/screenshots/dashboard.png (an undergraduate's dashboard, their
 * major plan in review), planner.png (the same student's plan on the planner's board, its terms side by
 * side), approvals.png (the department admin's inbox, which the seeded workflow cases fill),
 * progress.png (a senior's degree progress, seen by the admin) and admin-form.png (the generated form
 * for a new course). With names, only those. Each is taken once its page shows its data; a page that
 * never shows its heading within 60 s, or shows an error, is named, the others are still taken, and the
 * script exits 1.
 */
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { launchChromium, sampleRoles, sampleStudent, serveSample, signedInContext, signIn, timeout, type SamplePerson } from './bench/web-served.js'

interface Shot {
  readonly name: string
  readonly path: string
  readonly who: SamplePerson
  /** The page's h1, exactly or as a pattern. */
  readonly heading: string | RegExp
  /** Resolves once the page shows its data (doing what it takes to show it). */
  readonly data: (page: Page) => Promise<void>
}

const student = sampleRoles.undergraduate

const shots: readonly Shot[] = [
  {
    name: 'dashboard', path: '/dashboard', who: student, heading: 'Dashboard',
    data: async (page) => {
      await page.getByRole('progressbar').first().waitFor()
      await page.getByRole('status').filter({ hasText: 'Loading' }).first().waitFor({ state: 'detached' })
    },
  },
  {
    name: 'planner', path: `/students/${encodeURIComponent(student.personId)}/plans`, who: student, heading: 'Study plans',
    data: async (page) => {
      await page.getByRole('button', { name: /^Edit / }).first().click()
      const board = page.getByRole('heading', { level: 2, name: /^Edit / })
      await board.waitFor()
      await page.getByRole('progressbar', { name: 'Projected overall progress' }).waitFor()
      // The board starts half way down the page: the picture is of the board, from its heading.
      const box = await board.boundingBox()
      if (box) await page.evaluate(`window.scrollBy(0, ${Math.round(box.y) - 16})`)
    },
  },
  {
    name: 'approvals', path: '/approvals', who: sampleRoles.admin, heading: 'Approvals',
    data: (page) => page.locator('main tbody tr').first().getByRole('link').waitFor(),
  },
  {
    name: 'progress', path: `/students/${encodeURIComponent(sampleStudent)}/progress`, who: sampleRoles.admin, heading: /^Degree progress: /,
    data: (page) => page.getByRole('progressbar').first().waitFor(),
  },
  {
    name: 'admin-form', path: '/admin/records/Course/new', who: sampleRoles.admin, heading: 'New Course',
    data: (page) => page.getByRole('button', { name: 'Save' }).waitFor(),
  },
]

const outDir = fileURLToPath(new URL('../docs/screenshots/', import.meta.url))

async function main(): Promise<number> {
  const names = process.argv.slice(2)
  const unknown = names.filter((name) => !shots.some((s) => s.name === name))
  if (unknown.length) throw new Error(`no screenshot named ${unknown.join(', ')}; there are ${shots.map((s) => s.name).join(', ')}`)
  const wanted = shots.filter((s) => !names.length || names.includes(s.name))
  await mkdir(outDir, { recursive: true })
  const served = await serveSample()
  const browser = await launchChromium()
  const failures: string[] = []
  try {
    const sessions = new Map<string, [string, string][]>()
    for (const shot of wanted) {
      if (!sessions.has(shot.who.email)) sessions.set(shot.who.email, await signIn(browser, await served.link(shot.who.email)))
      const { context, problems } = await signedInContext(browser, served.base, sessions.get(shot.who.email)!, { viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'UTC' })
      try {
        const page = await context.newPage()
        await page.goto(served.base + shot.path)
        const heading = page.getByRole('heading', { level: 1, name: shot.heading })
        const shown = await heading.waitFor({ timeout }).then(() => true, () => false)
        if (!shown) {
          const h1 = await page.locator('h1').first().textContent({ timeout: 1000 }).catch(() => null)
          failures.push(`${shot.path} (${shot.name}.png) never showed its heading "${String(shot.heading)}" within ${timeout / 1000} s${h1 ? `; it shows "${h1}"` : ''}`)
          continue
        }
        await shot.data(page)
        const alerts = await page.locator('main [role=alert]').allTextContents()
        if (alerts.length) problems.push(`it shows an error: ${alerts.join(' / ')}`)
        if (problems.length) {
          failures.push(`${shot.path} (${shot.name}.png): ${problems.join('; ')}`)
          continue
        }
        await page.screenshot({ path: `${outDir}${shot.name}.png`, animations: 'disabled', caret: 'hide' })
        console.log(`docs/screenshots/${shot.name}.png: ${shot.path} as the ${shot.who.label} (${shot.who.personId})`)
      } finally {
        await context.close()
      }
    }
  } finally {
    await browser.close()
    await served.close()
  }
  for (const failure of failures) console.error(`not taken: ${failure}`)
  return failures.length ? 1 : 0
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(`screenshots failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
