/**
 * npm run screenshots [-- NAME...]: the README's pictures of the web app, taken in Debian's Chromium on
 * the sample department (scripts/bench/web-served.ts) signed in as one of its admins, at 1280x800:
 * docs/screenshots/progress.png (a senior's degree progress), approvals.png (the admin's inbox, which the
 * seeded workflow cases fill) and admin-form.png (the generated form for a new course). With names,
 * only those. Each is taken once its page shows its data; a page that never shows its heading within
 * 60 s is named, the others are still taken, and the script exits 1.
 */
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { launchChromium, sampleAdmin, sampleStudent, serveSample, signedInContext, signIn, timeout } from './bench/web-served.js'

interface Shot {
  readonly name: string
  readonly path: string
  /** The page's h1, exactly or as a pattern. */
  readonly heading: string | RegExp
  /** Resolves once the page shows its data. */
  readonly data: (page: Page) => Promise<void>
}

const shots: readonly Shot[] = [
  {
    name: 'progress', path: `/students/${encodeURIComponent(sampleStudent)}/progress`, heading: /^Degree progress: /,
    data: (page) => page.getByRole('progressbar').first().waitFor(),
  },
  {
    name: 'approvals', path: '/approvals', heading: 'Approvals',
    data: (page) => page.locator('main tbody tr').first().getByRole('link').waitFor(),
  },
  {
    name: 'admin-form', path: '/admin/records/Course/new', heading: 'New Course',
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
    const session = await signIn(browser, await served.link(sampleAdmin))
    for (const shot of wanted) {
      const { context, problems } = await signedInContext(browser, served.base, session, { viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'UTC' })
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
        if (problems.length) {
          failures.push(`${shot.path} (${shot.name}.png): ${problems.join('; ')}`)
          continue
        }
        await page.screenshot({ path: `${outDir}${shot.name}.png`, animations: 'disabled', caret: 'hide' })
        console.log(`docs/screenshots/${shot.name}.png: ${shot.path}`)
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
