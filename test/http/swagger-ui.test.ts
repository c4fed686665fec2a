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
  await page.locator('.opblock').nth(expected - 1).waitFor({ timeout: 30_000 })
  t.equal(await page.locator('.opblock').count(), expected, `all ${expected} operations are rendered`)

  // Swagger UI breaks long paths with zero-width spaces; the reader sees them without.
  const text = (await page.locator('body').innerText()).replace(/\u200b/g, '')
  t.match(text, 'Academic Department Knowledge Service', 'the title is shown')
  for (const resource of app.schema.resources) {
    t.ok(text.includes(`${resource.path}\n`) || text.includes(`${resource.path} `), `${resource.path} is listed`)
    t.ok(text.includes(`${resource.path}/{id}`), `${resource.path}/{id} is listed`)
  }
  for (const path of ['/health', '/ready', '/api/schemas/{entityType}', '/api/auth/me']) t.ok(text.includes(path), `${path} is listed`)
  // Descriptions are Markdown: text in angle brackets must reach the reader, not vanish as an HTML tag.
  t.match(text, 'ids of the form <Type>/<identifier>', 'the id form is shown in the introduction')
  const detail = page.locator('.opblock-get', { has: page.locator('[data-path="/api/people/{id}"]') })
  await detail.locator('.opblock-summary').click()
  await detail.locator('.parameters').waitFor({ timeout: 10_000 })
  t.match(await detail.locator('.parameters').innerText(), 'Person id, <Type>/<identifier>', 'the id parameter is described')
  await page.locator('.btn.authorize').first().click()
  await page.locator('.auth-container').first().waitFor({ timeout: 10_000 })
  t.match(await page.locator('.auth-container').first().innerText(), 'npm run token -- <email> --role <role>', 'the sign-in hint is shown')
  for (const tag of ['People', 'Courses', 'Degrees', 'Research', 'Publications', 'Schemas']) {
    t.equal(await page.locator(`.opblock-tag[data-tag="${tag}"]`).count(), 1, `the ${tag} tag has its section`)
  }
})
