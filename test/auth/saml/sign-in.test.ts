import { createVerify } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { tempDir } from '../../helpers/temp-dir.js'
import { makeKeyAndCert } from './cert.js'
import { acsUrl, buildSamlApp, frontendRedirect, frontendUrl, newIdp, postCallback, spUrl, startLogin } from './flow.js'

const idp = newIdp()

t.test('login, callback, token exchange, and the ID token works as a bearer with the mapped role', async (t) => {
  const { app } = await buildSamlApp(t, idp)
  const login = await startLogin(app, '/courses/CS%20101?tab=sections')
  t.equal(`${login.location.origin}${login.location.pathname}`, idp.ssoUrl, 'redirects to the IdP SSO URL')
  t.match(login.authnRequest, `AssertionConsumerServiceURL="${acsUrl}"`)
  t.match(login.authnRequest, `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${spUrl}</saml:Issuer>`)
  t.match(login.authnRequest, 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified')
  t.notMatch(login.relayState, /courses/, 'RelayState is an opaque key, not the path')
  t.notOk(login.location.searchParams.has('Signature'), 'unsigned without SAML_KEY_PATH')

  const signingIn = Date.now()
  const callback = await postCallback(app, idp.signedResponse({ inResponseTo: login.requestId },
    { netid: 'alovelace', affiliation: ['faculty', 'member'] }), login.relayState)
  t.equal(callback.statusCode, 303)
  t.equal(callback.headers['cache-control'], 'no-store')
  const { url, params } = frontendRedirect(callback)
  t.equal(`${url.origin}${url.pathname}`, `${frontendUrl}/auth/saml-callback`)
  t.equal(params.returnTo, '/courses/CS%20101?tab=sections')
  t.notOk(params.error)
  t.ok(params.token)

  const exchange = await app.inject({ method: 'POST', url: '/api/auth/token', payload: { customToken: params.token } })
  t.equal(exchange.statusCode, 200, 'the custom token is exchanged')
  const { idToken, expiresIn, user } = exchange.json()
  t.equal(expiresIn, 3600)
  t.match(user, {
    id: 'User/netid-alovelace', email: 'alovelace@dept.edu', role: 'faculty', campusId: 'alovelace',
    displayName: 'Ada Lovelace', affiliation: ['faculty', 'member'], samlAuthenticated: true,
  })
  const claims = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString())
  t.match(claims, { sub: 'User/netid-alovelace', role: 'faculty', campusId: 'alovelace', samlAuthenticated: true, affiliation: ['faculty', 'member'] })

  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${idToken}` } })
  t.equal(me.statusCode, 200)
  t.match(me.json(), { id: 'User/netid-alovelace', role: 'faculty', campusId: 'alovelace' })
  t.ok(me.json().permissions.includes('write_publications'), 'faculty permissions apply')

  const stored = await app.users.byId('User/netid-alovelace')
  t.match(stored, {
    campus_id: 'alovelace', first_name: 'Ada', last_name: 'Lovelace', department: 'Computer Science', saml_authenticated: true,
  })
  // Bracketed by the clock around the sign-in rather than held to an age, which a busy machine could exceed.
  const lastLogin = Date.parse(stored!.last_login_at!)
  t.ok(lastLogin >= signingIn && lastLogin <= Date.now(), 'last_login_at is set, to the sign-in\'s time')
})

t.test('a JSON client gets the token as JSON', async (t) => {
  const { app } = await buildSamlApp(t, idp)
  const login = await startLogin(app)
  const callback = await postCallback(app, idp.signedResponse({ inResponseTo: login.requestId }), login.relayState, true)
  t.equal(callback.statusCode, 200)
  t.equal(callback.json().returnTo, '/dashboard')
  t.type(callback.json().token, 'string')
})

t.test('metadata names the entity id, the ACS URL and the NameID format', async (t) => {
  const { app } = await buildSamlApp(t, idp)
  const response = await app.inject({ method: 'GET', url: '/api/auth/saml/metadata' })
  t.equal(response.statusCode, 200)
  t.match(response.headers['content-type'], /^application\/samlmetadata\+xml/)
  t.match(response.body, `entityID="${spUrl}"`)
  t.match(response.body, `Location="${acsUrl}"`)
  t.match(response.body, 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST')
  t.match(response.body, '<NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified</NameIDFormat>')
  t.match(response.body, 'WantAssertionsSigned="true"')
  t.notMatch(response.body, 'X509Certificate', 'no SP certificate configured')
})

t.test('with SAML_KEY_PATH the AuthnRequest is signed with RSA-SHA256 and the metadata carries the certificate', async (t) => {
  const sp = makeKeyAndCert('Test SP')
  const dir = await tempDir(t)
  await writeFile(join(dir, 'sp.key'), sp.privateKey)
  await writeFile(join(dir, 'sp.crt'), sp.certificate)
  const { app } = await buildSamlApp(t, idp, { SAML_KEY_PATH: join(dir, 'sp.key'), SAML_CERT_PATH: join(dir, 'sp.crt') })

  const response = await app.inject({ method: 'GET', url: '/api/auth/saml/login' })
  const location = String(response.headers.location)
  const query = location.slice(location.indexOf('?') + 1)
  const param = (name: string) => query.split('&').find((p) => p.startsWith(`${name}=`))!
  t.equal(decodeURIComponent(param('SigAlg').split('=')[1]!), 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256')
  const signed = [param('SAMLRequest'), param('RelayState'), param('SigAlg')].join('&')
  const signature = Buffer.from(decodeURIComponent(param('Signature').split('=')[1]!), 'base64')
  t.ok(createVerify('RSA-SHA256').update(signed).verify(sp.certificate, signature), 'signature verifies with the SP certificate')
  t.notOk(createVerify('RSA-SHA256').update(signed).verify(idp.keys.certificate, signature), 'and with no other')

  const metadata = await app.inject({ method: 'GET', url: '/api/auth/saml/metadata' })
  t.match(metadata.body, sp.certificateBody.slice(0, 64))
  t.match(metadata.body, 'AuthnRequestsSigned="true"')
})

t.test('logout redirects to the IdP logout address', async (t) => {
  const { app } = await buildSamlApp(t, idp)
  const response = await app.inject({ method: 'GET', url: '/api/auth/saml/logout' })
  t.equal(response.statusCode, 302)
  t.equal(response.headers.location, idp.logoutUrl)
})
