import { inflateRawSync } from 'node:zlib'
import t from 'tap'
import { TestIdp } from '../auth/saml/idp.js'
import { launchBrowser, newPage } from './browser.js'
import { serve, webDepartment } from './support.js'
import { buildTestApp } from '../helpers/app.js'

const browser = await launchBrowser(t)
const d = await webDepartment(t)

t.test('a sign-in link lands on the dashboard, leaves no token in the address, and works once', async (t) => {
  const link = await d.linkFor('fay')
  const page = await newPage(t, browser)
  await page.goto(link)
  await page.waitForURL(`${d.base}/dashboard`)
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
  t.notMatch(page.url(), 'token', 'the token is gone from the address')
  t.match(await page.getByRole('navigation', { name: 'Main' }).innerText(), 'Approvals', 'a navigation landmark')
  t.match(await page.locator('header').innerText(), 'fay@dept.edu', 'signed in as Fay')
  const stored = await page.evaluate<{ session: string | null; local: number; cookie: string }>(`({ session: sessionStorage.getItem('adks.session'), local: localStorage.length, cookie: document.cookie })`)
  t.match(stored.session, /"idToken":"ey/, 'the ID token is in sessionStorage')
  t.equal(stored.local, 0, 'nothing in localStorage')
  t.equal(stored.cookie, '', 'no cookie')

  const again = await newPage(t, browser)
  await again.goto(link)
  await again.getByRole('heading', { level: 1, name: 'Sign-in failed' }).waitFor()
  t.equal(await again.getByRole('alert').innerText(), 'This custom token was already used; sign in again', 'a spent link is refused with the server\'s message')
  t.equal(again.url(), `${d.base}/auth/saml-callback`, 'and its token is gone from the address too')
})

t.test('a signed-out visitor is sent to sign in and comes back to the page they opened', async (t) => {
  const page = await newPage(t, browser)
  await page.goto(`${d.base}/approvals`)
  await page.waitForURL(`${d.base}/sign-in?returnTo=%2Fapprovals`)
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
  await page.getByText('npm run token -- EMAIL --role ROLE --link').waitFor()
  t.equal(await page.getByRole('link', { name: 'Sign in with your campus account' }).count(), 0, 'no single sign-on link without SAML')
  await page.goto(await d.linkFor('fay'))
  await page.waitForURL(`${d.base}/approvals`)
  await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor()
  t.pass('back on /approvals after signing in')
})

t.test('signing out revokes the token and forgets it', async (t) => {
  const page = await newPage(t, browser)
  await page.goto(await d.linkFor('una'))
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
  const token = JSON.parse((await page.evaluate<string>(`sessionStorage.getItem('adks.session')`))).idToken as string
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL(`${d.base}/sign-in`)
  t.equal(await page.evaluate<string | null>(`sessionStorage.getItem('adks.session')`), null, 'the session is forgotten')
  const me = await d.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })
  t.equal(me.statusCode, 401, 'the token no longer works')
  await page.goto(`${d.base}/dashboard`)
  await page.waitForURL(`${d.base}/sign-in?returnTo=%2Fdashboard`)
})

t.test('an error from the sign-in redirect is shown as an alert', async (t) => {
  const page = await newPage(t, browser)
  await page.goto(`${d.base}/auth/saml-callback?error=${encodeURIComponent('Signature validation failed')}`)
  await page.getByRole('heading', { level: 1, name: 'Sign-in failed' }).waitFor()
  t.equal(await page.getByRole('alert').innerText(), 'Signature validation failed')
  t.equal(page.url(), `${d.base}/auth/saml-callback`, 'the address is cleaned')
})

t.test('single sign-on: a signed SAML response through the real callback into the app, back where the visitor was going', async (t) => {
  const idpSso = 'http://idp.test/sso'
  let idp: TestIdp | undefined
  const app = await serve((env) => {
    idp = new TestIdp(`${env.PUBLIC_URL}/api/auth/saml/callback`, env.PUBLIC_URL!)
    return buildTestApp(t, { ...env, SAML_IDP_SSO_URL: idpSso, SAML_IDP_LOGOUT_URL: 'http://idp.test/logout', SAML_IDP_CERT: idp.keys.certificate, SAML_IDP_ENTITY_ID: idp.entityId })
  })
  const page = await newPage(t, browser)
  // The IdP: reads the AuthnRequest, signs in Ada and posts the signed response back, as its page would.
  await page.route(`${idpSso}**`, async (route) => {
    const url = new URL(route.request().url())
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8')
    const requestId = /\sID="([^"]+)"/.exec(request)![1]!
    const response = idp!.signedResponse({ inResponseTo: requestId }, { netid: 'alovelace', affiliation: ['faculty'] })
    const relayState = url.searchParams.get('RelayState') ?? ''
    const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
    await route.fulfill({
      contentType: 'text/html',
      body: `<form method="post" action="${app.base}/api/auth/saml/callback"><input type="hidden" name="SAMLResponse" value="${attr(response)}">`
        + `<input type="hidden" name="RelayState" value="${attr(relayState)}"></form><script>document.forms[0].submit()</script>`,
    })
  })
  await page.goto(`${app.base}/settings/api-keys`)
  await page.waitForURL(`${app.base}/sign-in?returnTo=%2Fsettings%2Fapi-keys`)
  await page.getByRole('link', { name: 'Sign in with your campus account' }).click()
  await page.waitForURL(`${app.base}/settings/api-keys`)
  await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor()
  t.match(await page.locator('header').innerText(), 'alovelace@dept.edu (faculty)', 'signed in as the IdP said, with the role its affiliation gives')
  t.notMatch(page.url(), 'token')
})

t.test('without a built app, pages say so and the API is unaffected', async (t) => {
  const { app } = await buildTestApp(t, { WEB_DIR: '/nonexistent/web' })
  const page = await app.inject({ method: 'GET', url: '/dashboard' })
  t.equal(page.statusCode, 503)
  t.equal(page.json().code, 'ADKS_WEB_APP_NOT_BUILT')
  t.match(page.json().error, 'The web app is not built')
  t.equal(page.headers['cache-control'], 'no-store')
  t.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200)
  t.match((await app.inject({ method: 'GET', url: '/api/unknown' })).json(), { code: 'ADKS_ROUTE_NOT_FOUND', error: 'Route GET /api/unknown not found' })
})

