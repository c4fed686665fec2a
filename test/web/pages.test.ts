import t from 'tap'
import { readFile, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { path, startOne } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser, newPage } from './browser.js'
import { servedApp, webDepartment } from './support.js'

t.test('pages and assets: the headers docs/web.md lists, assets exempt from rate limits, /api/* still the API\'s', async (t) => {
  const { base, app } = await servedApp(t, { RATE_LIMIT_ANONYMOUS: '3' })
  const page = await fetch(`${base}/students/x/progress`)
  t.equal(page.status, 200)
  t.match(page.headers.get('content-type'), 'text/html')
  t.equal(page.headers.get('cache-control'), 'no-store', 'index.html is never cached')
  const csp = page.headers.get('content-security-policy') ?? ''
  t.match(csp, /(^|;)script-src 'self'(;|$)/, 'scripts from the app itself only')
  t.notMatch(csp, /unsafe-inline|unsafe-eval/, 'no inline script or style, no eval')
  t.match(csp, /frame-ancestors 'none'/, 'never framed')
  t.equal(page.headers.get('referrer-policy'), 'no-referrer')
  t.equal(page.headers.get('x-frame-options'), 'DENY')

  const html = await page.text()
  t.notMatch(html.replace(/<script[^>]*src=[^>]*><\/script>/g, ''), /<script/, 'no inline script in index.html')
  const assets = await readdir(join(app.config.webDir, 'assets'))
  const script = assets.find((name) => name.endsWith('.js'))!
  for (let i = 0; i < 6; i++) {
    const asset = await fetch(`${base}/assets/${script}`)
    t.equal(asset.status, 200, `asset request ${i + 1} of 6 is served (the anonymous limit is 3)`)
    t.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable')
    t.equal(asset.headers.get('x-ratelimit-limit'), null, 'and not counted')
    await asset.arrayBuffer()
  }
  // The build's Brotli and gzip copies are sent as the browser accepts them, the same bytes once decoded.
  const sizes = await Promise.all(assets.filter((name) => name.endsWith('.js')).map(async (name) => [name, (await stat(join(app.config.webDir, 'assets', name))).size] as const))
  const largest = sizes.sort((a, b) => b[1] - a[1])[0]![0]
  const raw = await readFile(join(app.config.webDir, 'assets', largest))
  for (const encoding of ['br', 'gzip']) {
    const encoded = await fetch(`${base}/assets/${largest}`, { headers: { 'accept-encoding': encoding } })
    t.equal(encoded.headers.get('content-encoding'), encoding, `${largest} is sent as ${encoding} to a browser that accepts it`)
    t.match(encoded.headers.get('vary'), /accept-encoding/i, 'and caches know the answer depends on it')
    t.same(Buffer.from(await encoded.arrayBuffer()), raw, 'decoded, it is the built file')
  }
  const identity = await fetch(`${base}/assets/${largest}`, { headers: { 'accept-encoding': 'identity' } })
  t.equal(identity.headers.get('content-encoding'), null, 'and as it is to one that accepts neither')
  t.same(Buffer.from(await identity.arrayBuffer()), raw)
  const missing = await fetch(`${base}/assets/nothing-here.js`)
  t.equal(missing.status, 404, 'a missing asset is a 404, not the app')

  const statuses: number[] = []
  for (let i = 0; i < 4; i++) {
    const unknown = await fetch(`${base}/api/unknown`)
    statuses.push(unknown.status)
    t.match(unknown.headers.get('content-type'), 'application/json')
    const body = await unknown.json() as { error: string }
    if (unknown.status === 404) t.same(body, { success: false, error: 'Route GET /api/unknown not found', statusCode: 404, code: 'ADKS_ROUTE_NOT_FOUND' })
  }
  t.same(statuses, [404, 404, 404, 429], '/api/unknown stays the API\'s JSON 404, counted against the caller\'s address')
  t.equal((await fetch(`${base}/health`)).headers.get('content-security-policy'), null, 'the API\'s answers carry no page headers')
})

t.test('axe-core finds no serious or critical violation on any page', async (t) => {
  const browser = await launchBrowser(t)
  const d = await webDepartment(t)
  const thesis = await startOne(t, d, 'honors_thesis', 1)
  const anonymous = await newPage(t, browser)
  const fay = await newPage(t, browser)
  await fay.goto(await d.linkFor('fay'))
  await fay.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
  const pages: [string, typeof fay, string, string][] = [
    ['sign-in', anonymous, '/sign-in', 'Sign in'],
    ['failed sign-in', anonymous, '/auth/saml-callback?error=Signature%20validation%20failed', 'Sign-in failed'],
    ['dashboard', fay, '/dashboard', 'Dashboard'],
    ['progress', fay, `/students/${path(d.ids.una)}/progress`, 'Degree progress: Una Under'],
    ['approvals', fay, '/approvals', 'Approvals'],
    ['approval', fay, `/approvals/thesis/${path(thesis.id)}`, 'Thesis 1'],
    ['API keys', fay, '/settings/api-keys', 'API keys'],
    ['not found', fay, '/no/such/page', 'Page not found'],
  ]
  for (const [label, page, url, heading] of pages) {
    await page.goto(`${d.base}${url}`)
    await page.getByRole('heading', { level: 1, name: heading }).waitFor()
    // The page's data is shown (or refused) before it is checked.
    await page.getByRole('status').filter({ hasText: /Loading|Checking/ }).first().waitFor({ state: 'detached' })
    t.equal(await page.getByRole('heading', { level: 1 }).count(), 1, `${label}: one <h1>`)
    const violations = await axeViolations(page)
    t.same(violations, [], `${label}: no serious or critical violation`)
  }
})
