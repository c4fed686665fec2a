import { access, constants } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { chromium, type BrowserContext } from 'playwright-core'
import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'

/** Debian's chromium package; CI installs it (apt-get install -y chromium). */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Headless, and nothing that reaches outside this machine: no sandbox (tests run as root in CI), no GPU,
 * no QUIC, no first-run, sync, component updates or background traffic.
 */
const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
]

interface Shown {
  readonly operations: readonly string[]
  readonly paths: readonly string[]
  readonly tags: readonly string[]
  readonly atEnd: boolean
}

t.test('Swagger UI at /documentation lists the routes of every resource', async (t) => {
  const executable = await access(chromiumPath, constants.X_OK).then(() => true, () => false)
  if (!executable) {
    t.fail(`Chromium is needed for this test but ${chromiumPath} is missing: install it with apt-get install -y chromium (or set CHROMIUM_PATH)`)
    return
  }
  const { app } = await buildTestApp(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo

  let context: BrowserContext | undefined
  const profile = await tempDir(t, async () => context?.close())
  context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath, headless: true, args: chromiumArgs, timeout: 60_000 })
  const page = await context.newPage()
  const response = await page.goto(`http://127.0.0.1:${port}/documentation`, { waitUntil: 'load', timeout: 30_000 })
  t.equal(response?.status(), 200, '/documentation answers')

  const operations = (await app.inject({ method: 'GET', url: '/documentation/json' })).json().paths as Record<string, object>
  const expected = Object.values(operations).reduce((n, methods) => n + Object.keys(methods).length, 0)
  // With 150 tags and operations or more, Swagger UI renders only those near the viewport: scroll the
  // whole page and gather what each screen shows.
  await page.locator('.opblock').first().waitFor({ timeout: 60_000 })
  const seen = { operations: new Set<string>(), paths: new Set<string>(), tags: new Set<string>() }
  for (let step = 0; step < 2000 && seen.operations.size < expected; step++) {
    // A string, evaluated in the page: this project's TypeScript has no DOM types.
    const shown = await page.evaluate<Shown>(`({
      operations: [...document.querySelectorAll('.opblock')].map((e) => e.id),
      paths: [...document.querySelectorAll('.opblock-summary-path')].map((e) => e.getAttribute('data-path') ?? ''),
      tags: [...document.querySelectorAll('.opblock-tag')].map((e) => e.getAttribute('data-tag') ?? ''),
      atEnd: window.scrollY + window.innerHeight >= document.documentElement.scrollHeight,
    })`)
    for (const name of ['operations', 'paths', 'tags'] as const) for (const value of shown[name]) seen[name].add(value)
    if (shown.atEnd) break
    await page.mouse.wheel(0, 400)
    await page.waitForTimeout(20)
  }
  t.equal(seen.operations.size, expected, `all ${expected} operations are rendered`)
  await page.evaluate('window.scrollTo(0, 0)')

  const text = (await page.locator('body').innerText()).replace(/\u200b/g, '')
  t.match(text, 'Academic Department Knowledge Service', 'the title is shown')
  // Swagger UI breaks long paths with zero-width spaces; the data-path attribute holds them whole.
  for (const resource of app.schema.resources) {
    t.ok(seen.paths.has(resource.path), `${resource.path} is listed`)
    t.ok(seen.paths.has(`${resource.path}/{id}`), `${resource.path}/{id} is listed`)
  }
  for (const path of ['/health', '/ready', '/api/schemas/{entityType}', '/api/auth/me']) t.ok(seen.paths.has(path), `${path} is listed`)
  // Descriptions are Markdown: text in angle brackets must reach the reader, not vanish as an HTML tag.
  t.match(text, 'ids of the form <Type>/<identifier>', 'the id form is shown in the introduction')
  const detail = page.locator('.opblock-get', { has: page.locator('[data-path="/api/people/{id}"]') })
  await detail.locator('.opblock-summary').click()
  await detail.locator('.parameters').waitFor({ timeout: 30_000 })
  t.match(await detail.locator('.parameters').innerText(), 'Person id, <Type>/<identifier>', 'the id parameter is described')
  await page.locator('.btn.authorize').first().click()
  await page.locator('.auth-container').first().waitFor({ timeout: 30_000 })
  t.match(await page.locator('.auth-container').first().innerText(), 'npm run token -- <email> --role <role>', 'the sign-in hint is shown')
  for (const tag of ['People', 'Courses', 'Degrees', 'Research', 'Publications', 'Schemas', 'Workflows']) {
    t.ok(seen.tags.has(tag), `the ${tag} tag has its section`)
  }
})
